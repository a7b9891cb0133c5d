// Stage 14 (phase B, per attempt): the token budget, after seed 002 (Coqui / php-agents `fitWithinBudget`).
// usable = (contextWindow − reservedOutputTokens) × (1 − safetyMargin). When the items exceed it: trim old tool
// results (> 500 chars → 400 head + 100 tail), then drop the oldest whole turns, then trim again (> 200 → 150 +
// 50). Never the current input, the summary, system items or context notes. If the current input and the system
// items alone do not fit, the attempt fails with a ContextBudgetError instead of silently sending nothing
// (TomoriBot #67).
//
// O(n): every item is counted once (non-zero counts are trusted), a running total is kept, and a trimmed result's
// count is scaled from its own count by the share of characters kept, so no cut ever re-counts the list or
// re-tokenises text (LangChain's `trimMessages` recounts on every cut and goes quadratic).

import type { ResolvedSettings } from "./settings";
import { reservedOutputTokens } from "./settings";
import { countItemTokens, countPartTokens, TOKENS_PER_MESSAGE } from "./tokens";
import type { ContextItem, ItemPart, ItemTag, ModelDescriptor, TraceEvent } from "./types";

export interface BudgetInfo {
  usableTokens: number;
  totalTokens: number;
  reservedOutputTokens: number;
  contextWindow: number;
}

export interface BudgetResult {
  items: ContextItem[];
  events: TraceEvent[];
  budget: BudgetInfo;
}

export interface ContextBudgetErrorDetails {
  modelId: string;
  /** Tokens that cannot be cut: the current input, system items (and, after every cut, whatever else is pinned). */
  requiredTokens: number;
  usableTokens: number;
  contextWindow: number;
  reservedOutputTokens: number;
  safetyMarginPercent: number;
}

/** The attempt cannot be sent: even with every permitted cut the context does not fit the model. */
export class ContextBudgetError extends Error {
  readonly code = "context_too_large" as const;
  readonly details: ContextBudgetErrorDetails;

  constructor(message: string, details: ContextBudgetErrorDetails) {
    super(message);
    this.name = "ContextBudgetError";
    this.details = details;
  }
}

/** Seed 002's two trim passes: results longer than `maxChars` keep `maxChars − tailChars` head and the tail. */
export const FIRST_TRIM = { maxChars: 500, tailChars: 100 } as const;
export const SECOND_TRIM = { maxChars: 200, tailChars: 50 } as const;
/** php-agents never keeps less than this much head. */
const MIN_HEAD_CHARS = 50;

/** head + `[... trimmed N chars to M ...]` + tail, seed 002's marker; N is the original length. */
export function trimToolText(
  text: string,
  maxChars: number,
  tailChars: number,
  originalLength = text.length,
): string {
  const head = Math.max(MIN_HEAD_CHARS, maxChars - tailChars);
  return `${text.slice(0, head)}\n\n[... trimmed ${originalLength} chars to ${maxChars} ...]\n\n${text.slice(text.length - tailChars)}`;
}

const SYSTEM_TAGS: ReadonlySet<ItemTag> = new Set<ItemTag>([
  "SYSTEM_PROMPT",
  "TOOL_RULES",
  "CORE_MEMORIES",
  "KEY_CONTEXT_REMINDER",
  "CONVERSATION_INSTRUCTIONS",
  "PERSONA_USER_BLOCKS",
]);

/** System items and system text sent as a user turn (models without a system role). */
export function isSystemItem(item: ContextItem): boolean {
  return item.role === "system" || SYSTEM_TAGS.has(item.tag);
}

/** Never dropped: system items, the summary, the current input, context notes (configured instructions). */
export function isPinned(item: ContextItem): boolean {
  return (
    isSystemItem(item) ||
    item.tag === "SUMMARY" ||
    item.tag === "CURRENT_INPUT" ||
    item.tag === "CONTEXT_NOTE"
  );
}

export function usableTokenBudget(
  model: ModelDescriptor,
  settings: ResolvedSettings,
): { usable: number; reserved: number } {
  const reserved = reservedOutputTokens(settings, model.maxOutputTokens);
  const usable = Math.floor(
    Math.max(0, model.contextWindow - reserved) * (1 - settings.budget.safetyMarginPercent / 100),
  );
  return { usable, reserved };
}

// ---------------------------------------------------------------------------------------------------------------
// Turns

