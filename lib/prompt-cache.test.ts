import { describe, expect, test } from "vitest";
import {
  cacheHitRatio,
  compareCacheWithPrefix,
  describeAttemptCache,
  describeCacheHitRatio,
  stablePrefixTokens,
} from "./prompt-cache";

describe("prompt cache figures", () => {
  test("an attempt's reads, writes and breakpoints in words", () => {
    expect(
      describeAttemptCache({ inputTokens: 2_000, cachedInputTokens: 1_200, cacheWriteTokens: 300 }, [
        "system",
        "summary",
        "history",
      ]),
    ).toBe(
      "cache: 1,200 read, 300 written; 3 breakpoints: after the system block, after the summary, after the history",
    );
    expect(describeAttemptCache({ inputTokens: 10, cachedInputTokens: 0 }, [])).toBe(
      "cache: 0 read; no breakpoints sent",
    );
    expect(describeAttemptCache(null, ["system"])).toBe(
      "cache: nothing reported; 1 breakpoint: after the system block",
    );
  });

  test("the hit ratio is cached input over input, across the calls that reported input", () => {
    const hit = cacheHitRatio([
      { inputTokens: 1_000, cachedInputTokens: 0 },
      { inputTokens: 2_000, cachedInputTokens: 1_500 },
      null,
      { outputTokens: 5 },
    ]);
    expect(hit).toEqual({ cachedTokens: 1_500, inputTokens: 3_000, ratio: 0.5 });
    expect(hit && describeCacheHitRatio(hit)).toBe(
      "cache hit ratio 50% (1,500 of 3,000 input tokens read from the cache)",
    );
    expect(cacheHitRatio([null, {}])).toBeNull();
  });

  test("the stable prefix is the leading run of unchanged items", () => {
    const entry = (change: string, tokens: number) => ({ change, item: { tokens } });
    expect(
      stablePrefixTokens([entry("same", 800), entry("same", 200), entry("changed", 50), entry("same", 9)]),
    ).toBe(1_000);
    expect(stablePrefixTokens([entry("added", 5), entry("same", 800)])).toBe(0);
  });

  test("reads and the unchanged prefix agree within a quarter, and disagreement is said in words", () => {
    expect(compareCacheWithPrefix(1_000, { inputTokens: 1_500, cachedInputTokens: 900 })).toMatchObject({
      agree: true,
    });
    expect(compareCacheWithPrefix(1_800, { inputTokens: 2_000, cachedInputTokens: 0 })).toEqual({
      agree: false,
      message:
        "The provider read 0 cached tokens although 1,800 tokens of prefix were unchanged. The cache may have expired (minutes), another model may have answered before, or the provider was not asked to cache it.",
    });
    expect(compareCacheWithPrefix(300, { inputTokens: 500, cachedInputTokens: 0 })?.message).toContain(
      "usually too short to cache",
    );
    expect(compareCacheWithPrefix(100, { inputTokens: 5_000, cachedInputTokens: 4_000 })).toMatchObject({
      agree: false,
    });
    expect(compareCacheWithPrefix(100, null)).toBeNull();
  });
});
