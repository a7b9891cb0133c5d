"use client";
// A cost in dollars, with its parts (input, cached input, cache writes, output) on hover; "unknown" when the model has no
// prices or the provider reported no usage, never "$0".
import { type Cost, formatUsd } from "@/lib/pricing";

export function CostLabel({ cost, testId }: { cost: Cost | null | undefined; testId: string }) {
  if (!cost) {
    return (
      <span data-testid={testId} data-cost="unknown" title="No prices for this model, or no usage reported">
        cost unknown
      </span>
    );
  }
  const writes = cost.cacheWriteUsd > 0 ? ` · cache writes ${formatUsd(cost.cacheWriteUsd)}` : "";
  const parts = `input ${formatUsd(cost.inputUsd)} · cached input ${formatUsd(cost.cachedInputUsd)}${writes} · output ${formatUsd(cost.outputUsd)}`;
  return (
    <span data-testid={testId} data-cost={cost.totalUsd} title={parts}>
      {formatUsd(cost.totalUsd)}
    </span>
  );
}