function sharesSource(a: ContextItem, b: ContextItem): boolean {
  for (const id of a.sourceMessageIds) if (b.sourceMessageIds.includes(id)) return true;
  return false;
}

/**
 * Turn starts, seed 004 style: a dialogue user item after a non-user item opens a turn (consecutive user items
 * share one). An item carved from its neighbour (relocated media, a media notice) shares its source message and
 * counts as that neighbour. Pinned user items (summary, notes, system text) sit inside turns; the current input
 * always opens its own, so older unanswered messages stay droppable. Tool items follow their call, so a turn keeps
 * its tool pairs. Index 0 opens the leading "turn 0".
 */
function turnStarts(items: readonly ContextItem[]): number[] {
  const starts = [0];
  let previousCountsAsUser = false;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    if (item.role !== "user") {
      previousCountsAsUser = false;
      continue;
    }
    if (item.tag === "CURRENT_INPUT") {
      if (index > 0) starts.push(index);
      previousCountsAsUser = true;
      continue;
    }
    if (isPinned(item)) {
      previousCountsAsUser = false;
      continue;
    }
    // Carved from the previous item (relocated media): it belongs to that item's turn and changes nothing.
    if (index > 0 && sharesSource(items[index - 1], item)) continue;
    if (index > 0 && !previousCountsAsUser) starts.push(index);
    previousCountsAsUser = true;
  }
  return starts;
}

// ---------------------------------------------------------------------------------------------------------------
// Trimming

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

interface TrimRecord {
  itemIndex: number;
  toolCallId: string;
  originalLength: number;
  maxChars: number;
  savedTokens: number;
}

type TrimPass = { readonly maxChars: number; readonly tailChars: number };

