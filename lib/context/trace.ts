// Trace events: every stage reports what it changed, as plain data the inspector shows beside the items.
// A stage that keeps everything reports nothing, so an empty trace means "nothing was cut, moved or added".

import type { StageName, TraceEvent } from "@/lib/domain/types";

/** The optional fields of a trace event; undefined fields are left out so events stay deep-equal across builds. */
export type TraceFields = Omit<TraceEvent, "stage" | "action" | "reason">;

export function traceEvent(
  stage: StageName,
  action: string,
  reason: string,
  fields: TraceFields = {},
): TraceEvent {
  const event: TraceEvent = { stage, action, reason };
  if (fields.level !== undefined) event.level = fields.level;
  if (fields.itemIds !== undefined) event.itemIds = fields.itemIds;
  if (fields.messageIds !== undefined) event.messageIds = fields.messageIds;
  if (fields.counts !== undefined) event.counts = fields.counts;
  if (fields.details !== undefined) event.details = fields.details;
  return event;
}

/** An event about a list of items, with their count (`counts.items`). */
export function itemsEvent(stage: StageName, action: string, reason: string, itemIds: string[]): TraceEvent {
  return traceEvent(stage, action, reason, { itemIds, counts: { items: itemIds.length } });
}

/** A warning: something expected was missing or broken, and the build went on without it. */
export function traceWarning(
  stage: StageName,
  action: string,
  reason: string,
  fields: TraceFields = {},
): TraceEvent {
  return traceEvent(stage, action, reason, { ...fields, level: "warning" });
}

/** "1 image" / "3 images": counts in trace reasons and notices read naturally. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
