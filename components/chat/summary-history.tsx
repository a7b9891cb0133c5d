"use client";
// Earlier summaries of the conversation, read only: superseded by a newer one or reverted. Newest first.
import { Disclosure } from "@/components/ui/disclosure";
import type { SummaryView } from "./summary-api";
import { formatSummaryTime } from "./summary-facts";

const STATE_STYLE: Record<SummaryView["state"], string> = {
  active: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  superseded: "bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300",
  reverted: "bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-200",
};

export function SummaryHistory({ summaries }: { summaries: readonly SummaryView[] }) {
  if (summaries.length === 0) return null;
  return (
    <section data-testid="summary-history" aria-label="Earlier summaries">
      <h3 className="section-title mb-2">
        Earlier summaries <span className="font-normal normal-case">· {summaries.length}</span>
      </h3>
      <ul className="space-y-2">
        {summaries.map((summary) => (
          <SummaryHistoryItem key={summary.id} summary={summary} />
        ))}
      </ul>
    </section>
  );
}

/** One earlier summary: its state, what it covered and when, and its text on demand. */
function SummaryHistoryItem({ summary }: { summary: SummaryView }) {
  return (
    <li
      className="rounded-lg border border-zinc-200 px-3 py-2 dark:border-zinc-800"
      data-testid="summary-history-item"
      data-summary-id={summary.id}
      data-state={summary.state}
    >
      <Disclosure
        summaryClassName="flex cursor-pointer list-none flex-wrap items-center gap-2 text-xs select-none"
        summary={
          <>
            <span className={`chip ${STATE_STYLE[summary.state]}`} data-testid="summary-history-state">
              {summary.state}
            </span>
            <span className="text-zinc-700 dark:text-zinc-300">
              {summary.messageCount} {summary.messageCount === 1 ? "message" : "messages"}, through #
              {summary.coversThroughSeq}
            </span>
            <span className="ml-auto text-zinc-400">{formatSummaryTime(summary.createdAt)}</span>
          </>
        }
      >
        <p
          className="mt-2 max-h-48 overflow-y-auto text-xs leading-relaxed whitespace-pre-wrap text-zinc-600 dark:text-zinc-400"
          data-testid="summary-history-content"
        >
          {summary.content}
        </p>
      </Disclosure>
    </li>
  );
}
