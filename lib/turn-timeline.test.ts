import { describe, expect, test } from "vitest";
import { turnTimeline } from "./turn-timeline";

const attempt = (
  id: string,
  attemptNumber: number,
  queuedAt: string,
  timings: { firstByteMs?: number; firstTokenMs?: number; doneMs?: number },
  status = "ok",
) => ({
  id,
  attemptNumber,
  stepNumber: 0,
  modelId: "openai:gpt-4.1-mini",
  status,
  timings: { queuedAt, ...timings },
});

describe("turnTimeline", () => {
  test("a 429, a wait, then a reply: bars on one scale, the gap is the wait", () => {
    const timeline = turnTimeline([
      attempt("a", 1, "2026-11-26T10:00:00.000Z", { firstByteMs: 50, doneMs: 100 }, "error"),
      attempt("b", 2, "2026-11-26T10:00:00.300Z", { firstByteMs: 40, firstTokenMs: 150, doneMs: 700 }),
    ]);
    expect(timeline.totalMs).toBe(1_000);
    expect(timeline.rows).toEqual([
      {
        id: "a",
        label: "#1 openai:gpt-4.1-mini",
        status: "error",
        queuedAt: "2026-11-26T10:00:00.000Z",
        startMs: 0,
        endMs: 100,
        firstByteMs: 50,
        firstTokenMs: null,
        queuedPercent: 0,
        startPercent: 0,
        widthPercent: 10,
        firstBytePercent: 5,
        firstTokenPercent: null,
      },
      {
        id: "b",
        label: "#2 openai:gpt-4.1-mini",
        status: "ok",
        queuedAt: "2026-11-26T10:00:00.300Z",
        startMs: 300,
        endMs: 1_000,
        firstByteMs: 40,
        firstTokenMs: 150,
        queuedPercent: 30,
        startPercent: 30,
        widthPercent: 70,
        firstBytePercent: 34,
        firstTokenPercent: 45,
      },
    ]);
  });

  test("each attempt has a queued mark at the moment it was queued, before its first byte", () => {
    const timeline = turnTimeline([
      attempt("a", 1, "2026-11-26T10:00:00.000Z", { firstByteMs: 100, doneMs: 200 }, "stopped"),
      attempt("b", 2, "2026-11-26T10:00:00.600Z", { firstByteMs: 100, firstTokenMs: 200, doneMs: 400 }),
    ]);
    expect(
      timeline.rows.map((row) => [row.id, row.queuedAt, row.queuedPercent, row.firstBytePercent]),
    ).toEqual([
      ["a", "2026-11-26T10:00:00.000Z", 0, 10],
      ["b", "2026-11-26T10:00:00.600Z", 60, 70],
    ]);
  });

  test("no attempts, or an attempt with no timings yet, never divides by zero", () => {
    expect(turnTimeline([])).toEqual({ totalMs: 0, rows: [] });
    const [row] = turnTimeline([attempt("a", 1, "2026-11-26T10:00:00.000Z", {})]).rows;
    expect(row).toMatchObject({ startPercent: 0, widthPercent: 0.5, endMs: 0 });
  });
});
