// The budget's limits (docs/pipeline.md#budget): the usable share of a model's window, and the error an attempt
// fails with when even every permitted cut leaves too much.

import type { ResolvedSettings } from "@/lib/domain/settings";
import { reservedOutputTokens } from "@/lib/domain/settings";
import type { ContextItem, ModelDescriptor, TokenizerName } from "@/lib/domain/types";
import type { BudgetInfo } from "./phases";

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

/** One attempt's budget and what it is made of, for the result and for the error when nothing fits. */
export interface BudgetLimits {
  usable: number;
  reserved: number;
  model: ModelDescriptor;
  safetyMarginPercent: number;
}

export function budgetLimits(model: ModelDescriptor, settings: ResolvedSettings): BudgetLimits {
  const { usable, reserved } = usableTokenBudget(model, settings);
  return { usable, reserved, model, safetyMarginPercent: settings.budget.safetyMarginPercent };
}

export function budgetInfo(limits: BudgetLimits, totalTokens: number): BudgetInfo {
  return {
    usableTokens: limits.usable,
    totalTokens,
    reservedOutputTokens: limits.reserved,
    contextWindow: limits.model.contextWindow,
  };
}

/** The attempt fails: `need` says what does not fit (`requiredTokens` of it) and the limits say why. */
export function contextTooLarge(
  limits: BudgetLimits,
  need: string,
  requiredTokens: number,
): ContextBudgetError {
  const { usable, reserved, model, safetyMarginPercent } = limits;
  return new ContextBudgetError(
    `Context too large for ${model.id}: ${need} but only ${usable} of the ${model.contextWindow}-token window are usable (${reserved} reserved for output, ${safetyMarginPercent}% safety margin).`,
    {
      modelId: model.id,
      requiredTokens,
      usableTokens: usable,
      contextWindow: model.contextWindow,
      reservedOutputTokens: reserved,
      safetyMarginPercent,
    },
  );
}
