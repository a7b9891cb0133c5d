"use client";
// A cost in dollars, with its parts (input, cached input, cache writes, output) on hover; "unknown" when the model has no
// prices or the provider reported no usage, never "$0". A stopped or failed attempt's cost without reported usage is an
// estimate (lib/chat/attempts/attempt-cost.ts): shown as "≈ $… (estimated)", the hover saying how it was counted.
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
