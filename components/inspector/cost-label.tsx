"use client";
// A cost in dollars, with its parts (input, cached input, cache writes, output) on hover; "unknown" when the model has no
// prices or the provider reported no usage, never "$0". A stopped or failed attempt's cost without reported usage is an
// estimate (lib/chat/attempts/attempt-cost.ts): shown as "≈ $… (estimated)", the hover saying how it was counted.
// An attempt keeps the prices it was costed with; when the model's have changed since, CostToday says what it
// would cost now.
import { formatUsd, type MaybeEstimatedCost } from "@/lib/pricing";

export const ESTIMATE_EXPLANATION =
  "Estimated: the provider reported no usage for this stopped or failed call, so input is counted from the items sent and output from the text received, at the model's prices";

export function CostLabel({ cost, testId }: { cost: MaybeEstimatedCost | null | undefined; testId: string }) {
  if (!cost) {
    return (
      <span data-testid={testId} data-cost="unknown" title="No prices for this model, or no usage reported">
        cost unknown
      </span>
    );
  }
  const writes = cost.cacheWriteUsd > 0 ? ` · cache writes ${formatUsd(cost.cacheWriteUsd)}` : "";
  const parts = `input ${formatUsd(cost.inputUsd)} · cached input ${formatUsd(cost.cachedInputUsd)}${writes} · output ${formatUsd(cost.outputUsd)}`;
  if (cost.estimated) {
    return (
      <span
        data-testid={testId}
        data-cost={cost.totalUsd}
        data-cost-estimated="true"
        title={`${ESTIMATE_EXPLANATION}. ${parts}`}
      >
        ≈ {formatUsd(cost.totalUsd)} (estimated)
      </span>
    );
  }
  return (
    <span data-testid={testId} data-cost={cost.totalUsd} title={parts}>
      {formatUsd(cost.totalUsd)}
    </span>
  );
}

/** "(at today's prices: $0.0042)": the attempt's cost at the model's current prices, which differ from its own. */
export function CostToday({ cost }: { cost: MaybeEstimatedCost }) {
  return (
    <span
      className="ml-1 text-zinc-500 dark:text-zinc-400"
      data-testid="attempt-cost-today"
      data-cost={cost.totalUsd}
      title="The model's prices have changed since this call: its cost above is at the prices it was made with"
    >
      (at today&apos;s prices: {cost.estimated ? "≈ " : ""}
      {formatUsd(cost.totalUsd)})
    </span>
  );
}
