"use client";
// Prompt caching in the inspector (docs/pipeline.md#prompt-cache-breakpoints): what the chosen attempt read
// from and wrote to the provider's cache with the breakpoints it sent, and the conversation's cache hit ratio.
import type { CacheBreakpointPlace } from "@/lib/domain/types";
import { cacheHitRatio, describeAttemptCache, describeCacheHitRatio } from "@/lib/prompt-cache";
import type { AttemptSummaryView, AttemptView } from "./types";

function breakpointsOf(attempt: AttemptView): CacheBreakpointPlace[] {
  return attempt.items.flatMap((item) => (item.cacheBreakpoint ? [item.cacheBreakpoint] : []));
}

export function PromptCacheSummary({
  attempt,
  calls,
}: {
  attempt: AttemptView;
  /** Every model call of the conversation, for its hit ratio. */
  calls: AttemptSummaryView[];
}) {
  const breakpoints = breakpointsOf(attempt);
  const hit = cacheHitRatio(calls.map((call) => call.usage));
  return (
    <div className="space-y-0.5 text-xs text-zinc-600 dark:text-zinc-300" data-testid="prompt-cache">
      <p
        data-testid="attempt-cache"
        data-cache-read={attempt.usage?.cachedInputTokens ?? ""}
        data-cache-written={attempt.usage?.cacheWriteTokens ?? ""}
        data-breakpoints={breakpoints.length}
      >
        {describeAttemptCache(attempt.usage, breakpoints)}
      </p>
      {hit && (
        <p
          className="text-zinc-500 dark:text-zinc-400"
          data-testid="conversation-cache-ratio"
          data-ratio={hit.ratio}
        >
          Conversation {describeCacheHitRatio(hit)}
        </p>
      )}
    </div>
  );
}
