import { describe, expect, test } from "vitest";
import { costOfUsage, formatUsd, sumCosts } from "./pricing";

const GPT_41_MINI = { inputPerMillion: 0.4, cachedInputPerMillion: 0.1, outputPerMillion: 1.6 };

describe("costOfUsage", () => {
  test.each([
    [
      "no cache",
      { inputTokens: 1_000_000, outputTokens: 0 },
      { inputUsd: 0.4, cachedInputUsd: 0, outputUsd: 0 },
    ],
    [
      "cached tokens are part of the input and priced at the cached rate",
      { inputTokens: 1_000, cachedInputTokens: 800, outputTokens: 100 },
      { inputUsd: 0.00008, cachedInputUsd: 0.00008, outputUsd: 0.00016 },
    ],
    [
      "a cached count above the input count is capped at it",
      { inputTokens: 100, cachedInputTokens: 500 },
      { inputUsd: 0, cachedInputUsd: 0.00001, outputUsd: 0 },
    ],
    ["output only", { outputTokens: 2_000_000 }, { inputUsd: 0, cachedInputUsd: 0, outputUsd: 3.2 }],
  ])("%s", (_name, usage, expected) => {
    const cost = costOfUsage(usage, GPT_41_MINI);
    expect(cost?.inputUsd).toBeCloseTo(expected.inputUsd, 10);
    expect(cost?.cachedInputUsd).toBeCloseTo(expected.cachedInputUsd, 10);
    expect(cost?.outputUsd).toBeCloseTo(expected.outputUsd, 10);
    expect(cost?.totalUsd).toBeCloseTo(expected.inputUsd + expected.cachedInputUsd + expected.outputUsd, 10);
  });

  const CLAUDE_SONNET = {
    inputPerMillion: 3,
    cachedInputPerMillion: 0.3,
    cacheWritePerMillion: 3.75,
    outputPerMillion: 15,
  };

  test("cache writes are part of the input, priced at the write rate (1.25× input for Anthropic)", () => {
    const cost = costOfUsage(
      { inputTokens: 2_000, cachedInputTokens: 1_200, cacheWriteTokens: 300, outputTokens: 100 },
      CLAUDE_SONNET,
    );
    expect(cost?.inputUsd).toBeCloseTo((500 * 3) / 1e6, 12);
    expect(cost?.cachedInputUsd).toBeCloseTo((1_200 * 0.3) / 1e6, 12);
    expect(cost?.cacheWriteUsd).toBeCloseTo((300 * 3.75) / 1e6, 12);
    expect(cost?.outputUsd).toBeCloseTo((100 * 15) / 1e6, 12);
    expect(cost?.totalUsd).toBeCloseTo((1_500 + 360 + 1_125 + 1_500) / 1e6, 12);
  });

  test("writes are capped at the input that is not a cache read", () => {
    const cost = costOfUsage(
      { inputTokens: 1_000, cachedInputTokens: 900, cacheWriteTokens: 500 },
      CLAUDE_SONNET,
    );
    expect(cost?.cacheWriteUsd).toBeCloseTo((100 * 3.75) / 1e6, 12);
    expect(cost?.inputUsd).toBe(0);
  });

  test("cache writes on a model with no write price: unknown, never priced as plain input", () => {
    expect(costOfUsage({ inputTokens: 1_000, cacheWriteTokens: 400 }, GPT_41_MINI)).toBeNull();
    // No writes reported: the write price is not needed.
    expect(costOfUsage({ inputTokens: 1_000, cacheWriteTokens: 0 }, GPT_41_MINI)?.cacheWriteUsd).toBe(0);
  });

  test("unknown prices or usage: null, never zero", () => {
    expect(costOfUsage({ inputTokens: 10 }, null)).toBeNull();
    expect(costOfUsage(null, GPT_41_MINI)).toBeNull();
    expect(costOfUsage({}, GPT_41_MINI)).toBeNull();
  });
});

describe("sumCosts and formatUsd", () => {
  test("sums the known costs; all unknown is null", () => {
    const one = costOfUsage({ inputTokens: 1_000_000 }, GPT_41_MINI);
    expect(sumCosts([one, null, one])?.totalUsd).toBeCloseTo(0.8, 10);
    expect(sumCosts([null, undefined])).toBeNull();
  });

  test("a sum with an estimated part is marked estimated; one without is not", () => {
    const reported = costOfUsage({ inputTokens: 1_000_000 }, GPT_41_MINI);
    if (!reported) throw new Error("GPT-4.1 mini's prices price this usage");
    const estimated = { ...reported, estimated: true };
    expect(sumCosts([reported, estimated])).toMatchObject({ totalUsd: 0.8, estimated: true });
    expect(sumCosts([reported, reported])?.estimated).toBeUndefined();
    expect(sumCosts([reported, { ...reported, estimated: false }])?.estimated).toBeUndefined();
  });

  test.each([
    [0, "$0"],
    [1.5, "$1.50"],
    [0.0123, "$0.0123"],
    [0.00004, "$0.00004"],
    [0.000001234, "$0.00000123"],
  ])("formatUsd(%s) = %s", (usd, text) => {
    expect(formatUsd(usd)).toBe(text);
  });
});
