"use client";
// The turn's model calls as a waterfall (queued → first byte → first token → done), one row per attempt on one
// time scale, as trace viewers draw them: the gaps are the waits between retries. Clicking a row opens it.
import { formatMs } from "@/components/ui/format";
import { type TimedAttempt, turnTimeline } from "@/lib/turn-timeline";

const BAR_STYLE: Record<string, string> = {
  ok: "bg-emerald-500/70",
  error: "bg-red-500/70",
  stopped: "bg-zinc-400/80",
};

export function TurnTimeline({
  attempts,
  selectedId,
  onSelect,
}: {
  attempts: readonly TimedAttempt[];
  selectedId: string;
  onSelect: (id: string) => void;
}) {
  const timeline = turnTimeline(attempts);
  if (timeline.rows.length === 0) return null;
  return (
    <figure className="space-y-1 text-[11px]" data-testid="turn-timeline" data-total-ms={timeline.totalMs}>
      <figcaption className="flex justify-between text-zinc-600 dark:text-zinc-300">
        <span>Timeline</span>
        <span className="font-mono tabular-nums">{formatMs(timeline.totalMs)}</span>
      </figcaption>
      <ol className="space-y-1">
        {timeline.rows.map((row) => (
          <li key={row.id}>
            <button
              type="button"
              onClick={() => onSelect(row.id)}
              aria-pressed={row.id === selectedId}
              aria-label={`${row.label}, ${row.status}: queued at ${formatMs(row.startMs)}, done at ${formatMs(row.endMs)}`}
              title={`queued ${new Date(row.queuedAt).toLocaleTimeString()} (+${formatMs(row.startMs)}) · first byte ${formatMs(row.firstByteMs)} · first token ${formatMs(row.firstTokenMs)} · done +${formatMs(row.endMs)}`}
              className={`block w-full rounded px-1 py-0.5 text-left hover:bg-zinc-50 dark:hover:bg-zinc-900 ${row.id === selectedId ? "ring-2 ring-indigo-500" : ""}`}
              data-testid="timeline-row"
              data-status={row.status}
              data-start-ms={Math.round(row.startMs)}
              data-end-ms={Math.round(row.endMs)}
            >
              {/* The label sits above its bar, never on it: text over a coloured bar fails contrast in one theme. */}
              <span className="block font-mono text-zinc-700 dark:text-zinc-200">{row.label}</span>
              <span className="relative mt-0.5 block h-2 rounded bg-zinc-100 dark:bg-zinc-800">
                <span
                  className={`absolute inset-y-0 rounded ${BAR_STYLE[row.status] ?? "bg-indigo-500/70"}`}
                  style={{ left: `${row.startPercent}%`, width: `${row.widthPercent}%` }}
                />
                <span
                  className="absolute -inset-y-0.5 w-0.5 bg-amber-600 dark:bg-amber-300"
                  style={{ left: `${row.queuedPercent}%` }}
                  title={`queued ${row.queuedAt}`}
                  data-testid="timeline-queued"
                  data-queued-at={row.queuedAt}
                />
                {row.firstBytePercent !== null && (
                  <span
                    className="absolute inset-y-0 w-0.5 bg-zinc-700 dark:bg-zinc-200"
                    style={{ left: `${row.firstBytePercent}%` }}
                    data-testid="timeline-first-byte"
                  />
                )}
                {row.firstTokenPercent !== null && (
                  <span
                    className="absolute inset-y-0 w-0.5 bg-indigo-700 dark:bg-indigo-300"
                    style={{ left: `${row.firstTokenPercent}%` }}
                    data-testid="timeline-first-token"
                  />
                )}
              </span>
            </button>
          </li>
        ))}
      </ol>
    </figure>
  );
}