/** Bit flags of the trim passes applied to an item, decided on lengths alone. */
const FIRST_PASS = 1;
const SECOND_PASS = 2;

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
function planPass(
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

/** Build the planned trims: trimming the original with the last pass equals trimming twice (same head and tail). */
function applyTrims(item: ContextItem, mask: number, tokens: number): ContextItem {
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

function hasToolResult(item: ContextItem): boolean {
  for (const part of item.parts) if (part.type === "tool-result") return true;
  return false;
}

// ---------------------------------------------------------------------------------------------------------------
// The stage

export function fitToBudget(
  items: readonly ContextItem[],
  model: ModelDescriptor,
  settings: ResolvedSettings,
): BudgetResult {
  const { usable, reserved } = usableTokenBudget(model, settings);
  const working: ContextItem[] = new Array(items.length);
  const tokens = new Float64Array(items.length);
  let total = 0;
  let essential = 0;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    const count = item.tokens > 0 ? item.tokens : countItemTokens(item, model.tokenizer);
    working[index] = count === item.tokens ? item : { ...item, tokens: count };
    tokens[index] = count;
    total += count;
    if (isSystemItem(item) || item.tag === "CURRENT_INPUT") essential += count;
  }

  const info = (totalTokens: number): BudgetInfo => ({
    usableTokens: usable,
    totalTokens,
    reservedOutputTokens: reserved,
    contextWindow: model.contextWindow,
  });
  if (total <= usable) return { items: working, events: [], budget: info(total) };

  const errorDetails = (requiredTokens: number): ContextBudgetErrorDetails => ({
    modelId: model.id,
    requiredTokens,
    usableTokens: usable,
    contextWindow: model.contextWindow,
    reservedOutputTokens: reserved,
    safetyMarginPercent: settings.budget.safetyMarginPercent,
  });
  const limits = `only ${usable} of the ${model.contextWindow}-token window are usable (${reserved} reserved for output, ${settings.budget.safetyMarginPercent}% safety margin)`;
  if (essential > usable) {
    throw new ContextBudgetError(
      `Context too large for ${model.id}: the current input and system prompt need ${essential} tokens but ${limits}.`,
      errorDetails(essential),
    );
  }

  let dropEvent: TraceEvent | null = null;
  const dropped = new Uint8Array(items.length);
  const trimMasks = new Uint8Array(items.length);
  const trimRecords: TrimRecord[] = [];

  /** Trim oldest first and stop as soon as the items fit: the newest results stay whole the longest. */
  const trimPass = (pass: TrimPass, passBit: number) => {
    for (let index = 0; index < working.length && total > usable; index += 1) {
      if (dropped[index] || !hasToolResult(working[index])) continue;
      const firstRecord = trimRecords.length;
      const next = planPass(
        working[index],
        tokens[index],
        trimMasks[index],
        passBit,
        model.tokenizer,
        (toolCallId, originalLength) => {
          trimRecords.push({
            itemIndex: index,
            toolCallId,
            originalLength,
            maxChars: pass.maxChars,
            savedTokens: 0,
          });
        },
      );
      if (next === null) continue;
      const saved = tokens[index] - next;
      const trimmedHere = trimRecords.length - firstRecord;
      for (let record = firstRecord; record < trimRecords.length; record += 1) {
        trimRecords[record].savedTokens = Math.round(saved / trimmedHere);
      }
      trimMasks[index] |= passBit;
      tokens[index] = next;
      total -= saved;
    }
  };

  trimPass(FIRST_TRIM, FIRST_PASS);

  if (total > usable) {
    const starts = turnStarts(working);
    let currentTurn = -1;
    for (let turn = 0; turn < starts.length; turn += 1) {
      const end = turn + 1 < starts.length ? starts[turn + 1] : working.length;
      for (let index = starts[turn]; index < end; index += 1)
        if (working[index].tag === "CURRENT_INPUT") currentTurn = turn;
    }
    const droppedItemIds: string[] = [];
    const droppedMessageIds: string[] = [];
    let droppedTurns = 0;
    let droppedTokens = 0;
    for (let turn = 0; turn < starts.length && total > usable; turn += 1) {
      if (turn === currentTurn) continue;
      const end = turn + 1 < starts.length ? starts[turn + 1] : working.length;
      let droppedAny = false;
      for (let index = starts[turn]; index < end; index += 1) {
        if (isPinned(working[index])) continue;
        dropped[index] = 1;
        droppedAny = true;
        total -= tokens[index];
        droppedTokens += tokens[index];
        droppedItemIds.push(working[index].id);
        for (const id of working[index].sourceMessageIds) droppedMessageIds.push(id);
      }
      if (droppedAny) droppedTurns += 1;
    }
    if (droppedTurns > 0) {
      dropEvent = {
        stage: "budget",
        action: "dropped-oldest-turns",
        reason: `dropped the ${droppedTurns} oldest turn(s) (${droppedTokens} tokens) to fit ${usable} usable tokens`,
        level: "warning",
        itemIds: droppedItemIds,
        messageIds: droppedMessageIds,
        counts: { turns: droppedTurns, items: droppedItemIds.length, tokens: droppedTokens },
      };
    }
  }

  if (total > usable) trimPass(SECOND_TRIM, SECOND_PASS);

  // Trims inside turns that were dropped later reach no one: report only the surviving ones, in the order the
  // cuts happened (first trim pass, the drop, second trim pass).
  const trimEvent = (record: TrimRecord): TraceEvent => ({
    stage: "budget",
    action: "trimmed-tool-result",
    reason: `tool result of ${record.originalLength} chars trimmed to ${record.maxChars} (head and tail kept) to fit the budget`,
    itemIds: [working[record.itemIndex].id],
    messageIds: working[record.itemIndex].sourceMessageIds,
    counts: {
      originalChars: record.originalLength,
      maxChars: record.maxChars,
      tokensSaved: record.savedTokens,
    },
    details: { toolCallId: record.toolCallId },
  });
  const surviving = trimRecords.filter((record) => !dropped[record.itemIndex]);
  const events: TraceEvent[] = [
    ...surviving.filter((record) => record.maxChars === FIRST_TRIM.maxChars).map(trimEvent),
    ...(dropEvent ? [dropEvent] : []),
    ...surviving.filter((record) => record.maxChars === SECOND_TRIM.maxChars).map(trimEvent),
  ];

  if (total > usable) {
    throw new ContextBudgetError(
      `Context too large for ${model.id}: after trimming tool results and dropping every droppable turn, ${total} tokens remain but ${limits}.`,
      errorDetails(total),
    );
  }

  const kept: ContextItem[] = [];
  for (let index = 0; index < working.length; index += 1) {
    if (dropped[index]) continue;
    kept.push(
      trimMasks[index] === 0 ? working[index] : applyTrims(working[index], trimMasks[index], tokens[index]),
    );
  }
  return { items: kept, events, budget: info(total) };
}
