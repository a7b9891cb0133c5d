// The budget's trims of old tool results (docs/pipeline.md#budget): two passes, each planned on lengths alone and
// counted by scaling the item's count by the share of characters kept, so no cut re-tokenises anything.

import type { ContextItem, ItemPart, ModelDescriptor, TokenizerName, TraceEvent } from "@/lib/domain/types";
import { elementAt } from "./indexing";
import { countPartTokens, TOKENS_PER_MESSAGE } from "./tokens";

/**
 * The two trim passes: results longer than `maxChars` keep `maxChars − tailChars` head and the tail.
 */
export const FIRST_TRIM = { maxChars: 500, tailChars: 100 } as const;
export const SECOND_TRIM = { maxChars: 200, tailChars: 50 } as const;
/** A trimmed result never keeps less than this much head. */
const MIN_HEAD_CHARS = 50;

/** head + `[... trimmed N chars to M ...]` + tail; N is the original length. */
export function trimToolText(
  text: string,
  maxChars: number,
  tailChars: number,
  originalLength = text.length,
): string {
  const head = Math.max(MIN_HEAD_CHARS, maxChars - tailChars);
  return `${text.slice(0, head)}\n\n[... trimmed ${originalLength} chars to ${maxChars} ...]\n\n${text.slice(text.length - tailChars)}`;
}

function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  return JSON.stringify(output) ?? "";
}

function textualChars(part: ItemPart): number {
  switch (part.type) {
    case "text":
    case "reasoning":
      return part.text.length;
    case "tool-call":
      return part.toolName.length + outputText(part.input).length;
    case "tool-result":
      return outputText(part.output).length;
    default:
      return 0;
  }
}

export interface TrimRecord {
  itemIndex: number;
  toolCallId: string;
  originalLength: number;
  maxChars: number;
  savedTokens: number;
}

export type TrimPass = { readonly maxChars: number; readonly tailChars: number };

/** Bit flags of the trim passes applied to an item, decided on lengths alone. */
export const FIRST_PASS = 1;
export const SECOND_PASS = 2;

function trimmedLength(originalLength: number, pass: TrimPass): number {
  const head = Math.max(MIN_HEAD_CHARS, pass.maxChars - pass.tailChars);
  return (
    head + `\n\n[... trimmed ${originalLength} chars to ${pass.maxChars} ...]\n\n`.length + pass.tailChars
  );
}

/** A tool result's length after the passes in `mask`: the first trims > 500, the second what is then > 200. */
function resultLength(originalLength: number, mask: number): number {
  let length = originalLength;
  if (mask & FIRST_PASS && length > FIRST_TRIM.maxChars) length = trimmedLength(originalLength, FIRST_TRIM);
  if (mask & SECOND_PASS && length > SECOND_TRIM.maxChars)
    length = trimmedLength(originalLength, SECOND_TRIM);
  return length;
}

/**
 * Plan one pass over an item: its new count, scaled from its current count by the share of characters kept (never
 * re-tokenised), or null when no result was long enough. Nothing is built here: the trimmed strings are only made
 * for items that survive the budget (in a long overflow most trimmed results end up in dropped turns).
 */
export function planPass(
  item: ContextItem,
  itemTokens: number,
  mask: number,
  passBit: number,
  tokenizer: ModelDescriptor["tokenizer"],
  onTrim: (toolCallId: string, originalLength: number) => void,
): number | null {
  let before = 0;
  let after = 0;
  let fixedTokens = TOKENS_PER_MESSAGE;
  for (const part of item.parts) {
    if (part.type === "tool-result") {
      const original = outputText(part.output).length;
      const current = resultLength(original, mask);
      const next = resultLength(original, mask | passBit);
      before += current;
      after += next;
      if (next < current) onTrim(part.toolCallId, original);
      continue;
    }
    const chars = textualChars(part);
    if (chars === 0 && part.type !== "text" && part.type !== "reasoning")
      fixedTokens += countPartTokens(part, tokenizer);
    before += chars;
    after += chars;
  }
  if (after >= before) return null;
  const variable = Math.max(0, itemTokens - fixedTokens);
  return fixedTokens + Math.ceil(variable * (after / Math.max(1, before)));
}

/**
 * Build the planned trims: trimming the original with the last pass equals trimming twice (same head and tail).
 */
export function applyTrims(item: ContextItem, mask: number, tokens: number): ContextItem {
  const parts = item.parts.map((part): ItemPart => {
    if (part.type !== "tool-result") return part;
    const original = outputText(part.output);
    const afterFirst = resultLength(original.length, mask & FIRST_PASS);
    if (mask & SECOND_PASS && afterFirst > SECOND_TRIM.maxChars) {
      return { ...part, output: trimToolText(original, SECOND_TRIM.maxChars, SECOND_TRIM.tailChars) };
    }
    if (afterFirst < original.length)
      return { ...part, output: trimToolText(original, FIRST_TRIM.maxChars, FIRST_TRIM.tailChars) };
    return part;
  });
  return { ...item, parts, tokens };
}

export function hasToolResult(item: ContextItem): boolean {
  for (const part of item.parts) if (part.type === "tool-result") return true;
  return false;
}

export interface BudgetState {
  /** Exact count of every item that is kept (and of some dropped ones), after the trims applied so far. */
  tokens: Float64Array;
  dropped: Uint8Array;
  trimMasks: Uint8Array;
  trimRecords: TrimRecord[];
  total: number;
  dropEvent: TraceEvent | null;
}

/**
 * Apply one trim pass to one item: its new count, the pass in its mask, the saved tokens off the total and a
 * record of each result it trimmed (the saving shared among them). Nothing when no result was long enough.
 */
export function trimItem(
  item: ContextItem,
  index: number,
  state: BudgetState,
  pass: TrimPass,
  passBit: number,
  tokenizer: TokenizerName,
): void {
  const { tokens, trimMasks, trimRecords } = state;
  const firstRecord = trimRecords.length;
  const count = tokens[index] ?? 0;
  const mask = trimMasks[index] ?? 0;
  const next = planPass(item, count, mask, passBit, tokenizer, (toolCallId, originalLength) => {
    trimRecords.push({
      itemIndex: index,
      toolCallId,
      originalLength,
      maxChars: pass.maxChars,
      savedTokens: 0,
    });
  });
  if (next === null) return;
  const saved = count - next;
  const trimmedHere = trimRecords.length - firstRecord;
  for (let record = firstRecord; record < trimRecords.length; record += 1) {
    elementAt(trimRecords, record).savedTokens = Math.round(saved / trimmedHere);
  }
  trimMasks[index] = mask | passBit;
  tokens[index] = next;
  state.total -= saved;
}

/** Trim oldest first and stop as soon as the items fit: the newest results stay whole the longest. */
export function trimPass(
  items: readonly ContextItem[],
  state: BudgetState,
  usable: number,
  pass: TrimPass,
  passBit: number,
  tokenizer: TokenizerName,
): void {
  for (let index = 0; index < items.length && state.total > usable; index += 1) {
    const item = items[index];
    if (item === undefined || state.dropped[index] || !hasToolResult(item)) continue;
    trimItem(item, index, state, pass, passBit, tokenizer);
  }
}
