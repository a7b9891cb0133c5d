import { describe, expect, it } from "vitest";
import { defaultSettings, type ResolvedSettings } from "@/lib/domain/settings";
import type { ContextItem, ItemSender, ModelDescriptor } from "@/lib/domain/types";
import { modelDescriptor } from "@/tests/context/fixtures";
import { buildStopSequences, otherSpeakerNames, speakerStopString } from "./stop-strings";

function model(maxStopSequences: number): ModelDescriptor {
  return modelDescriptor(
    { id: `model-${maxStopSequences}`, contextWindow: 8_000, maxOutputTokens: 1_000 },
    { vision: false, tools: false, maxStopSequences },
  );
}
function settings(stop: Partial<ResolvedSettings["stop"]>): ResolvedSettings {
  const base = defaultSettings();
  return { ...base, stop: { ...base.stop, ...stop } };
}
function said(id: string, role: ContextItem["role"], sender?: ItemSender): ContextItem {
  return {
    id,
    role,
    tag: "DIALOGUE_HISTORY",
    parts: [{ type: "text", text: "…" }],
    sourceMessageIds: [id],
    tokens: 3,
    ...(sender ? { sender } : {}),
  };
}
const ada: ItemSender = { type: "user", name: "Ada" };
const bob: ItemSender = { type: "user", name: "Bob  Smith" };
const tomori: ItemSender = { type: "persona", name: "Tomori" };
const room = [
  said("1", "user", ada),
  said("2", "assistant", tomori),
  said("3", "user", bob),
  said("4", "user", ada),
  said("5", "system"),
];

describe("stop strings", () => {
  it("builds the speaker pattern with collapsed whitespace", () => {
    expect(speakerStopString(" Bob  Smith ")).toBe("\nBob Smith:");
  });

  it("lists the other participants, most recent first, never the assistant's own voice", () => {
    expect(otherSpeakerNames(room)).toEqual(["Ada", "Bob Smith"]);
    expect(otherSpeakerNames([...room, said("6", "user", { type: "persona", name: "Tomori" })])).toEqual([
      "Ada",
      "Bob Smith",
    ]);
  });

  it("sends the configured strings only, when the speaker pattern is off", () => {
    const out = buildStopSequences(room, model(4), settings({ strings: ["###", "END"] }));
    expect(out).toEqual({ value: ["###", "END"], trace: [] });
  });

  it("adds the speaker patterns after the configured strings, de-duplicated in order", () => {
    const out = buildStopSequences(
      room,
      model(5),
      settings({ strings: ["###", "\nAda:", "###"], speakerPattern: true }),
    );
    expect(out.value).toEqual(["###", "\nAda:", "\nBob Smith:"]);
    expect(out.trace).toEqual([]);
  });

  it("puts a caller's own stop strings after the configured ones and before the speaker patterns", () => {
    const out = buildStopSequences(room, model(5), settings({ strings: ["###"], speakerPattern: true }), [
      "<<END>>",
      "###",
    ]);
    expect(out.value).toEqual(["###", "<<END>>", "\nAda:", "\nBob Smith:"]);
  });

  it("caps at the model's limit and traces the dropped ones", () => {
    const out = buildStopSequences(
      room,
      model(4),
      settings({ strings: ["a", "b", "c"], speakerPattern: true }),
    );
    expect(out.value).toEqual(["a", "b", "c", "\nAda:"]);
    expect(out.trace).toEqual([
      {
        stage: "stop-strings",
        action: "dropped-stop-strings",
        reason: "1 stop string(s) over model-4's limit of 4 were not sent",
        level: "warning",
        counts: { kept: 4, dropped: 1 },
        details: { dropped: ["\nBob Smith:"], limit: 4 },
      },
    ]);
  });

  it("sends none to a model that accepts none", () => {
    const out = buildStopSequences(room, model(0), settings({ strings: ["a"] }));
    expect(out.value).toEqual([]);
    expect(out.trace[0]?.details).toEqual({ dropped: ["a"], limit: 0 });
  });
});
