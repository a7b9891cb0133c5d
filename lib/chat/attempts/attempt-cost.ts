// An attempt's cost as the inspector shows it. The provider's reported usage prices it when there is any; a
// stopped or failed attempt without reported usage is still billed by the provider, so its cost is estimated:
// input from the token counts its sent items carry, output by counting the text it streamed with the model's
// tokenizer (../context/tokens.ts), both at the model's prices (../pricing.ts). An answered attempt without
// usage stays unknown: nothing was cut short, so a guess would only hide the provider's missing report. A request
// the provider refused with an HTTP error (a 429, a 400) was never run, so it is not billed and gets no estimate.

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
  response: { text: string; usage: TokenUsage | null } | null;
}

export function attemptCost(
  attempt: CostedAttemptFields,
  model: { prices: ModelPrices | null | undefined; tokenizer: TokenizerName } | null | undefined,
): AttemptCost | null {
  const reported = costOfUsage(attempt.response?.usage, model?.prices);
  if (reported) return reported;
  if (!model?.prices || (attempt.status !== "stopped" && attempt.status !== "error")) return null;
  if ((attempt.error?.status ?? 0) >= 400) return null;
  const inputTokens = attempt.items.reduce<number>((sum, item) => sum + itemTokens(item), 0);
  const outputTokens = countTextTokens(attempt.response?.text ?? "", model.tokenizer);
  const estimate = costOfUsage({ inputTokens, outputTokens }, model.prices);
  return estimate && { ...estimate, estimated: true };
}

function itemTokens(item: unknown): number {
  const tokens = (item as { tokens?: unknown } | null)?.tokens;
  return typeof tokens === "number" ? tokens : 0;
}
