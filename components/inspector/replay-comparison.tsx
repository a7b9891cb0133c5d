"use client";
// An attempt and its replay side by side: each one's reply, tokens, cost and latency, then the payload diff of the
// replay against the original (docs/features.md#replay).
import { formatCount, formatMs } from "@/components/ui/format";
import { CostLabel } from "./cost-label";
import { PayloadDiffView } from "./payload-diff-view";
import { type AttemptView, attemptPayload } from "./types";

function ReplayColumn({ label, attempt, testId }: { label: string; attempt: AttemptView; testId: string }) {
  return (
    <div
      className="min-w-0 space-y-1.5 rounded-lg bg-zinc-50 p-2 dark:bg-zinc-900"
      data-testid={testId}
      data-status={attempt.status}
    >
      <p className="text-[11px] text-zinc-500 dark:text-zinc-400">
        {label} ·{" "}
        <span className="font-mono" data-testid="replay-column-model">
          {attempt.modelId}
        </span>
      </p>
      <p className="text-sm break-words whitespace-pre-wrap" data-testid="replay-column-reply">
        {attempt.error ? `${attempt.error.code}: ${attempt.error.message}` : (attempt.response?.text ?? "")}
      </p>
      <dl className="grid grid-cols-2 gap-1 text-[11px]">
        <dt className="text-zinc-500 dark:text-zinc-400">Tokens in / out</dt>
        <dd className="font-mono tabular-nums" data-testid="replay-column-tokens">
          {attempt.usage?.inputTokens === undefined ? "?" : formatCount(attempt.usage.inputTokens)} /{" "}
          {attempt.usage?.outputTokens === undefined ? "?" : formatCount(attempt.usage.outputTokens)}
        </dd>
        <dt className="text-zinc-500 dark:text-zinc-400">Cost</dt>
        <dd>
          <CostLabel cost={attempt.cost} testId="replay-column-cost" />
        </dd>
        <dt className="text-zinc-500 dark:text-zinc-400">Latency</dt>
        <dd className="font-mono tabular-nums" data-testid="replay-column-latency">
          {formatMs(attempt.timings.doneMs)}
        </dd>
      </dl>
    </div>
  );
}

export function ReplayComparison({ original, replay }: { original: AttemptView; replay: AttemptView }) {
  return (
    <div className="space-y-2" data-testid="replay-comparison">
      <div className="grid grid-cols-2 gap-2">
        <ReplayColumn label="Original" attempt={original} testId="replay-original" />
        <ReplayColumn label="Replay" attempt={replay} testId="replay-result" />
      </div>
      <PayloadDiffView
        current={attemptPayload(replay)}
        previous={attemptPayload(original)}
        previousLabel="the original attempt"
      />
    </div>
  );
}
