import { describe, expect, test } from "vitest";
import type { TokenUsage } from "@/lib/pricing";
import { type AttemptCost, attemptCost, attemptCostToday, type CostedAttemptFields } from "./attempt-cost";

// $2 a million input tokens, $8 a million output tokens; the "estimate" tokenizer counts ⌈characters / 4⌉.
const MODEL = {
  prices: { inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 8 },
  tokenizer: "estimate" as const,
};
const SENT_ITEMS = [{ tokens: 100 }, { tokens: 50 }, { note: "an item without a count adds nothing" }];

/** An attempt that sent SENT_ITEMS and received `text` (none: no response at all), with the usage reported. */
function attemptThat(
  status: string,
  text: string | null,
  usage: TokenUsage | null = null,
  error: CostedAttemptFields["error"] = null,
): CostedAttemptFields {
  return { status, error, items: SENT_ITEMS, response: text === null ? null : { text, usage } };
}

describe("attemptCost", () => {
  test.each<[string, CostedAttemptFields, Partial<AttemptCost> | null]>([
    [
      "stopped with partial text: 150 input tokens from the items, ⌈10 / 4⌉ = 3 output tokens from the text",
      attemptThat("stopped", "Hello, wor"),
      { inputUsd: 0.0003, outputUsd: 0.000024, totalUsd: 0.000324, estimated: true },
    ],
    [
      "failed before any text: the input alone",
      attemptThat("error", null),
      { inputUsd: 0.0003, outputUsd: 0, totalUsd: 0.0003, estimated: true },
    ],
    [
      "failed with usage reported: the provider's usage, not an estimate",
      attemptThat("error", "Hello, wor", { inputTokens: 1_000, outputTokens: 20 }),
      { inputUsd: 0.002, outputUsd: 0.00016, totalUsd: 0.00216, estimated: false },
    ],
    [
      "stopped with usage reported: the provider's usage, not an estimate",
      attemptThat("stopped", "Hello, wor", { inputTokens: 150, outputTokens: 5 }),
      { inputUsd: 0.0003, outputUsd: 0.00004, totalUsd: 0.00034, estimated: false },
    ],
    [
      "answered with usage: unchanged",
      attemptThat("ok", "Hello", { inputTokens: 150, outputTokens: 2 }),
      { inputUsd: 0.0003, outputUsd: 0.000016, totalUsd: 0.000316, estimated: false },
    ],
    ["answered without usage: unknown, never a guess", attemptThat("ok", "Hello"), null],
    [
      "refused by the provider (HTTP 429): never run, so not billed",
      attemptThat("error", null, null, { status: 429 }),
      null,
    ],
    [
      "failed mid-stream with no HTTP status: the input and what streamed",
      attemptThat("error", "Hello, wor", null, {}),
      { inputUsd: 0.0003, outputUsd: 0.000024, totalUsd: 0.000324, estimated: true },
    ],
  ])("%s", (_name, attempt, expected) => {
    const cost = attemptCost(attempt, MODEL);
    if (expected === null) {
      expect(cost).toBeNull();
      return;
    }
    expect(cost).not.toBeNull();
    expect(cost?.estimated === true).toBe(expected.estimated);
    for (const key of ["inputUsd", "outputUsd", "totalUsd"] as const)
      expect(cost?.[key]).toBeCloseTo(expected[key] ?? Number.NaN, 12);
  });

  test("a stopped attempt of a model without prices stays unknown", () => {
    const stopped = attemptThat("stopped", "Hello, wor");
    expect(attemptCost(stopped, { prices: null, tokenizer: "estimate" })).toBeNull();
    expect(attemptCost(stopped, undefined)).toBeNull();
  });

  test("output tokens are counted with the model's own tokenizer", () => {
    // "Hello world" is 2 tokens in o200k_base, ⌈11 / 4⌉ = 3 under the estimate.
    const stopped = { status: "stopped", items: [], response: { text: "Hello world", usage: null } };
    expect(attemptCost(stopped, { ...MODEL, tokenizer: "o200k_base" })?.outputUsd).toBeCloseTo(0.000016, 12);
    expect(attemptCost(stopped, MODEL)?.outputUsd).toBeCloseTo(0.000024, 12);
  });
});

describe("the prices an attempt was recorded with", () => {
  // Recorded at $1 / $4 a million; the model now costs MODEL's $2 / $8.
  const RECORDED = { inputPerMillion: 1, cachedInputPerMillion: 0.25, outputPerMillion: 4 };
  const usage = { inputTokens: 1_000_000, outputTokens: 500_000 };
  const answered = (prices?: typeof RECORDED | null): CostedAttemptFields => ({
    status: "ok",
    items: [],
    response: { text: "Hi", usage, ...(prices === undefined ? {} : { prices }) },
  });

  test.each([
    {
      name: "recorded prices since changed: the cost stays, today's is beside it",
      attempt: answered(RECORDED),
      cost: 1 + 2,
      today: 2 + 4,
    },
    {
      name: "recorded prices unchanged: no second figure",
      attempt: answered(MODEL.prices),
      cost: 2 + 4,
      today: null,
    },
    {
      name: "recorded before prices were kept: today's prices, once",
      attempt: answered(),
      cost: 2 + 4,
      today: null,
    },
    {
      name: "the model had no prices then: unknown, today's beside it",
      attempt: answered(null),
      cost: null,
      today: 2 + 4,
    },
  ])("$name", ({ attempt, cost, today }) => {
    expect(attemptCost(attempt, MODEL)?.totalUsd ?? null).toBe(cost);
    expect(attemptCostToday(attempt, MODEL)?.totalUsd ?? null).toBe(today);
  });

  test("a stopped attempt's estimate uses the recorded prices too", () => {
    const stopped = {
      ...attemptThat("stopped", "Hello, wor"),
      response: { text: "Hello, wor", usage: null, prices: RECORDED },
    };
    // 150 input tokens at $1 a million, 3 output tokens at $4 a million; today at $2 and $8.
    const recorded = attemptCost(stopped, MODEL);
    const today = attemptCostToday(stopped, MODEL);
    expect([recorded?.estimated, today?.estimated]).toEqual([true, true]);
    expect(recorded?.totalUsd).toBeCloseTo(0.000162, 12);
    expect(today?.totalUsd).toBeCloseTo(0.000324, 12);
  });
});
