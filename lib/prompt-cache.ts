// What the inspector says about prompt caching (docs/pipeline.md#prompt-cache-breakpoints): an attempt's cache
// reads and writes with the breakpoints it sent, the conversation's cache hit ratio, and whether the provider's
// reported reads agree with the prefix the payload kept unchanged since the previous turn. Pure and client-safe.

import { describeBreakpointPlace } from "@/lib/context/cache-breakpoints";
import type { CacheBreakpointPlace } from "@/lib/domain/types";
import {
  canonicalJson,
  type DiffableItem,
  diffItems,
  type ItemChange,
  type ItemDiffEntry,
} from "@/lib/payload-diff";
import { formatUsd, type ModelPrices, type TokenUsage } from "@/lib/pricing";

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

/** Why the prompt cache could not serve more of this request than it did: the first change against the previous. */
export interface CacheMissExplanation {
  /** Leading bytes of this request body identical to the previous one's: what a prefix cache can serve. */
  reusablePrefixBytes: number;
  /** Where the two first differ, and the item that changed there; null when nothing before the new turn did. */
  firstDivergence: { byteOffset: number; itemId: string; reason: string } | null;
  /** Input tokens from the first changed item on: sent again at the full input rate. */
  missedInputTokens: number;
  /** What those tokens cost over a cache read; null without prices. */
  missCostUsd: number | null;
}

const TAG_WORDS: Record<string, string> = {
  SYSTEM_PROMPT: "the persona's prompt",
  TOOL_RULES: "the tool rules",
  CORE_MEMORIES: "the memory block",
  KEY_CONTEXT_REMINDER: "the key context reminder",
  CONVERSATION_INSTRUCTIONS: "the conversation's instructions",
  PERSONA_USER_BLOCKS: "the blocks list",
  SUMMARY: "the summary",
  DIALOGUE_HISTORY: "a history message",
  MEDIA_NOTICE: "a media notice",
  CONTEXT_NOTE: "the context note",
  TOOL_CALL: "a tool call",
  TOOL_RESULT: "a tool result",
  REASONING: "replayed reasoning",
  CURRENT_INPUT: "the current input",
};

const CHANGE_WORDS: Record<Exclude<ItemChange, "same">, string> = {
  added: "appeared",
  removed: "disappeared",
  changed: "changed",
  moved: "moved",
};

/**
 * What broke the cache: the first position where this payload's items stop being the previous payload's, in
 * order; the tokens from there to the last item the previous payload had are sent again at the full input rate.
 * The reason names the first item the diff finds not the same (an item moved shifts those after it). The
 * conversation moving on is no change: the previous current input becoming a history message, and the items
 * added after everything kept. `stableBytes` is the byte prefix the two request bodies share (payload-diff.ts).
 */
export function explainCacheMiss<Item extends DiffableItem & { tokens: number }>(
  previous: readonly Item[],
  current: readonly Item[],
  stableBytes: number,
  prices: ModelPrices | null | undefined,
): CacheMissExplanation {
  const entries = diffItems(previous, current).entries;
  const added = new Set(entries.filter((entry) => entry.change === "added").map((entry) => entry.item.id));
  let kept = current.length;
  while (kept > 0 && added.has(current[kept - 1].id)) kept -= 1;
  const diverge = current.slice(0, kept).findIndex((item, index) => !samePlace(previous[index], item));
  const first = entries.find((entry) => entry.change !== "same" && !isTurnMovingOn(entry));
  const missedInputTokens =
    diverge === -1 ? 0 : current.slice(diverge, kept).reduce((sum, item) => sum + item.tokens, 0);
  return {
    reusablePrefixBytes: stableBytes,
    firstDivergence:
      diverge === -1 || !first
        ? null
        : {
            byteOffset: stableBytes,
            itemId: first.item.id,
            reason: `${TAG_WORDS[first.item.tag] ?? first.item.tag} ${CHANGE_WORDS[first.change as Exclude<ItemChange, "same">]}`,
          },
    missedInputTokens,
    missCostUsd: prices
      ? (missedInputTokens * Math.max(0, prices.inputPerMillion - prices.cachedInputPerMillion)) / 1_000_000
      : null,
  };
}

/** The same item at the same place, but for the previous current input now standing as a history message. */
function samePlace(previous: DiffableItem | undefined, current: DiffableItem): boolean {
  if (!previous || previous.id !== current.id || previous.role !== current.role) return false;
  const tagsAgree =
    previous.tag === current.tag || (previous.tag === "CURRENT_INPUT" && current.tag === "DIALOGUE_HISTORY");
  return tagsAgree && canonicalJson(previous.parts) === canonicalJson(current.parts);
}

/** The previous current input, now a history message: every turn does that, after what a cache can reuse. */
function isTurnMovingOn(entry: ItemDiffEntry<DiffableItem>): boolean {
  return (
    entry.change === "changed" && entry.details.every((detail) => detail.startsWith("tag CURRENT_INPUT"))
  );
}

/** "cache miss: the summary changed at byte 4,211; about 3,100 tokens sent again, $0.009". */
export function describeCacheMiss(explanation: CacheMissExplanation): string {
  const { firstDivergence, missedInputTokens, missCostUsd } = explanation;
  if (!firstDivergence) return "cache: nothing before the new turn changed since the previous request";
  const cost = missCostUsd === null ? "" : `, ${formatUsd(missCostUsd)}`;
  return `cache miss: ${firstDivergence.reason} at byte ${count(firstDivergence.byteOffset)}; about ${count(missedInputTokens)} tokens sent again${cost}`;
}
