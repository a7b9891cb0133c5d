// What the inspector says about prompt caching (docs/pipeline.md#prompt-cache-breakpoints): an attempt's cache
// reads and writes with the breakpoints it sent, the conversation's cache hit ratio, and whether the provider's
// reported reads agree with the prefix the payload kept unchanged since the previous turn. Pure and client-safe.

import { describeBreakpointPlace } from "@/lib/context/cache-breakpoints";
import type { CacheBreakpointPlace } from "@/lib/domain/types";
import type { TokenUsage } from "@/lib/pricing";

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const count = (value: number) => integer.format(value);

/** "cache: 1,200 read, 300 written; 3 breakpoints: after the system block, after the summary, after the history". */
export function describeAttemptCache(
  usage: TokenUsage | null | undefined,
  breakpoints: readonly CacheBreakpointPlace[],
): string {
  const reads = usage?.cachedInputTokens;
  const writes = usage?.cacheWriteTokens;
  const figures =
    reads === undefined && writes === undefined
      ? "cache: nothing reported"
      : `cache: ${count(reads ?? 0)} read${writes === undefined ? "" : `, ${count(writes)} written`}`;
  if (breakpoints.length === 0) return `${figures}; no breakpoints sent`;
  const places = breakpoints.map(describeBreakpointPlace).join(", ");
  return `${figures}; ${breakpoints.length} breakpoint${breakpoints.length === 1 ? "" : "s"}: ${places}`;
}

export interface CacheHitRatio {
  cachedTokens: number;
  inputTokens: number;
  /** cachedTokens ÷ inputTokens, from 0 to 1. */
  ratio: number;
}

/** Cached input ÷ input over the calls that reported input; null when none did. */
export function cacheHitRatio(usages: readonly (TokenUsage | null | undefined)[]): CacheHitRatio | null {
  let cachedTokens = 0;
  let inputTokens = 0;
  for (const usage of usages) {
    if (!usage?.inputTokens) continue;
    inputTokens += usage.inputTokens;
    cachedTokens += Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  }
  return inputTokens === 0 ? null : { cachedTokens, inputTokens, ratio: cachedTokens / inputTokens };
}

export function describeCacheHitRatio(hit: CacheHitRatio): string {
  const percent = Math.round(hit.ratio * 1000) / 10;
  return `cache hit ratio ${percent}% (${count(hit.cachedTokens)} of ${count(hit.inputTokens)} input tokens read from the cache)`;
}

/** Tokens of the leading items that are the same as in the previous payload, in the same order. */
export function stablePrefixTokens(entries: readonly { change: string; item: { tokens: number } }[]): number {
  let tokens = 0;
  for (const entry of entries) {
    if (entry.change !== "same") break;
    tokens += entry.item.tokens;
  }
  return tokens;
}

/** Below this, most providers cache nothing (OpenAI, Gemini and Claude Sonnet start at 1,024 tokens). */
export const TYPICAL_MINIMUM_CACHEABLE_TOKENS = 1_024;

export interface CacheAgreement {
  agree: boolean;
  message: string;
}

/**
 * The provider's reported cache reads against the unchanged prefix (the pipeline's token counts, which are
 * estimates for some models): they agree when the reads are within a quarter (or 64 tokens) of it. Null when the
 * provider reported no usage.
 */
export function compareCacheWithPrefix(
  stableTokens: number,
  usage: TokenUsage | null | undefined,
): CacheAgreement | null {
  if (usage?.inputTokens === undefined) return null;
  const reads = usage.cachedInputTokens ?? 0;
  const slack = Math.max(64, stableTokens / 4);
  if (Math.abs(reads - stableTokens) <= slack) {
    return {
      agree: true,
      message: `The provider read ${count(reads)} cached tokens; about ${count(stableTokens)} tokens of prefix were unchanged.`,
    };
  }
  if (reads < stableTokens) {
    const why =
      stableTokens < TYPICAL_MINIMUM_CACHEABLE_TOKENS
        ? " A prefix under about 1,024 tokens is usually too short to cache."
        : " The cache may have expired (minutes), another model may have answered before, or the provider was not asked to cache it.";
    return {
      agree: false,
      message: `The provider read ${count(reads)} cached tokens although ${count(stableTokens)} tokens of prefix were unchanged.${why}`,
    };
  }
  return {
    agree: false,
    message: `The provider read ${count(reads)} cached tokens, more than the ${count(stableTokens)} tokens of prefix unchanged since the previous turn: it cached a prefix from an earlier request, or the token counts are estimates.`,
  };
}
