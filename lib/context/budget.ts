// Phase B's token budget (docs/architecture.md#budget), after the PHP agent's budget fitting.
// usable = (contextWindow − reservedOutputTokens) × (1 − safetyMargin). When the items exceed it: trim old tool
// results (> 500 chars → 400 head + 100 tail), then drop the oldest whole turns, then trim again (> 200 → 150 +
// 50). Never the current input, the summary, system items or context notes. If the current input and the system
// items alone do not fit, the attempt fails with a ContextBudgetError instead of silently sending nothing
// (the Discord bot's bug of sending an empty request).
//
// O(n): every item is counted once (non-zero counts are trusted), a running total is kept, and a trimmed result's
// count is scaled from its own count by the share of characters kept, so no cut ever re-counts the list or
// re-tokenises text (LangChain's `trimMessages` recounts on every cut and goes quadratic).

import { enforceAlternation } from "./normalise-strict";
import type { BudgetedItems, PhaseBContext } from "./phases";
import { isPinned, isSystemItem } from "./pinned";
import type { ResolvedSettings } from "./settings";
import { reservedOutputTokens } from "./settings";
import { appendAll, type Stage, type StageResult } from "./stage";
import { countItemTokens, countPartTokens, TOKENS_PER_MESSAGE } from "./tokens";
import { plural } from "./trace";
import type { ContextItem, ItemPart, ModelDescriptor, TokenizerName, TraceEvent } from "./types";

export interface BudgetInfo {
  usableTokens: number;
  totalTokens: number;
  reservedOutputTokens: number;
  contextWindow: number;
}

