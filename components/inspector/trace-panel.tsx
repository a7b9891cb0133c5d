"use client";
// The pipeline trace grouped by stage, in the order the stages reported. Hovering an event highlights the items it
// touched; clicking pins the highlight and scrolls to the first of them.
import { useState } from "react";
import { formatCount } from "@/components/ui/format";
import type { TraceEvent } from "@/lib/domain/types";
import { STAGES, stageLabel } from "./stages";

const EVENTS_SHOWN_PER_STAGE = 40;

/** Events grouped by stage, stages in the order they first reported (the order the pipeline ran them). */
function groupByStage(trace: TraceEvent[]) {
  const groups = new Map<string, { event: TraceEvent; index: number }[]>();
  trace.forEach((event, index) => {
    groups.set(event.stage, [...(groups.get(event.stage) ?? []), { event, index }]);
  });
  return [...groups];
}

/** Which items each event touched, and the event hovered or pinned to show them. */
export interface TraceHighlight {
  /** Per event (by index): the ids of the payload's items it touched. */
  touched: string[][];
  pinned: number | null;
  onHover: (index: number | null) => void;
  onPin: (index: number) => void;
}

export function TracePanel({ trace, highlight }: { trace: TraceEvent[]; highlight: TraceHighlight }) {
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const groups = groupByStage(trace);
  return (
    <section data-testid="trace" aria-label="Pipeline trace">
      <h3 className="section-title mb-2">
        Pipeline trace{" "}
        <span className="font-normal normal-case">
          · {trace.length} {trace.length === 1 ? "event" : "events"}
        </span>
      </h3>
      {trace.length === 0 && (
        <p
          className="rounded-lg bg-zinc-50 px-3 py-2 text-xs text-zinc-500 dark:bg-zinc-900 dark:text-zinc-400"
          data-testid="trace-empty"
        >
          Every stage kept everything: nothing was cut, moved or added.
        </p>
      )}
      <div className="space-y-3">
        {groups.map(([stage, events]) => {
          const phase = STAGES.find((entry) => entry.stage === stage)?.phase;
          const open = expanded.has(stage);
          const shown = open ? events : events.slice(0, EVENTS_SHOWN_PER_STAGE);
          return (
            <div key={stage} data-testid="trace-stage" data-stage={stage}>
              <p className="mb-1 flex items-center gap-1.5 text-[11px] font-semibold text-zinc-700 dark:text-zinc-300">
                {phase && (
                  <span className="rounded bg-zinc-100 px-1 font-mono text-[10px] font-medium text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400">
                    {phase}
                  </span>
                )}
                {stageLabel(stage)}
                <span className="font-normal text-zinc-500 dark:text-zinc-400">{events.length}</span>
              </p>
              <ul className="space-y-1">
                {shown.map(({ event, index }) => (
                  <li key={index}>
                    <TraceEventButton event={event} index={index} highlight={highlight} />
                  </li>
                ))}
              </ul>
              {events.length > EVENTS_SHOWN_PER_STAGE && (
                <button
                  type="button"
                  className="mt-1 text-[11px] font-medium text-indigo-600 hover:underline dark:text-indigo-400"
                  onClick={() =>
                    setExpanded((current) => {
                      const next = new Set(current);
                      if (open) next.delete(stage);
                      else next.add(stage);
                      return next;
                    })
                  }
                >
                  {open ? "Show fewer" : `Show all ${events.length}`}
                </button>
              )}
            </div>
          );
        })}
      </div>
    </section>
  );
}

/** One event: its action, reason and counts; hovering or focusing highlights its items, clicking pins them. */
function TraceEventButton({
  event,
  index,
  highlight: { touched: touchedByEvent, pinned: pinnedIndex, onHover, onPin },
}: {
  event: TraceEvent;
  index: number;
  highlight: TraceHighlight;
}) {
  const touched = touchedByEvent[index].length;
  const pinned = pinnedIndex === index;
  return (
    <button
      type="button"
      onMouseEnter={() => onHover(index)}
      onMouseLeave={() => onHover(null)}
      onFocus={() => onHover(index)}
      onBlur={() => onHover(null)}
      onClick={() => onPin(index)}
      aria-pressed={pinned}
      className={`block w-full rounded-lg border px-2 py-1.5 text-left transition-colors ${
        pinned
          ? "border-indigo-400 bg-indigo-50 dark:border-indigo-500/60 dark:bg-indigo-950/50"
          : event.level === "warning"
            ? "border-amber-200 bg-amber-50/60 hover:border-amber-300 dark:border-amber-900/60 dark:bg-amber-950/20"
            : "border-zinc-200 hover:border-zinc-300 hover:bg-zinc-50 dark:border-zinc-800 dark:hover:border-zinc-700 dark:hover:bg-zinc-900"
      }`}
      data-testid="trace-event"
      data-event-index={index}
      data-stage={event.stage}
      data-action={event.action}
      data-level={event.level ?? "info"}
      data-pinned={pinned || undefined}
    >
      <span className="flex items-center gap-1.5">
        <span
          className={`font-mono text-[11px] font-medium ${event.level === "warning" ? "text-amber-700 dark:text-amber-300" : "text-indigo-700 dark:text-indigo-300"}`}
        >
          {event.action}
        </span>
        {touched > 0 && (
          <span className="ml-auto shrink-0 text-[10px] text-zinc-500 dark:text-zinc-400">
            → {touched} {touched === 1 ? "item" : "items"}
          </span>
        )}
      </span>
      <span
        className="mt-0.5 block text-xs leading-4 text-zinc-700 dark:text-zinc-300"
        data-testid="trace-reason"
      >
        {event.reason}
      </span>
      {event.counts && Object.keys(event.counts).length > 0 && (
        <span className="mt-1 flex flex-wrap gap-1">
          {Object.entries(event.counts).map(([key, value]) => (
            <span
              key={key}
              className="rounded bg-zinc-100 px-1 font-mono text-[10px] text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400"
            >
              {key}={formatCount(value)}
            </span>
          ))}
        </span>
      )}
    </button>
  );
}
