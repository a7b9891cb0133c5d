import { describe, expect, it } from "vitest";
import { alternatingMessages, buildInput, modelDescriptor } from "@/tests/context/fixtures";
import { buildContext, PHASE_A } from "./build-context";
import { PHASE_B, resolveForModel } from "./resolve-for-model";
import { type Stage, StageList } from "./stage";

/** A clock that advances by `step` ms every time it is read. */
function steppingClock(step: number): () => number {
  let now = 0;
  return () => {
    now += step;
    return now;
  };
}

describe("the stage runner", () => {
  const double: Stage<number, number, { by: number }> = {
    name: "double",
    run: (value, { by }) => ({ value: value * by, trace: [] }),
  };
  const describeValue: Stage<number, string, { by: number }> = {
    name: "describe",
    run: (value) => ({
      value: `got ${value}`,
      trace: [{ stage: "load", action: "described", reason: `described ${value}` }],
    }),
  };

  it("runs the stages in order, each on the output of the one before, and keeps their events in order", () => {
    const run = StageList.startingWith(double).followedBy(double).followedBy(describeValue).run(3, { by: 2 });
    expect(run.value).toBe("got 12");
    expect(run.trace.map((event) => event.reason)).toEqual(["described 12"]);
    expect(run.stageTimings).toEqual([
      { stage: "double", ms: 0 },
      { stage: "double", ms: 0 },
      { stage: "describe", ms: 0 },
    ]);
  });

  it("times each stage with the clock it is given", () => {
    const run = StageList.startingWith(double).followedBy(describeValue).run(1, { by: 2 }, steppingClock(5));
    expect(run.stageTimings).toEqual([
      { stage: "double", ms: 5 },
      { stage: "describe", ms: 5 },
    ]);
  });
});

describe("the phases", () => {
  it("list their stages in the order the architecture document gives", () => {
    expect(PHASE_A.names).toEqual([
      "load",
      "reach",
      "unanswered",
      "collapse",
      "blocks",
      "roles",
      "media-budget",
      "artifacts",
      "window",
      "notes",
      "system-prompt",
      "summary",
      "current-input",
    ]);
    expect(PHASE_B.names).toEqual([
      "recount",
      "reasoning",
      "media-resolution",
      "tool-pairing",
      "normalise",
      "budget",
      "stop-strings",
      "cache",
      "serialise",
    ]);
  });

  it("record every stage's time in their results, measured only with a clock", () => {
    const input = buildInput({ messages: alternatingMessages(4) });
    const base = buildContext(input, { clock: steppingClock(1) });
    expect(base.stageTimings).toEqual(PHASE_A.names.map((stage) => ({ stage, ms: 1 })));
    const resolved = resolveForModel(base, modelDescriptor(), { clock: steppingClock(2) });
    expect(resolved.stageTimings).toEqual(PHASE_B.names.map((stage) => ({ stage, ms: 2 })));

    const untimed = buildContext(input);
    expect(untimed.stageTimings?.every((timing) => timing.ms === 0)).toBe(true);
    expect(untimed.items).toEqual(base.items);
  });
});
