// Phase B: resolve the capability-neutral phase-A result for one attempt's model (SPEC §5.2 stages 12–16), seed
// 000's per-attempt resolver. Pure and deterministic: the base is never mutated (a fallback model re-resolves the
// same base), and the same inputs give byte-identical output.

import { type BudgetInfo, countsForTokenizer, fitToBudget } from "./budget";
import { resolveMedia } from "./media-resolution";
import { enforceAlternation, normaliseForModel } from "./normalise-strict";
import { type SerialisedRequest, serialiseRequest } from "./serialise";
import { buildStopSequences } from "./stop-strings";
import { pairToolCalls } from "./tool-pairing";
import type { BaseContext, ContextItem, ModelDescriptor, TraceEvent } from "./types";

export type { BudgetInfo } from "./budget";
export { ContextBudgetError } from "./budget";
export type { ProviderOptions, SerialisedRequest } from "./serialise";

export interface ResolveOptions {
  /** Tools enabled for this attempt; a blind model is told to use `analyze_image` when it is among them. */
  enabledToolNames?: string[];
}

export interface ResolvedContext {
  /** The items as sent, after every phase-B stage, with token counts filled. */
  items: ContextItem[];
  /** The base trace followed by this attempt's events. */
  trace: TraceEvent[];
  request: SerialisedRequest;
  budget: BudgetInfo;
  model: ModelDescriptor;
}

/** Throws ContextBudgetError (code `context_too_large`) when even the current input cannot fit the model. */
export function resolveForModel(
  base: BaseContext,
  model: ModelDescriptor,
  options: ResolveOptions = {},
): ResolvedContext {
  const { settings } = base;
  // Phase A's cached counts are for one tokenizer; another model's attempt has them counted afresh (stage 14).
  const counted = countsForTokenizer(base.items, base.tokenizer, model.tokenizer);
  const media = resolveMedia(counted, model, settings, { enabledToolNames: options.enabledToolNames });
  // Pairing first: dropping an orphan output can leave two same-role turns side by side, which the strict
  // normalisation must still see to merge them.
  const paired = pairToolCalls(media.items);
  const normalised = normaliseForModel(paired.items, model);
  let budgeted = fitToBudget(normalised.items, model, settings);
  // Dropped turns can leave two user turns side by side; strict models get them merged again.
  let realigned = enforceAlternation(budgeted.items, model);
  const budgetEvents = [...budgeted.events, ...realigned.events];
  let totalTokens = sumTokens(realigned.items);
  if (totalTokens > budgeted.budget.usableTokens) {
    // Realignment added a turn (a conversation-start before a pinned assistant note the budget left first): the
    // budget runs once more on the realigned items, where that turn is pinned, so the result fits or throws.
    budgeted = fitToBudget(realigned.items, model, settings);
    realigned = enforceAlternation(budgeted.items, model);
    budgetEvents.push(...budgeted.events, ...realigned.events);
    totalTokens = sumTokens(realigned.items);
  }
  // The budget stage returns a fresh array, and merging builds another: safe to hand out as the caller's own.
  const items = realigned.items as ContextItem[];
  const stops = buildStopSequences(items, model, settings);
  const serialised = serialiseRequest(items, model, settings, stops.stopSequences);
  return {
    items,
    trace: [
      ...base.trace,
      ...media.events,
      ...paired.events,
      ...normalised.events,
      ...budgetEvents,
      ...stops.events,
      ...serialised.events,
    ],
    request: serialised.request,
    budget: { ...budgeted.budget, totalTokens },
    model,
  };
}

function sumTokens(items: readonly ContextItem[]): number {
  let total = 0;
  for (const item of items) total += item.tokens;
  return total;
}