export interface ContextBudgetErrorDetails {
  modelId: string;
  /**
   * Tokens that cannot be cut: the current input, system items (and, after every cut, whatever else is pinned).
   */
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

/**
 * The PHP agent's two trim passes: results longer than `maxChars` keep `maxChars − tailChars` head and the tail.
 */
export const FIRST_TRIM = { maxChars: 500, tailChars: 100 } as const;
export const SECOND_TRIM = { maxChars: 200, tailChars: 50 } as const;
/** php-agents never keeps less than this much head. */
const MIN_HEAD_CHARS = 50;

/** head + `[... trimmed N chars to M ...]` + tail, the PHP agent's marker; N is the original length. */
export function trimToolText(
  text: string,
  maxChars: number,
  tailChars: number,
  originalLength = text.length,
): string {
  const head = Math.max(MIN_HEAD_CHARS, maxChars - tailChars);
  return `${text.slice(0, head)}\n\n[... trimmed ${originalLength} chars to ${maxChars} ...]\n\n${text.slice(text.length - tailChars)}`;
}

/**
 * The items with counts the attempt's tokenizer can trust: when phase A counted with another tokenizer (a fallback
 * model of another family), every cached count is cleared so this stage counts the item for the attempt's own
 * tokenizer (the counts can differ several-fold for non-Latin script). The same array when nothing needs it.
 */
export function countsForTokenizer(
  items: readonly ContextItem[],
  countedWith: TokenizerName | null | undefined,
  tokenizer: TokenizerName,
): readonly ContextItem[] {
  if (countedWith === undefined || countedWith === null || countedWith === tokenizer) return items;
  return items.map((item) => (item.tokens > 0 ? { ...item, tokens: 0 } : item));
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
  const ids = a.sourceMessageIds;
  const others = b.sourceMessageIds;
  // Items carved from one message often share the very array.
  if (ids === others) return ids.length > 0;
  for (const id of ids) for (const other of others) if (id === other) return true;
  return false;
}

interface TurnScan {
  /** Turn starts, counted as in artifact replay: see below. Index 0 opens the leading "turn 0". */
  starts: number[];
  /** The turn holding the last current input, or -1. */
  currentTurn: number;
  /** 1 for items never dropped (isPinned), computed once. */
  pinned: Uint8Array;
}

/**
 * One pass over the items. Turn starts, counted as in artifact replay: a dialogue user item after a non-user item
 * opens a turn (consecutive user items share one). An item carved from its neighbour (relocated media, a media
 * notice) shares its source message and counts as that neighbour. Pinned user items (summary, notes, system text)
 * sit inside turns; the current input always opens its own, so older unanswered messages stay droppable. Tool
 * items follow their call, so a turn keeps its tool pairs.
 */
function scanTurns(items: readonly ContextItem[]): TurnScan {
  const starts = [0];
  const pinned = new Uint8Array(items.length);
  let currentTurn = -1;
  let previousCountsAsUser = false;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    const isPinnedItem = isPinned(item);
    if (isPinnedItem) pinned[index] = 1;
    if (item.role !== "user") {
      // A current input that is not a user item (never in practice) still marks the turn it sits in.
      if (item.tag === "CURRENT_INPUT") currentTurn = starts.length - 1;
      previousCountsAsUser = false;
      continue;
    }
    if (item.tag === "CURRENT_INPUT") {
      if (index > 0) starts.push(index);
      currentTurn = starts.length - 1;
      previousCountsAsUser = true;
      continue;
    }
    if (isPinnedItem) {
      previousCountsAsUser = false;
      continue;
    }
    // Carved from the previous item (relocated media): it belongs to that item's turn and changes nothing.
    if (index > 0 && sharesSource(items[index - 1], item)) continue;
    if (index > 0 && !previousCountsAsUser) starts.push(index);
    previousCountsAsUser = true;
  }
  return { starts, currentTurn, pinned };
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

/**
 * Build the planned trims: trimming the original with the last pass equals trimming twice (same head and tail).
 */
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
//
// Counting is lazy and newest first. The cuts keep the newest turns that fit, so whether a turn is kept depends
// only on the counts of the turns after it, the pinned items and the current turn: those are counted exactly.
// When those alone already overflow, every older turn goes whole and is never tokenised (with a long history
// that is most of it: tokenising it all would cost far more than every other stage together). The drop event
// then adds up the tokens that were counted anyway and says how many dropped items were never tokenised
// (`counts.uncountedItems`); everything else about the cuts is exactly as if all had been counted.
// When the walk reaches the oldest turn without overflowing, everything has been counted and the cuts run exactly
// as described at the top of this file: the result is the same either way, item for item and trim for trim.

interface BudgetState {
  /** Exact count of every item that is kept (and of some dropped ones), after the trims applied so far. */
  tokens: Float64Array;
  dropped: Uint8Array;
  trimMasks: Uint8Array;
  trimRecords: TrimRecord[];
  total: number;
  dropEvent: TraceEvent | null;
}

const ignoreTrim = () => {};

export function fitToBudget(
  items: readonly ContextItem[],
  model: ModelDescriptor,
  settings: ResolvedSettings,
): StageResult<BudgetedItems> {
  const { usable, reserved } = usableTokenBudget(model, settings);
  const size = items.length;
  const tokenizer = model.tokenizer;
  const tokens = new Float64Array(size);
  const known = new Uint8Array(size);
  const countAt = (index: number): number => {
    if (known[index] === 0) {
      const item = items[index];
      tokens[index] = item.tokens > 0 ? item.tokens : countItemTokens(item, tokenizer);
      known[index] = 1;
    }
    return tokens[index];
  };

  const info = (totalTokens: number): BudgetInfo => ({
    usableTokens: usable,
    totalTokens,
    reservedOutputTokens: reserved,
    contextWindow: model.contextWindow,
  });
  const errorDetails = (requiredTokens: number): ContextBudgetErrorDetails => ({
    modelId: model.id,
    requiredTokens,
    usableTokens: usable,
    contextWindow: model.contextWindow,
    reservedOutputTokens: reserved,
    safetyMarginPercent: settings.budget.safetyMarginPercent,
  });
  const limits = `only ${usable} of the ${model.contextWindow}-token window are usable (${reserved} reserved for output, ${settings.budget.safetyMarginPercent}% safety margin)`;

  // The system items and the current input must fit whatever is cut (they are a subset of the total, so checking
  // them first gives the same answer as checking after the total).
  let essential = 0;
  for (let index = 0; index < size; index += 1) {
    const item = items[index];
    if (isSystemItem(item) || item.tag === "CURRENT_INPUT") essential += countAt(index);
  }

  const { starts, currentTurn, pinned } = scanTurns(items);
  const turnEnd = (turn: number) => (turn + 1 < starts.length ? starts[turn + 1] : size);
  /** An item's count after the first trim pass (which trims every long result when the walk below overflows). */
  const firstPassCountAt = (index: number): number => {
    const count = countAt(index);
    const item = items[index];
    if (!hasToolResult(item)) return count;
    return planPass(item, count, 0, FIRST_PASS, tokenizer, ignoreTrim) ?? count;
  };

  // Newest first: the items that are never dropped, then whole turns, until they overflow.
  let suffix = 0;
  for (let turn = 0; turn < starts.length; turn += 1) {
    const end = turnEnd(turn);
    for (let index = starts[turn]; index < end; index += 1)
      if (turn === currentTurn || pinned[index] === 1) suffix += firstPassCountAt(index);
  }
  /** The newest turn that has to go (every older one goes too); -1 when the walk reaches the oldest turn. */
  let boundary = -1;
  if (suffix > usable) boundary = starts.length - 1;
  for (let turn = starts.length - 1; turn >= 0 && boundary === -1; turn -= 1) {
    if (turn === currentTurn) continue;
    const end = turnEnd(turn);
    for (let index = starts[turn]; index < end; index += 1)
      if (pinned[index] === 0) suffix += firstPassCountAt(index);
    if (suffix > usable) boundary = turn;
  }

  if (essential > usable) {
    throw new ContextBudgetError(
      `Context too large for ${model.id}: the current input and system prompt need ${essential} tokens but ${limits}.`,
      errorDetails(essential),
    );
  }

  let state: BudgetState;
  if (boundary === -1) {
    // Everything is counted: the plain algorithm.
    let total = 0;
    for (let index = 0; index < size; index += 1) total += countAt(index);
    if (total <= usable)
      return { value: { items: keptItems(items, tokens, null, null), budget: info(total) }, trace: [] };
    state = {
      tokens,
      dropped: new Uint8Array(size),
      trimMasks: new Uint8Array(size),
      trimRecords: [],
      total,
      dropEvent: null,
    };
    trimPass(items, state, usable, FIRST_TRIM, FIRST_PASS, tokenizer);
    if (state.total > usable) dropOldestTurns(items, state, { starts, currentTurn, pinned }, usable);
  } else {
    state = dropThroughBoundary(
      items,
      tokens,
      known,
      { starts, currentTurn, pinned },
      boundary,
      usable,
      tokenizer,
    );
  }

  if (state.total > usable) trimPass(items, state, usable, SECOND_TRIM, SECOND_PASS, tokenizer);

  // Trims inside turns that were dropped later reach no one: report only the surviving ones, in the order the
  // cuts happened (first trim pass, the drop, second trim pass).
  const trimEvent = (record: TrimRecord): TraceEvent => ({
    stage: "budget",
    action: "trimmed-tool-result",
    reason: `tool result of ${record.originalLength} chars trimmed to ${record.maxChars} (head and tail kept) to fit the budget`,
    itemIds: [items[record.itemIndex].id],
    messageIds: items[record.itemIndex].sourceMessageIds,
    counts: {
      originalChars: record.originalLength,
      maxChars: record.maxChars,
      tokensSaved: record.savedTokens,
    },
    details: { toolCallId: record.toolCallId },
  });
  const events: TraceEvent[] = [];
  for (const record of state.trimRecords)
    if (!state.dropped[record.itemIndex] && record.maxChars === FIRST_TRIM.maxChars)
      events.push(trimEvent(record));
  if (state.dropEvent) events.push(state.dropEvent);
  for (const record of state.trimRecords)
    if (!state.dropped[record.itemIndex] && record.maxChars === SECOND_TRIM.maxChars)
      events.push(trimEvent(record));

  if (state.total > usable) {
    throw new ContextBudgetError(
      `Context too large for ${model.id}: after trimming tool results and dropping every droppable turn, ${state.total} tokens remain but ${limits}.`,
      errorDetails(state.total),
    );
  }
  return {
    value: {
      items: keptItems(items, state.tokens, state.dropped, state.trimMasks),
      budget: info(state.total),
    },
    trace: events,
  };
}

/** Trim oldest first and stop as soon as the items fit: the newest results stay whole the longest. */
function trimPass(
  items: readonly ContextItem[],
  state: BudgetState,
  usable: number,
  pass: TrimPass,
  passBit: number,
  tokenizer: ModelDescriptor["tokenizer"],
): void {
  const { tokens, dropped, trimMasks, trimRecords } = state;
  for (let index = 0; index < items.length && state.total > usable; index += 1) {
    if (dropped[index] || !hasToolResult(items[index])) continue;
    const firstRecord = trimRecords.length;
    const next = planPass(
      items[index],
      tokens[index],
      trimMasks[index],
      passBit,
      tokenizer,
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
    state.total -= saved;
  }
}

interface DropTally {
  itemIds: string[];
  messageIds: string[];
  turns: number;
  /** Tokens of the dropped items that were counted (all of them, unless some were never tokenised; then the counts
   *  known without tokenising: those of the walk after the first trim pass, and cached ones as they were). */
  tokens: number;
  /** Dropped items never tokenised (the lazy path): their tokens are not in `tokens`. */
  uncountedItems: number;
}

function dropEventOf(tally: DropTally, usable: number): TraceEvent | null {
  if (tally.turns === 0) return null;
  const amount =
    tally.uncountedItems > 0
      ? `${tally.tokens} tokens counted, ${plural(tally.uncountedItems, "item")} never tokenised`
      : `${tally.tokens} tokens`;
  const counts: Record<string, number> = {
    turns: tally.turns,
    items: tally.itemIds.length,
    tokens: tally.tokens,
  };
  if (tally.uncountedItems > 0) counts.uncountedItems = tally.uncountedItems;
  return {
    stage: "budget",
    action: "dropped-oldest-turns",
    reason: `dropped the ${tally.turns} oldest turn(s) (${amount}) to fit ${usable} usable tokens`,
    level: "warning",
    itemIds: tally.itemIds,
    messageIds: tally.messageIds,
    counts,
  };
}

function newDropTally(): DropTally {
  return { itemIds: [], messageIds: [], turns: 0, tokens: 0, uncountedItems: 0 };
}

function recordDrop(tally: DropTally, item: ContextItem, tokens: number): void {
  tally.itemIds.push(item.id);
  for (const id of item.sourceMessageIds) tally.messageIds.push(id);
  tally.tokens += tokens;
}

/** With every item counted: drop the oldest whole turns until the items fit. */
function dropOldestTurns(
  items: readonly ContextItem[],
  state: BudgetState,
  scan: TurnScan,
  usable: number,
): void {
  const { starts, currentTurn, pinned } = scan;
  const tally = newDropTally();
  for (let turn = 0; turn < starts.length && state.total > usable; turn += 1) {
    if (turn === currentTurn) continue;
    const end = turn + 1 < starts.length ? starts[turn + 1] : items.length;
    let droppedAny = false;
    for (let index = starts[turn]; index < end; index += 1) {
      if (pinned[index] === 1) continue;
      state.dropped[index] = 1;
      droppedAny = true;
      state.total -= state.tokens[index];
      recordDrop(tally, items[index], state.tokens[index]);
    }
    if (droppedAny) tally.turns += 1;
  }
  state.dropEvent = dropEventOf(tally, usable);
}

/**
 * The turns up to `boundary` (all but the current one) go, which is where the plain algorithm stops too: with them
 * the items overflow even after the first trim pass, without them they fit it. So the first pass trims every long
 * result of what is kept, and the dropped items need no count.
 */
function dropThroughBoundary(
  items: readonly ContextItem[],
  tokens: Float64Array,
  known: Uint8Array,
  scan: TurnScan,
  boundary: number,
  usable: number,
  tokenizer: ModelDescriptor["tokenizer"],
): BudgetState {
  const { starts, currentTurn, pinned } = scan;
  const size = items.length;
  const state: BudgetState = {
    tokens,
    dropped: new Uint8Array(size),
    trimMasks: new Uint8Array(size),
    trimRecords: [],
    total: 0,
    dropEvent: null,
  };
  const tally = newDropTally();
  for (let turn = 0; turn <= boundary; turn += 1) {
    if (turn === currentTurn) continue;
    const end = turn + 1 < starts.length ? starts[turn + 1] : size;
    let droppedAny = false;
    for (let index = starts[turn]; index < end; index += 1) {
      const item = items[index];
      if (pinned[index] === 1) continue;
      state.dropped[index] = 1;
      droppedAny = true;
      // Only what is known without tokenising is added up (not even the parts of a dropped item are read, which is
      // what the lazy path saves): counts made by the walk above, after the first trim pass, and cached counts.
      if (known[index] === 1) {
        const count = tokens[index];
        recordDrop(
          tally,
          item,
          hasToolResult(item)
            ? (planPass(item, count, 0, FIRST_PASS, tokenizer, ignoreTrim) ?? count)
            : count,
        );
      } else if (item.tokens > 0) recordDrop(tally, item, item.tokens);
      else {
        recordDrop(tally, item, 0);
        tally.uncountedItems += 1;
      }
    }
    if (droppedAny) tally.turns += 1;
  }

  // The first trim pass over what is kept, oldest first (it never stops early here: see above).
  for (let index = 0; index < size; index += 1) {
    if (state.dropped[index]) continue;
    const item = items[index];
    if (hasToolResult(item)) {
      const firstRecord = state.trimRecords.length;
      const next = planPass(item, tokens[index], 0, FIRST_PASS, tokenizer, (toolCallId, originalLength) => {
        state.trimRecords.push({
          itemIndex: index,
          toolCallId,
          originalLength,
          maxChars: FIRST_TRIM.maxChars,
          savedTokens: 0,
        });
      });
      if (next !== null) {
        const saved = tokens[index] - next;
        const trimmedHere = state.trimRecords.length - firstRecord;
        for (let record = firstRecord; record < state.trimRecords.length; record += 1) {
          state.trimRecords[record].savedTokens = Math.round(saved / trimmedHere);
        }
        state.trimMasks[index] = FIRST_PASS;
        tokens[index] = next;
      }
    }
    state.total += tokens[index];
  }
  state.dropEvent = dropEventOf(tally, usable);
  return state;
}

/** What is sent: every item not dropped, with its count, trimmed where a pass trimmed it. */
function keptItems(
  items: readonly ContextItem[],
  tokens: Float64Array,
  dropped: Uint8Array | null,
  trimMasks: Uint8Array | null,
): ContextItem[] {
  const kept: ContextItem[] = [];
  for (let index = 0; index < items.length; index += 1) {
    if (dropped?.[index]) continue;
    const item = items[index];
    const count = tokens[index];
    if (trimMasks !== null && trimMasks[index] !== 0) kept.push(applyTrims(item, trimMasks[index], count));
    else kept.push(count === item.tokens ? item : { ...item, tokens: count });
  }
  return kept;
}

function sumTokens(items: readonly ContextItem[]): number {
  let total = 0;
  for (const item of items) total += item.tokens;
  return total;
}

/** Phase B: phase A's cached counts are for one tokenizer; another model's attempt has them counted afresh. */
export const recountStage: Stage<readonly ContextItem[], readonly ContextItem[], PhaseBContext> = {
  name: "recount",
  run: (items, { countedWith, model }) => ({
    value: countsForTokenizer(items, countedWith, model.tokenizer),
    trace: [],
  }),
};

/**
 * Phase B: the items cut to the attempt's budget. Dropped turns can leave two user turns side by side, so strict
 * models get them merged again after every fit. Throws ContextBudgetError when even the current input cannot fit.
 */
export const budgetStage: Stage<readonly ContextItem[], BudgetedItems, PhaseBContext> = {
  name: "budget",
  run(items, { model, settings }) {
    let budgeted = fitToBudget(items, model, settings);
    let realigned = enforceAlternation(budgeted.value.items, model);
    const trace = [...budgeted.trace, ...realigned.trace];
    let totalTokens = sumTokens(realigned.value);
    if (totalTokens > budgeted.value.budget.usableTokens) {
      // Realignment added a turn (a conversation-start before a pinned assistant note the budget left first): the
      // budget runs once more on the realigned items, where that turn is pinned, so the result fits or throws.
      budgeted = fitToBudget(realigned.value, model, settings);
      realigned = enforceAlternation(budgeted.value.items, model);
      appendAll(trace, budgeted.trace);
      appendAll(trace, realigned.trace);
      totalTokens = sumTokens(realigned.value);
    }
    return { value: { items: realigned.value, budget: { ...budgeted.value.budget, totalTokens } }, trace };
  },
};
