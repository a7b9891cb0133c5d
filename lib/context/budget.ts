// Phase B's token budget (docs/pipeline.md#budget): fit the items into the model's window.
// usable = (contextWindow − reservedOutputTokens) × (1 − safetyMargin). When the items exceed it: trim old tool
// results (> 500 chars → 400 head + 100 tail), then drop the oldest whole turns, then trim again (> 200 → 150 +
// 50). Never the current input, the summary, system items or context notes. If the current input and the system
// items alone do not fit, the attempt fails with a ContextBudgetError instead of silently sending nothing
// (a request with the current input dropped would be empty and meaningless).
//
// O(n): every item is counted once (non-zero counts are trusted), a running total is kept, and a trimmed result's
// count is scaled from its own count by the share of characters kept, so no cut ever re-counts the list or
// re-tokenises text (LangChain's `trimMessages` recounts on every cut and goes quadratic).

import type { ResolvedSettings } from "@/lib/domain/settings";
import type { ContextItem, ModelDescriptor, TokenizerName, TraceEvent } from "@/lib/domain/types";
import { budgetInfo, budgetLimits, contextTooLarge, countsForTokenizer } from "./budget-limits";
import {
  applyTrims,
  type BudgetState,
  FIRST_PASS,
  FIRST_TRIM,
  hasToolResult,
  planPass,
  SECOND_PASS,
  SECOND_TRIM,
  type TrimRecord,
  trimItem,
  trimPass,
} from "./budget-trims";
import { scanTurns, type TurnScan, turnEnd, turnStart } from "./budget-turns";
import { elementAt } from "./indexing";
import { enforceAlternation } from "./normalise-strict";
import type { BudgetedItems, PhaseBContext } from "./phases";
import { isSystemItem } from "./pinned";
import { appendAll, type Stage, type StageResult } from "./stage";
import { countItemTokens } from "./tokens";
import { plural } from "./trace";

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

const ignoreTrim = () => {};

/**
 * Counts made on demand, once per item: an item is tokenised only when a cut depends on its count. The typed arrays
 * here and in BudgetState are made at the items' length and read only at item positions, so the `?? 0` of their
 * reads never applies (it satisfies the strict index check without a call per read).
 */
interface LazyCounts {
  /** Each item's count once known, 0 before. */
  tokens: Float64Array;
  /** 1 where `tokens` holds the item's count. */
  known: Uint8Array;
  countAt(index: number): number;
}

function lazyCounts(items: readonly ContextItem[], tokenizer: TokenizerName): LazyCounts {
  const tokens = new Float64Array(items.length);
  const known = new Uint8Array(items.length);
  const countAt = (index: number): number => {
    const item = items[index];
    if (known[index] === 0 && item !== undefined) {
      tokens[index] = item.tokens > 0 ? item.tokens : countItemTokens(item, tokenizer);
      known[index] = 1;
    }
    return tokens[index] ?? 0;
  };
  return { tokens, known, countAt };
}

/**
 * The system items and the current input: they must fit whatever is cut (they are a subset of the total, so
 * checking them first gives the same answer as checking after the total).
 */
function essentialTokens(items: readonly ContextItem[], counts: LazyCounts): number {
  let essential = 0;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    if (item !== undefined && (isSystemItem(item) || item.tag === "CURRENT_INPUT"))
      essential += counts.countAt(index);
  }
  return essential;
}

/** An item's count after the first trim pass (which trims every long result when the walk below overflows). */
function firstPassCountAt(
  items: readonly ContextItem[],
  counts: LazyCounts,
  index: number,
  tokenizer: TokenizerName,
): number {
  const count = counts.countAt(index);
  const item = items[index];
  if (item === undefined || !hasToolResult(item)) return count;
  return planPass(item, count, 0, FIRST_PASS, tokenizer, ignoreTrim) ?? count;
}

/**
 * The newest turn that has to go (every older one goes too), walking newest first: the items that are never
 * dropped, then whole turns, until they overflow. -1 when the walk reaches the oldest turn, every item counted.
 */
