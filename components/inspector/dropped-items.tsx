"use client";
// Items the pipeline left out of this payload, struck through, each with the reason its stage gave: the trace
// events that carry the removed items in `details.removedItems` (docs/pipeline.md#replayable-reasoning). They are
// not in the token bar or the budget, since the provider never received them.
import { formatCount } from "@/components/ui/format";
import type { RemovedItem } from "@/lib/context/replayable-reasoning";
import type { TraceEvent } from "@/lib/domain/types";
import { stageLabel } from "./stages";
import { TagChip } from "./tag-chip";

interface DroppedItem {
  item: RemovedItem;
  event: TraceEvent;
}

function isRemovedItem(value: unknown): value is RemovedItem {
  const item = value as Partial<RemovedItem> | null;
  return (
    typeof item === "object" &&
    item !== null &&
    typeof item.id === "string" &&
    typeof item.role === "string" &&
    typeof item.tag === "string" &&
    typeof item.preview === "string" &&
    typeof item.tokens === "number"
  );
}

/** Every item a trace event says it removed, in trace order. */
export function droppedItems(trace: readonly TraceEvent[]): DroppedItem[] {
  const dropped: DroppedItem[] = [];
  for (const event of trace) {
    const removed = event.details?.removedItems;
    if (!Array.isArray(removed)) continue;
    for (const item of removed) if (isRemovedItem(item)) dropped.push({ item, event });
  }
  return dropped;
}

export function DroppedItems({ trace }: { trace: readonly TraceEvent[] }) {
  const dropped = droppedItems(trace);
  if (dropped.length === 0) return null;
  return (
    <section className="mt-4" data-testid="dropped-items">
      <h3 className="section-title mb-2">Left out by the pipeline · not sent, not counted</h3>
      <ul className="space-y-2">
        {dropped.map(({ item, event }) => (
          <li
            key={`${event.stage}:${item.id}:${item.partial}`}
            className="rounded-lg border border-dashed border-zinc-300 bg-zinc-50 px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900/50"
            data-testid="dropped-item"
            data-item-id={item.id}
            data-tag={item.tag}
          >
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-[11px] text-zinc-500 line-through decoration-zinc-400 dark:text-zinc-400">
              <span className="font-mono font-semibold">{item.role}</span>
              <TagChip tag={item.tag} className="opacity-70" />
              {item.partial && <span>(part of the item)</span>}
              <span className="ml-auto tabular-nums" data-testid="dropped-item-tokens">
                {formatCount(item.tokens)} tokens
              </span>
            </div>
            <p
              className="mt-1 line-clamp-3 whitespace-pre-wrap break-words text-xs text-zinc-500 line-through dark:text-zinc-400"
              data-testid="dropped-item-preview"
            >
              {item.preview.length > 0 ? item.preview : "(text hidden by the provider)"}
            </p>
            <p className="mt-1 text-xs text-zinc-700 dark:text-zinc-300" data-testid="dropped-item-reason">
              <span className="font-medium">{stageLabel(event.stage)}:</span> {event.reason}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
