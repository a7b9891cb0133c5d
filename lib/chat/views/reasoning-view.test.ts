// Which stored reasoning an attempt returned: the blocks that started while it ran.
import { describe, expect, it } from "vitest";
import { attemptReasoning } from "./reasoning-view";

const block = (text: string, startedAt?: string, endedAt?: string) => ({
  text,
  ...(startedAt ? { startedAt } : {}),
  ...(endedAt ? { endedAt } : {}),
});

describe("attemptReasoning", () => {
  const first = block("First try thought.", "2026-01-01T10:00:00.100Z", "2026-01-01T10:00:00.300Z");
  const second = block("Fallback thought.", "2026-01-01T10:00:02.000Z", "2026-01-01T10:00:03.500Z");

  it("keeps the blocks that started while the attempt ran, with their duration", () => {
    const window = { queuedAt: "2026-01-01T10:00:01.900Z", doneMs: 2_000, answered: true };
    expect(attemptReasoning([first, second], window)).toEqual({
      text: "Fallback thought.",
      durationMs: 1_500,
      hidden: false,
    });
  });

  it("allows the millisecond the attempt began, and nothing before it", () => {
    const atStart = block("At the start.", "2026-01-01T10:00:00.999Z");
    expect(
      attemptReasoning([atStart], { queuedAt: "2026-01-01T10:00:01.000Z", doneMs: 10, answered: true }),
    ).toEqual({ text: "At the start.", durationMs: null, hidden: false });
    const before = block("Before.", "2026-01-01T10:00:00.998Z");
    expect(
      attemptReasoning([before], { queuedAt: "2026-01-01T10:00:01.000Z", doneMs: 10, answered: true }),
    ).toBe(null);
  });

  it("gives blocks without times to the attempt that answered only", () => {
    const untimed = block("Imported thought.");
    expect(attemptReasoning([untimed], { queuedAt: "2026-01-01T10:00:00.000Z", answered: true })?.text).toBe(
      "Imported thought.",
    );
    expect(attemptReasoning([untimed], { queuedAt: "2026-01-01T10:00:00.000Z", answered: false })).toBe(null);
  });

  it("says the provider hid the text when the blocks carry none", () => {
    const hidden = block("", "2026-01-01T10:00:00.100Z", "2026-01-01T10:00:00.600Z");
    expect(
      attemptReasoning([hidden], { queuedAt: "2026-01-01T10:00:00.000Z", doneMs: 1_000, answered: true }),
    ).toEqual({ text: "", durationMs: 500, hidden: true });
  });
});
