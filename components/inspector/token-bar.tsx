"use client";
// Tokens by tag: a gauge against the model's usable window and a composition bar with a legend, and the
// pipeline's estimate beside what the provider reported (input, cached input, output).
import { Fragment, type ReactNode } from "react";
import { formatCount, formatPercent } from "@/components/ui/format";
import { TAG_DESCRIPTIONS } from "@/lib/context/tags";
import type { ItemTag } from "@/lib/domain/types";
import { TagDot } from "./tag-chip";
import { tagStyle } from "./tag-style";
import type { PayloadView } from "./types";

export function tokensByTag(payload: PayloadView): { tag: ItemTag; tokens: number; count: number }[] {
  const totals = new Map<ItemTag, { tokens: number; count: number }>();
  for (const item of payload.items) {
    // An item the adapter left out of the body was not sent: it costs nothing.
    if (item.dropped) continue;
    const entry = totals.get(item.tag) ?? { tokens: 0, count: 0 };
    entry.tokens += item.tokens;
    entry.count += 1;
    totals.set(item.tag, entry);
  }
  return [...totals].map(([tag, entry]) => ({ tag, ...entry }));
}

type Segment = ReturnType<typeof tokensByTag>[number];

/** One mark per tag in a row, hidden from screen readers: the legend below says the same in words. */
function SegmentStrip({
  className,
  testId,
  segments,
  mark,
}: {
  className: string;
  testId: string;
  segments: readonly Segment[];
  mark: (segment: Segment) => ReactNode;
}) {
  return (
    <div className={className} aria-hidden="true" data-testid={testId}>
      {segments.map((segment) => (
        <Fragment key={segment.tag}>{mark(segment)}</Fragment>
      ))}
    </div>
  );
}

