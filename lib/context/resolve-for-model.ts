// Phase B: the capability-neutral phase-A result resolved for one attempt's model, by the stages of PHASE_B in
// order. Pure and deterministic: the base is never mutated (a fallback model re-resolves the same base), and the
// same inputs give byte-identical output. See docs/pipeline.md.

import type { BaseContext, ContextItem, ModelDescriptor, StageTiming, TraceEvent } from "@/lib/domain/types";
import { budgetStage, recountStage } from "./budget";
import { cacheBreakpointsStage } from "./cache-breakpoints";
import { mediaResolutionStage } from "./media-resolution";
import { normaliseStage } from "./normalise-strict";
import type { BudgetInfo, PhaseBContext, SerialisedRequest } from "./phases";
import { replayableReasoningStage } from "./replayable-reasoning";
import { serialiseStage } from "./serialise";
import { type Clock, StageList } from "./stage";
import { stopStringsStage } from "./stop-strings";
import { toolPairingStage } from "./tool-pairing";

export { ContextBudgetError } from "./budget-limits";
export type { BudgetInfo, ProviderOptions, SerialisedRequest } from "./phases";

/**
 * Phase B's stages, in the order they run. Reasoning the provider cannot take back goes first, so that no later
 * stage counts, merges or keeps an item for it. Tool pairing comes before the strict normalisation: dropping an orphan
 * output can leave two same-role turns side by side, which the normalisation must still see to merge them.
 */
export const PHASE_B = StageList.startingWith(recountStage)
  .followedBy(replayableReasoningStage)
  .followedBy(mediaResolutionStage)
  .followedBy(toolPairingStage)
  .followedBy(normaliseStage)
  .followedBy(budgetStage)
  .followedBy(stopStringsStage)
  .followedBy(cacheBreakpointsStage)
  .followedBy(serialiseStage);

export interface ResolveOptions {
  /** Tools enabled for this attempt; a blind model is told to use `analyze_image` when it is among them. */
  enabledToolNames?: string[];
  /** Times each stage (`stageTimings`); without it every time is 0. */
  clock?: Clock;
}

export interface ResolvedContext {
  /** The items as sent, after every phase-B stage, with token counts filled. */
  items: ContextItem[];
  /** The base trace followed by this attempt's events. */
  trace: TraceEvent[];
  request: SerialisedRequest;
  budget: BudgetInfo;
  model: ModelDescriptor;
  /** Phase B's stages for this attempt, in the order they ran, with their times. */
  stageTimings: StageTiming[];
}

/** Throws ContextBudgetError (code `context_too_large`) when even the current input cannot fit the model. */
export function resolveForModel(
  base: BaseContext,
  model: ModelDescriptor,
  options: ResolveOptions = {},
): ResolvedContext {
  const context: PhaseBContext = {
    model,
    settings: base.settings,
    countedWith: base.tokenizer,
    enabledToolNames: options.enabledToolNames,
    conversationId: base.conversationId,
    callOptions: base.callOptions,
  };
  const run = PHASE_B.run(base.items, context, options.clock ?? null);
  const { items, budget, request } = run.value;
  return {
    // The budget stage returns a fresh array, and merging builds another: safe to hand out as the caller's own.
    items: items as ContextItem[],
    trace: [...base.trace, ...run.trace],
    request,
    budget,
    model,
    stageTimings: run.stageTimings,
  };
}
