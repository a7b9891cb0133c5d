// An attempt's cost as the inspector shows it. The provider's reported usage prices it when there is any; a
// stopped or failed attempt without reported usage is still billed by the provider, so its cost is estimated:
// input from the token counts its sent items carry, output by counting the text it streamed with the model's
// tokenizer (../context/tokens.ts), both at the model's prices (../pricing.ts). An answered attempt without
// usage stays unknown: nothing was cut short, so a guess would only hide the provider's missing report. A request
// the provider refused with an HTTP error (a 429, a 400) was never run, so it is not billed and gets no estimate.
// An attempt is costed at the prices it was recorded with (response.prices); when the model's prices have changed
// since, its cost at today's prices is given beside it. An attempt recorded before prices were kept has the
// model's current prices.

import { countTextTokens } from "@/lib/context/tokens";
import type { TokenizerName } from "@/lib/domain/types";
import { costOfUsage, type MaybeEstimatedCost, type ModelPrices, type TokenUsage } from "@/lib/pricing";

/** `estimated: true` when counted from what was sent and streamed; a reported cost is a plain Cost, as in every view. */
export type AttemptCost = MaybeEstimatedCost;

export interface CostedAttemptFields {
  status: string;
  /** `status` is the HTTP status when the provider refused the request itself. */
  error?: { status?: number } | null;
  /** The items the attempt sent; each carries its token count under the model's tokenizer. */
  items: readonly unknown[];
  response: {
    text: string;
    usage: TokenUsage | null;
    /** The model's prices when the attempt was recorded; absent on older attempts. */
    prices?: ModelPrices | null;
  } | null;
}

type CostedModel = { prices: ModelPrices | null | undefined; tokenizer: TokenizerName } | null | undefined;

export function attemptCost(attempt: CostedAttemptFields, model: CostedModel): AttemptCost | null {
  const stored = attempt.response?.prices;
  return costAt(attempt, stored === undefined ? model?.prices : stored, model?.tokenizer);
}

/** The attempt's cost at the model's prices of today, when they differ from those it was costed with; else null. */
export function attemptCostToday(attempt: CostedAttemptFields, model: CostedModel): AttemptCost | null {
  const stored = attempt.response?.prices;
  if (stored === undefined || !model?.prices || samePrices(stored, model.prices)) return null;
  return costAt(attempt, model.prices, model.tokenizer);
}

function costAt(
  attempt: CostedAttemptFields,
  prices: ModelPrices | null | undefined,
  tokenizer: TokenizerName | undefined,
): AttemptCost | null {
  const reported = costOfUsage(attempt.response?.usage, prices);
  if (reported) return reported;
  if (!prices || !tokenizer || (attempt.status !== "stopped" && attempt.status !== "error")) return null;
  if ((attempt.error?.status ?? 0) >= 400) return null;
  const inputTokens = attempt.items.reduce<number>((sum, item) => sum + itemTokens(item), 0);
  const outputTokens = countTextTokens(attempt.response?.text ?? "", tokenizer);
  const estimate = costOfUsage({ inputTokens, outputTokens }, prices);
  return estimate && { ...estimate, estimated: true };
}

function samePrices(a: ModelPrices | null, b: ModelPrices): boolean {
  return (
    a !== null &&
    a.inputPerMillion === b.inputPerMillion &&
    a.cachedInputPerMillion === b.cachedInputPerMillion &&
    a.cacheWritePerMillion === b.cacheWritePerMillion &&
    a.outputPerMillion === b.outputPerMillion
  );
}

function itemTokens(item: unknown): number {
  const tokens = (item as { tokens?: unknown } | null)?.tokens;
  return typeof tokens === "number" ? tokens : 0;
}