export function TokenBar({
  payload,
  activeTag,
  onTag,
  usageNote,
}: {
  payload: PayloadView;
  activeTag: ItemTag | null;
  onTag: (tag: ItemTag | null) => void;
  /** Shown instead of provider usage when there is none (a preview calls no model). */
  usageNote: string;
}) {
  const segments = tokensByTag(payload);
  const itemTotal = segments.reduce((sum, segment) => sum + segment.tokens, 0);
  const total = payload.budget?.totalTokens ?? itemTotal;
  const usable = payload.budget?.usableTokens ?? 0;
  const usage = payload.usage;
  const gaugeMark = (segment: Segment) => (
    <span
      className={`${tagStyle(segment.tag).fill} min-w-[2px]`}
      style={{ width: `${Math.min(100, (segment.tokens / Math.max(usable, 1)) * 100)}%` }}
    />
  );
  const barMark = (segment: Segment) => (
    <button
      type="button"
      tabIndex={-1}
      onClick={() => onTag(activeTag === segment.tag ? null : segment.tag)}
      className={`${tagStyle(segment.tag).fill} min-w-[3px] transition-opacity ${activeTag && activeTag !== segment.tag ? "opacity-25" : ""}`}
      style={{ flexGrow: Math.max(segment.tokens, 1), flexBasis: 0 }}
      title={`${segment.tag}: ${formatCount(segment.tokens)} tokens`}
      data-testid="bar-segment"
      data-tag={segment.tag}
      data-tokens={segment.tokens}
    />
  );

  return (
    <section className="space-y-2.5" data-testid="token-bar">
      <div className="flex flex-wrap items-end justify-between gap-x-4 gap-y-1">
        <p>
          <span className="text-xl font-semibold tabular-nums" data-testid="estimate-total">
            {formatCount(total)}
          </span>
          <span className="ml-1 text-xs text-zinc-500 dark:text-zinc-400">
            tokens in {payload.items.length} items
          </span>
        </p>
        {payload.budget ? (
          <p className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="budget-usable">
            <span className="font-medium text-zinc-700 tabular-nums dark:text-zinc-200">
              {formatPercent(total, usable)}
            </span>{" "}
            of <span className="tabular-nums">{formatCount(usable)}</span> usable
            <span className="hidden sm:inline">
              {" "}
              ({formatCount(payload.budget.contextWindow)} window −{" "}
              {formatCount(payload.budget.reservedOutputTokens)} for output − margin)
            </span>
          </p>
        ) : (
          <p className="text-xs text-zinc-500 dark:text-zinc-400">window unknown (model deleted)</p>
        )}
      </div>

      {payload.budget && (
        <SegmentStrip
          className="flex h-1.5 overflow-hidden rounded-full bg-zinc-100 dark:bg-zinc-800"
          testId="window-gauge"
          segments={segments}
          mark={gaugeMark}
        />
      )}

      <SegmentStrip
        className="flex h-3 gap-px overflow-hidden rounded"
        testId="composition-bar"
        segments={segments}
        mark={barMark}
      />

      <ul className="grid grid-cols-1 gap-x-3 gap-y-0.5 text-[11px] sm:grid-cols-2" data-testid="bar-legend">
        {segments.map((segment) => (
          <li key={segment.tag}>
            <button
              type="button"
              onClick={() => onTag(activeTag === segment.tag ? null : segment.tag)}
              className={`flex w-full items-center gap-1.5 rounded px-1 py-0.5 text-left hover:bg-zinc-100 dark:hover:bg-zinc-800 ${
                activeTag === segment.tag ? "bg-zinc-100 dark:bg-zinc-800" : ""
              } ${activeTag && activeTag !== segment.tag ? "opacity-50" : ""}`}
              title={`${TAG_DESCRIPTIONS[segment.tag]} Click to show only these items.`}
              aria-pressed={activeTag === segment.tag}
              data-testid="bar-legend-entry"
              data-tag={segment.tag}
            >
              <TagDot tag={segment.tag} />
              <span className="truncate font-mono">{segment.tag}</span>
              <span className="text-zinc-500 dark:text-zinc-400">×{segment.count}</span>
              <span className="ml-auto font-mono tabular-nums">{formatCount(segment.tokens)}</span>
              <span className="w-9 text-right text-zinc-500 tabular-nums dark:text-zinc-400">
                {formatPercent(segment.tokens, itemTotal)}
              </span>
            </button>
          </li>
        ))}
      </ul>

      <dl className="grid grid-cols-2 gap-2 text-xs" data-testid="usage-comparison">
        <div className="rounded-lg bg-zinc-50 px-2.5 py-2 dark:bg-zinc-900" data-testid="usage-estimate">
          <dt className="text-[11px] text-zinc-500 dark:text-zinc-400">Estimated input (pipeline)</dt>
          <dd className="mt-0.5 font-mono text-sm font-medium tabular-nums">{formatCount(total)}</dd>
        </div>
        <div className="rounded-lg bg-zinc-50 px-2.5 py-2 dark:bg-zinc-900" data-testid="usage-provider">
          <dt className="text-[11px] text-zinc-500 dark:text-zinc-400">Reported by the provider</dt>
          {usage && (usage.inputTokens != null || usage.outputTokens != null) ? (
            <dd className="mt-0.5 font-mono text-sm tabular-nums">
              <span className="font-medium" data-testid="usage-input">
                {formatCount(usage.lastCallInputTokens ?? usage.inputTokens ?? 0)}
              </span>
              <span className="text-zinc-500 dark:text-zinc-400">
                {" "}
                in
                {usage.lastCallInputTokens !== undefined &&
                  usage.inputTokens !== undefined &&
                  usage.lastCallInputTokens !== usage.inputTokens && (
                    <span title="The attempt made several calls (tool steps); its cost counts them all">
                      {" "}
                      (last call; {formatCount(usage.inputTokens)} over all steps)
                    </span>
                  )}
              </span>
              <span className="text-[11px] text-zinc-500 dark:text-zinc-400" data-testid="usage-cached">
                {" "}
                ({formatCount(usage.cachedInputTokens ?? 0)} cached
                {usage.cacheWriteTokens
                  ? `, ${formatCount(usage.cacheWriteTokens)} written to the cache`
                  : ""}
                )
              </span>
              <span className="text-zinc-500 dark:text-zinc-400"> · </span>
              <span className="font-medium" data-testid="usage-output">
                {formatCount(usage.outputTokens ?? 0)}
              </span>
              <span className="text-zinc-500 dark:text-zinc-400"> out</span>
              {usage.reasoningTokens !== undefined && (
                <span className="text-[11px] text-zinc-500 dark:text-zinc-400" data-testid="usage-reasoning">
                  {" "}
                  ({formatCount(usage.reasoningTokens)} reasoning)
                </span>
              )}
            </dd>
          ) : (
            <dd className="mt-0.5 text-zinc-500 dark:text-zinc-400">{usageNote}</dd>
          )}
        </div>
      </dl>
    </section>
  );
}
