// What a model call cost, from the model's prices (US dollars per million tokens, in the model registry) and the
// usage the provider reported. Cached input tokens (read from the prompt cache) and cache-write tokens (written to
// it) are part of the input tokens: reads are priced at the cached rate, writes at the cache-write rate (Anthropic
// bills them at 1.25× input), the rest of the input at the input rate. Unknown prices or usage give a null cost:
// never a guess; so do cache writes reported for a model whose prices name no write rate.
// Client-safe and pure: the inspector sums what the server computed.

import type { ModelPrices } from "@/lib/domain/types";

export type { ModelPrices };

export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
}

export interface Cost {
  inputUsd: number;
  cachedInputUsd: number;
  cacheWriteUsd: number;
  outputUsd: number;
  totalUsd: number;
}

const PER_MILLION = 1_000_000;

export function costOfUsage(
  usage: TokenUsage | null | undefined,
  prices: ModelPrices | null | undefined,
): Cost | null {
  if (!prices || !usage || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return null;
  const inputTokens = usage.inputTokens ?? 0;
  const cachedTokens = Math.min(usage.cachedInputTokens ?? 0, inputTokens);
  const writeTokens = Math.min(usage.cacheWriteTokens ?? 0, inputTokens - cachedTokens);
  if (writeTokens > 0 && prices.cacheWritePerMillion === undefined) return null;
  const uncachedTokens = inputTokens - cachedTokens - writeTokens;
  const inputUsd = (uncachedTokens * prices.inputPerMillion) / PER_MILLION;
  const cachedInputUsd = (cachedTokens * prices.cachedInputPerMillion) / PER_MILLION;
  const cacheWriteUsd = (writeTokens * (prices.cacheWritePerMillion ?? 0)) / PER_MILLION;
  const outputUsd = ((usage.outputTokens ?? 0) * prices.outputPerMillion) / PER_MILLION;
  return {
    inputUsd,
    cachedInputUsd,
    cacheWriteUsd,
    outputUsd,
    totalUsd: inputUsd + cachedInputUsd + cacheWriteUsd + outputUsd,
  };
}

/** A cost that may be an estimate (a stopped or failed attempt's without reported usage: lib/chat/attempts/attempt-cost.ts). */
export type MaybeEstimatedCost = Cost & { estimated?: boolean };

/**
 * The sum of known costs; null when none is known (so "unknown" never reads as "free"). A sum with an estimated part
 * is itself marked estimated.
 */
export function sumCosts(
  costs: readonly (MaybeEstimatedCost | null | undefined)[],
): MaybeEstimatedCost | null {
  const known = costs.filter((cost): cost is MaybeEstimatedCost => cost !== null && cost !== undefined);
  if (known.length === 0) return null;
  const sum = known.reduce<Cost>(
    (total, cost) => ({
      inputUsd: total.inputUsd + cost.inputUsd,
      cachedInputUsd: total.cachedInputUsd + cost.cachedInputUsd,
      cacheWriteUsd: total.cacheWriteUsd + cost.cacheWriteUsd,
      outputUsd: total.outputUsd + cost.outputUsd,
      totalUsd: total.totalUsd + cost.totalUsd,
    }),
    { inputUsd: 0, cachedInputUsd: 0, cacheWriteUsd: 0, outputUsd: 0, totalUsd: 0 },
  );
  return known.some((cost) => cost.estimated === true) ? { ...sum, estimated: true } : sum;
}

/** "$0.0123", with enough digits to show a cheap call as more than zero. */
export function formatUsd(usd: number): string {
  if (usd === 0) return "$0";
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  const digits = Math.min(8, Math.max(4, 2 - Math.floor(Math.log10(usd))));
  return `$${usd.toFixed(digits).replace(/0+$/, "")}`;
}
