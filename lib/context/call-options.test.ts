// A caller's options applied to a serialised request: only what was asked is set, the length never above the
// reserve (lowered with a warning), and the trace says what was applied.
import { describe, expect, test } from "vitest";
import { withCallOptions } from "./call-options";
import type { SerialisedRequest } from "./phases";

const request: SerialisedRequest = {
  instructions: "sys",
  messages: [{ role: "user", content: "hi" }],
  providerOptions: {},
  stopSequences: ["P1"],
  maxOutputTokens: 1_000,
};
const serialised = { value: request, trace: [] };

describe("withCallOptions", () => {
  test("no options: the request as it was, no event", () => {
    expect(withCallOptions(serialised, undefined)).toBe(serialised);
  });

  test("temperature, top-p and a length under the reserve are applied as asked", () => {
    const { value, trace } = withCallOptions(serialised, {
      temperature: 0.2,
      topP: 0.9,
      maxOutputTokens: 50,
    });
    expect(value).toEqual({ ...request, temperature: 0.2, topP: 0.9, maxOutputTokens: 50 });
    expect(trace).toEqual([
      expect.objectContaining({
        stage: "serialise",
        action: "applied-call-options",
        level: "info",
        details: {
          asked: { temperature: 0.2, topP: 0.9, maxOutputTokens: 50 },
          applied: { temperature: 0.2, topP: 0.9, maxOutputTokens: 50 },
        },
      }),
    ]);
    expect(request).not.toHaveProperty("temperature");
  });

  test("a length over the reserve is lowered to it, with a warning", () => {
    const { value, trace } = withCallOptions(serialised, { maxOutputTokens: 5_000 });
    expect(value.maxOutputTokens).toBe(1_000);
    expect(trace[0]).toMatchObject({ level: "warning", details: { applied: { maxOutputTokens: 1_000 } } });
  });

  test("only stop strings: the request is unchanged here (the stop-strings stage sent them), the event names them", () => {
    const { value, trace } = withCallOptions(serialised, { stop: ["C1"] });
    expect(value).toEqual(request);
    expect(trace[0]).toMatchObject({ details: { applied: { stop: ["C1"] } } });
  });
});
