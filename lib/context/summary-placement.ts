// Phase A's summary placement (docs/pipeline.md#summary-placement): the active summary is a user-role item
// tagged SUMMARY, right after the system items and before the preserved turns, with a fixed marker text.
// Its position comes from `coversThroughSeq` only, never from a timestamp (a summary row sorted by created_at
// would land after the kept turns it was written after, on a reload). Loaded messages the summary already covers (seq ≤
// coversThroughSeq, or marked summarizedBy) are dropped before any other stage, so nothing is seen twice.

import type { ContextItem, StoredMessage, StoredSummary } from "@/lib/domain/types";
import type { HistoryItems, PhaseAContext } from "./phases";
import type { Stage, StageResult } from "./stage";
import { plural, traceEvent, traceWarning } from "./trace";

export function summaryItemId(summary: StoredSummary): string {
  return `summary:${summary.id}`;
}

/** "2026-02-01 09:30" (UTC), the date format of the marker text. */
export function formatSummaryDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toISOString().slice(0, 16).replace("T", " ");
}

export const SUMMARY_FOCUS_LINE =
  "Focus on the most recent messages below for the user's current intent. This summary provides background context only.";

/** `[CONVERSATION SUMMARY - date] (N messages condensed)`, the summary, then the focus line. */
export function summaryMarkerText(
  summary: Pick<StoredSummary, "content" | "createdAt" | "messageCount">,
): string {
  const condensed = summary.messageCount > 0 ? ` (${plural(summary.messageCount, "message")} condensed)` : "";
  return `[CONVERSATION SUMMARY - ${formatSummaryDate(summary.createdAt)}]${condensed}\n\n${summary.content.trim()}\n\n${SUMMARY_FOCUS_LINE}`;
}

/** Drop loaded messages the summary covers. Returns the same array when there are none (the usual case). */
export function dropCoveredMessages(
  messages: readonly StoredMessage[],
  summary: StoredSummary | null,
): StageResult<StoredMessage[]> {
  const covered = (message: StoredMessage) =>
    message.summarizedBy !== null || (summary !== null && message.seq <= summary.coversThroughSeq);
  let any = false;
  for (const message of messages) {
    if (covered(message)) {
      any = true;
      break;
    }
  }
  if (!any) return { value: messages as StoredMessage[], trace: [] };
  const kept: StoredMessage[] = [];
  const dropped: string[] = [];
  for (const message of messages) {
    if (covered(message)) dropped.push(message.id);
    else kept.push(message);
  }
  return {
    value: kept,
    trace: [
      traceWarning(
        "summary",
        "dropped-covered",
        `${plural(dropped.length, "loaded message")} already covered by the summary left out`,
        {
          messageIds: dropped,
          counts: { messages: dropped.length },
        },
      ),
    ],
  };
}

/** Insert the summary item after the leading system items. */
export function placeSummary(
  items: readonly ContextItem[],
  summary: StoredSummary | null,
): StageResult<ContextItem[]> {
  if (summary === null || summary.content.trim() === "") return { value: items as ContextItem[], trace: [] };
  let insertAt = 0;
  while (items[insertAt]?.role === "system") insertAt++;
  const item: ContextItem = {
    id: summaryItemId(summary),
    role: "user",
    tag: "SUMMARY",
    parts: [{ type: "text", text: summaryMarkerText(summary) }],
    sourceMessageIds: [],
    tokens: 0,
  };
  return {
    value: items.slice(0, insertAt).concat([item], items.slice(insertAt)),
    trace: [
      traceEvent(
        "summary",
        "placed-summary",
        `summary covers messages through #${summary.coversThroughSeq} (${plural(summary.messageCount, "message")} condensed)`,
        {
          itemIds: [item.id],
          counts: { coversThroughSeq: summary.coversThroughSeq, messageCount: summary.messageCount },
        },
      ),
    ],
  };
}

/** Phase A: the summary of older turns right after the system items. */
export const summaryStage: Stage<HistoryItems, HistoryItems, PhaseAContext> = {
  name: "summary",
  run({ items, current }, { input }) {
    const summarised = placeSummary(items, input.summary);
    return { value: { items: summarised.value, current }, trace: summarised.trace };
  },
};
