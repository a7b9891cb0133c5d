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