function findDropBoundary(
  items: readonly ContextItem[],
  scan: TurnScan,
  counts: LazyCounts,
  usable: number,
  tokenizer: TokenizerName,
): number {
  const { starts, currentTurn, pinned } = scan;
  let suffix = 0;
  for (let turn = 0; turn < starts.length; turn += 1) {
    const end = turnEnd(scan, turn, items.length);
    for (let index = turnStart(scan, turn); index < end; index += 1)
      if (turn === currentTurn || pinned[index] === 1)
        suffix += firstPassCountAt(items, counts, index, tokenizer);
  }
  if (suffix > usable) return starts.length - 1;
  for (let turn = starts.length - 1; turn >= 0; turn -= 1) {
    if (turn === currentTurn) continue;
    const end = turnEnd(scan, turn, items.length);
    for (let index = turnStart(scan, turn); index < end; index += 1)
      if (pinned[index] === 0) suffix += firstPassCountAt(items, counts, index, tokenizer);
    if (suffix > usable) return turn;
  }
  return -1;
}

export function fitToBudget(
  items: readonly ContextItem[],
  model: ModelDescriptor,
  settings: ResolvedSettings,
): StageResult<BudgetedItems> {
  const limits = budgetLimits(model, settings);
  const { usable } = limits;
  const tokenizer = model.tokenizer;
  const counts = lazyCounts(items, tokenizer);
  const essential = essentialTokens(items, counts);
  const scan = scanTurns(items);
  const boundary = findDropBoundary(items, scan, counts, usable, tokenizer);
  if (essential > usable) {
    throw contextTooLarge(limits, `the current input and system prompt need ${essential} tokens`, essential);
  }

  let state: BudgetState;
  if (boundary === -1) {
    // Everything is counted: the plain algorithm.
    let total = 0;
    for (let index = 0; index < items.length; index += 1) total += counts.countAt(index);
    if (total <= usable)
      return {
        value: { items: keptItems(items, counts.tokens, null, null), budget: budgetInfo(limits, total) },
        trace: [],
      };
    state = newBudgetState(counts.tokens, total);
    trimPass(items, state, usable, FIRST_TRIM, FIRST_PASS, tokenizer);
    if (state.total > usable) dropOldestTurns(items, state, scan, usable);
  } else {
    state = dropThroughBoundary(items, counts, scan, boundary, usable, tokenizer);
  }
  if (state.total > usable) trimPass(items, state, usable, SECOND_TRIM, SECOND_PASS, tokenizer);

  const trace = cutEvents(items, state);
  if (state.total > usable) {
    throw contextTooLarge(
      limits,
      `after trimming tool results and dropping every droppable turn, ${state.total} tokens remain`,
      state.total,
    );
  }
  return {
    value: {
      items: keptItems(items, state.tokens, state.dropped, state.trimMasks),
      budget: budgetInfo(limits, state.total),
    },
    trace,
  };
}

function newBudgetState(tokens: Float64Array, total: number): BudgetState {
  return {
    tokens,
    dropped: new Uint8Array(tokens.length),
    trimMasks: new Uint8Array(tokens.length),
    trimRecords: [],
    total,
    dropEvent: null,
  };
}

/**
 * Trims inside turns that were dropped later reach no one: only the surviving ones are reported, in the order the
 * cuts happened (first trim pass, the drop, second trim pass).
 */
