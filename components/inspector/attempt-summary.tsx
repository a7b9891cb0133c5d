"use client";
// The attempt tabs of one turn, and the chosen attempt's model, status, error and timings.
import type { ReactNode } from "react";
import { formatMs } from "@/components/ui/format";
import { TabPanel, Tabs } from "@/components/ui/tabs";
import { CostLabel, CostToday } from "./cost-label";
import type { AttemptSummaryView, AttemptView } from "./types";

const STATUS_STYLE: Record<AttemptView["status"], string> = {
  ok: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  error: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  stopped: "bg-zinc-200 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
};

const STATUS_DOT: Record<AttemptView["status"], string> = {
  ok: "bg-emerald-500",
  error: "bg-red-500",
  stopped: "bg-zinc-400",
};

/**
 * The turn's attempts as tabs, then `children`: what shows the selected attempt. That is the tabs' panel while the
 * selected call is one of the turn's attempts, and a plain block when it is another call (a title, a summary).
 */
export function AttemptTabs({
  attempts,
  selectedId,
  onSelect,
  className,
  children,
}: {
  attempts: AttemptSummaryView[];
  selectedId: string;
  onSelect: (id: string) => void;
  className?: string;
  children?: ReactNode;
}) {
  const isAttempt = attempts.some((attempt) => attempt.id === selectedId);
  // Tabs wrap rather than scroll: a turn with many retries must never hide the successful attempt.
  return (
    <Tabs
      groupClassName={className}
      label="Attempts"
      variant="pill"
      wrap
      className="gap-1.5"
      selected={selectedId}
      onSelect={onSelect}
      tabs={attempts.map((attempt) => ({
        id: attempt.id,
        testId: "attempt-tab",
        attributes: { "data-status": attempt.status, "data-attempt-number": attempt.attemptNumber },
        label: (
          <>
            <span
              className={`size-1.5 shrink-0 rounded-full ${STATUS_DOT[attempt.status]}`}
              aria-hidden="true"
            />
            <span className="font-medium">#{attempt.attemptNumber}</span>
            {attempt.stepNumber > 0 && (
              <span className="text-zinc-600 dark:text-zinc-400">step {attempt.stepNumber}</span>
            )}
            <span className="max-w-40 truncate font-mono text-[11px] text-zinc-600 dark:text-zinc-400">
              {attempt.modelId}
            </span>
            <span className="font-mono text-[11px]" data-testid="attempt-tab-status">
              {attempt.status}
              {attempt.error?.status ? ` ${attempt.error.status}` : ""}
            </span>
          </>
        ),
      }))}
    >
      {isAttempt ? (
        <TabPanel value={selectedId} className={className}>
          {children}
        </TabPanel>
      ) : (
        <div className={className}>{children}</div>
      )}
    </Tabs>
  );
}

export function AttemptSummary({ attempt }: { attempt: AttemptView }) {
  const timings = [
    { label: "First byte", value: attempt.timings.firstByteMs, testId: "timing-first-byte" },
    { label: "First token", value: attempt.timings.firstTokenMs, testId: "timing-first-token" },
    { label: "Done", value: attempt.timings.doneMs, testId: "timing-done" },
  ];
  return (
    <div className="space-y-2" data-testid="attempt-summary" data-status={attempt.status}>
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className={`chip ${STATUS_STYLE[attempt.status]}`} data-testid="attempt-status">
          {attempt.status}
        </span>
        {attempt.kind !== "reply" && (
          <span
            className="chip bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300"
            data-testid="attempt-kind"
          >
            {attempt.kind.replaceAll("_", " ")} call
          </span>
        )}
        <span className="font-mono text-zinc-700 dark:text-zinc-300" data-testid="attempt-model">
          {attempt.modelId}
        </span>
        {attempt.provider && <span className="text-zinc-500 dark:text-zinc-400">via {attempt.provider}</span>}
        {attempt.response?.finishReason && (
          <span className="text-zinc-500 dark:text-zinc-400">· finish: {attempt.response.finishReason}</span>
        )}
        <span className="text-zinc-600 dark:text-zinc-300">
          · <CostLabel cost={attempt.cost} testId="attempt-cost" />
          {attempt.costToday && <CostToday cost={attempt.costToday} />}
        </span>
        <span
          className="ml-auto text-[11px] text-zinc-500 dark:text-zinc-400"
          title={attempt.timings.queuedAt}
        >
          settings v{attempt.settingsVersion} · {new Date(attempt.timings.queuedAt).toLocaleTimeString()}
        </span>
      </div>
      {attempt.error && (
        <p
          className="rounded-lg border border-red-200 bg-red-50 px-2.5 py-1.5 text-xs break-words text-red-800 dark:border-red-900/60 dark:bg-red-950/30 dark:text-red-200"
          data-testid="attempt-error"
        >
          <span className="font-mono font-semibold">{attempt.error.code}</span> {attempt.error.message}
        </p>
      )}
      {attempt.privateMemoryRedaction && (
        <p
          className="rounded-lg border border-amber-200 bg-amber-50 px-2.5 py-1.5 text-xs text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/30 dark:text-amber-200"
          data-testid="private-memory-redaction"
        >
          {attempt.privateMemoryRedaction.notice}
        </p>
      )}
      <dl className="grid grid-cols-3 gap-1.5 text-xs" data-testid="attempt-timings">
        {timings.map((timing) => (
          <div key={timing.label} className="rounded-lg bg-zinc-50 px-2 py-1.5 dark:bg-zinc-900">
            <dt className="text-[11px] text-zinc-500 dark:text-zinc-400">{timing.label}</dt>
            <dd className="font-mono font-medium tabular-nums" data-testid={timing.testId}>
              {formatMs(timing.value)}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