function cutEvents(items: readonly ContextItem[], state: BudgetState): TraceEvent[] {
  const trimEvent = (record: TrimRecord): TraceEvent => {
    const item = elementAt(items, record.itemIndex);
    return {
      stage: "budget",
      action: "trimmed-tool-result",
      reason: `tool result of ${record.originalLength} chars trimmed to ${record.maxChars} (head and tail kept) to fit the budget`,
      itemIds: [item.id],
      messageIds: item.sourceMessageIds,
      counts: {
        originalChars: record.originalLength,
        maxChars: record.maxChars,
        tokensSaved: record.savedTokens,
      },
      details: { toolCallId: record.toolCallId },
    };
  };
  const events: TraceEvent[] = [];
  for (const record of state.trimRecords)
    if (!state.dropped[record.itemIndex] && record.maxChars === FIRST_TRIM.maxChars)
      events.push(trimEvent(record));
  if (state.dropEvent) events.push(state.dropEvent);
  for (const record of state.trimRecords)
    if (!state.dropped[record.itemIndex] && record.maxChars === SECOND_TRIM.maxChars)
      events.push(trimEvent(record));
  return events;
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

/**
 * Drop every item of a turn that may be dropped, handing each to `onDrop`; counts the turn in the tally when it
 * lost anything (a turn of pinned items only is not a dropped turn).
 */
function dropTurn(
  items: readonly ContextItem[],
  state: BudgetState,
  scan: TurnScan,
  turn: number,
  tally: DropTally,
  onDrop: (item: ContextItem, index: number) => void,
): void {
  const end = turnEnd(scan, turn, items.length);
  let droppedAny = false;
  for (let index = turnStart(scan, turn); index < end; index += 1) {
    const item = items[index];
    if (item === undefined || scan.pinned[index] === 1) continue;
    state.dropped[index] = 1;
    droppedAny = true;
    onDrop(item, index);
  }
  if (droppedAny) tally.turns += 1;
}

/** With every item counted: drop the oldest whole turns until the items fit. */
function dropOldestTurns(
  items: readonly ContextItem[],
  state: BudgetState,
  scan: TurnScan,
  usable: number,
): void {
  const tally = newDropTally();
  const onDrop = (item: ContextItem, index: number) => {
    const count = state.tokens[index] ?? 0;
    state.total -= count;
    recordDrop(tally, item, count);
  };
  for (let turn = 0; turn < scan.starts.length && state.total > usable; turn += 1) {
    if (turn !== scan.currentTurn) dropTurn(items, state, scan, turn, tally, onDrop);
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
  counts: LazyCounts,
  scan: TurnScan,
  boundary: number,
  usable: number,
  tokenizer: TokenizerName,
): BudgetState {
  const state = newBudgetState(counts.tokens, 0);
  const tally = newDropTally();
  const onDrop = (item: ContextItem, index: number) =>
    recordUncountedDrop(tally, item, index, counts, tokenizer);
  for (let turn = 0; turn <= boundary; turn += 1) {
    if (turn !== scan.currentTurn) dropTurn(items, state, scan, turn, tally, onDrop);
  }
  // The first trim pass over what is kept, oldest first (it never stops early here: see above).
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    if (item === undefined || state.dropped[index]) continue;
    state.total += state.tokens[index] ?? 0;
    if (hasToolResult(item)) trimItem(item, index, state, FIRST_TRIM, FIRST_PASS, tokenizer);
  }
  state.dropEvent = dropEventOf(tally, usable);
  return state;
}

/**
 * Only what is known without tokenising is added up (not even the parts of a dropped item are read, which is
 * what the lazy path saves): counts made by the boundary walk, after the first trim pass, and cached counts.
 */
function recordUncountedDrop(
  tally: DropTally,
  item: ContextItem,
  index: number,
  counts: LazyCounts,
  tokenizer: TokenizerName,
): void {
  if (counts.known[index] === 1) {
    const count = counts.tokens[index] ?? 0;
    recordDrop(
      tally,
      item,
      hasToolResult(item) ? (planPass(item, count, 0, FIRST_PASS, tokenizer, ignoreTrim) ?? count) : count,
    );
  } else if (item.tokens > 0) recordDrop(tally, item, item.tokens);
  else {
    recordDrop(tally, item, 0);
    tally.uncountedItems += 1;
  }
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
    const item = items[index];
    if (item === undefined || dropped?.[index]) continue;
    const count = tokens[index] ?? 0;
    const mask = trimMasks?.[index] ?? 0;
    if (mask !== 0) kept.push(applyTrims(item, mask, count));
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
