// Phase A's history window (docs/pipeline.md#history-window): a count-based window. With
// more than `history.maxItems` items, keep the trailing ones; widen the start until the window holds a user and
// an assistant message, but never beyond 4 × maxItems; keep a leading system anchor that fell outside; then strip
// tool calls and outputs left without their pair. Arrays at or under the cap pass through unchanged (the same
// array). Storage is never touched.

import type { ContextItem, ItemPart, TraceEvent } from "@/lib/domain/types";
import { elementAt } from "./indexing";
import { ownMessageId } from "./messages";
import type { HistoryItems, PhaseAContext } from "./phases";
import type { Stage, StageResult } from "./stage";
import { plural, traceEvent } from "./trace";

/** The minimum-exchange widening never takes the window beyond this multiple of maxItems. */
export const MAX_EXPANSION_MULTIPLE = 4;
/** A system anchor is looked for among this many items at the head of the history. */
export const ANCHOR_SCAN_LIMIT = 4;

/** A dialogue message (not a tool call, output or reasoning), as the minimum exchange counts them. */
function dialogueRole(item: ContextItem): "user" | "assistant" | null {
  if (item.tag !== "DIALOGUE_HISTORY") return null;
  return item.role === "user" || item.role === "assistant" ? item.role : null;
}

/** A system anchor: a system-role item, or a stored system message at the head of the conversation. */
export function isSystemAnchor(item: ContextItem): boolean {
  if (item.role === "system") return true;
  return item.sender?.type === "system" && ownMessageId(item) !== null;
}

/**
 * Drop tool calls without an output and outputs without a call (by tool call id), part by part; items left
 * with no parts go. Order is kept. Returns the same array when nothing is unpaired.
 */
export function stripUnresolvedToolParts(items: readonly ContextItem[]): {
  items: ContextItem[];
  strippedCallIds: string[];
  touchedItemIds: string[];
} {
  const callIds = new Set<string>();
  const resultIds = new Set<string>();
  for (const item of items) {
    for (const part of item.parts) {
      if (part.type === "tool-call") callIds.add(part.toolCallId);
      else if (part.type === "tool-result") resultIds.add(part.toolCallId);
    }
  }
  const unpaired = (part: ItemPart): part is Extract<ItemPart, { toolCallId: string }> =>
    (part.type === "tool-call" && !resultIds.has(part.toolCallId)) ||
    (part.type === "tool-result" && !callIds.has(part.toolCallId));
  let anyUnpaired = false;
  for (const id of callIds) if (!resultIds.has(id)) anyUnpaired = true;
  for (const id of resultIds) if (!callIds.has(id)) anyUnpaired = true;
  if (!anyUnpaired) return { items: items as ContextItem[], strippedCallIds: [], touchedItemIds: [] };

  const out: ContextItem[] = [];
  const stripped = new Set<string>();
  const touched: string[] = [];
  for (const item of items) {
    if (!item.parts.some(unpaired)) {
      out.push(item);
      continue;
    }
    touched.push(item.id);
    const parts: ItemPart[] = [];
    for (const part of item.parts) {
      if (unpaired(part)) stripped.add(part.toolCallId);
      else parts.push(part);
    }
    if (parts.length > 0) out.push({ ...item, parts, tokens: 0 });
  }
  return { items: out, strippedCallIds: [...stripped], touchedItemIds: touched };
}

const MEDIA_NOTICE_SUFFIX = ":media-notice";

/**
 * A window start that does not cut an assistant turn's omitted-images notice (the user item just before the turn,
 * `msg:<id>:media-notice`) off its turn: moved back onto the notice, or, when that would pass the expansion cap,
 * forward past the turn. Only the items at the boundary are looked at.
 */
function keepNoticeWithTurn(items: readonly ContextItem[], start: number, capStart: number): number {
  const before = items[start - 1];
  const first = items[start];
  if (start <= 0 || before === undefined || first === undefined) return start;
  if (!before.id.endsWith(MEDIA_NOTICE_SUFFIX) || before.id !== `${first.id}${MEDIA_NOTICE_SUFFIX}`)
    return start;
  return start - 1 >= capStart ? start - 1 : start + 1;
}

export function windowHistory(
  items: readonly ContextItem[],
  maxItems: number | null,
): StageResult<ContextItem[]> {
  const total = items.length;
  if (maxItems === null || total <= maxItems) return { value: items as ContextItem[], trace: [] };

  const trailingStart = total - maxItems;
  const widenedStart = minimumExchangeStart(items, trailingStart);
  const capStart = Math.max(0, total - MAX_EXPANSION_MULTIPLE * maxItems);
  const capped = widenedStart < capStart;
  const start = keepNoticeWithTurn(items, capped ? capStart : widenedStart, capStart);
  const anchorIndex = systemAnchorBefore(items, start);
  const anchor = items[anchorIndex];
  // Widening reached back to the start: everything stays.
  if (start === 0 || (start === 1 && anchorIndex === 0)) return { value: items as ContextItem[], trace: [] };
  const windowed = anchor === undefined ? items.slice(start) : [anchor, ...items.slice(start)];
  const stripped = stripUnresolvedToolParts(windowed);

  const widenedBy = trailingStart - start;
  let reason = `windowed ${total} → ${maxItems} items`;
  if (widenedBy > 0) reason += ` (expanded to ${total - start} for the minimum exchange)`;
  if (capped)
    reason += ` (expansion capped at ${MAX_EXPANSION_MULTIPLE} × ${maxItems}; the window may lack a user or assistant message)`;
  const trace: TraceEvent[] = [
    traceEvent("window", "windowed", reason, {
      counts: {
        before: total,
        after: stripped.items.length,
        maxItems,
        dropped: start - (anchor === undefined ? 0 : 1),
        widenedBy,
      },
      // The first and last dropped items, not all of them: a long history would make the trace as big as itself.
      details: {
        firstDroppedItemId: elementAt(items, anchorIndex === 0 ? 1 : 0).id,
        lastDroppedItemId: elementAt(items, start - 1).id,
        ...(capped ? { capped: true, uncappedStart: widenedStart } : {}),
      },
    }),
  ];
  if (anchor !== undefined) {
    trace.push(
      traceEvent("window", "kept-anchor", "kept the leading system item that fell outside the window", {
        itemIds: [anchor.id],
      }),
    );
  }
  if (stripped.strippedCallIds.length > 0) trace.push(strippedEvent(stripped));
  return { value: stripped.items, trace };
}

/**
 * Minimum exchange: the window must hold a user and an assistant message; its start moves back from the
 * trailing start until it does (or the history runs out).
 */
function minimumExchangeStart(items: readonly ContextItem[], trailingStart: number): number {
  let start = trailingStart;
  let hasUser = false;
  let hasAssistant = false;
  for (let i = start; i < items.length && !(hasUser && hasAssistant); i++) {
    const item = items[i];
    const role = item === undefined ? null : dialogueRole(item);
    if (role === "user") hasUser = true;
    else if (role === "assistant") hasAssistant = true;
  }
  for (let i = start - 1; i >= 0 && !(hasUser && hasAssistant); i--) {
    const item = items[i];
    const role = item === undefined ? null : dialogueRole(item);
    if (role === "user" && !hasUser) {
      hasUser = true;
      start = i;
    } else if (role === "assistant" && !hasAssistant) {
      hasAssistant = true;
      start = i;
    }
  }
  return start;
}

/** Head anchor: the first system item among the first few keeps its place when the window starts after it; -1: none. */
function systemAnchorBefore(items: readonly ContextItem[], start: number): number {
  const scanEnd = Math.min(start, ANCHOR_SCAN_LIMIT);
  return items.slice(0, scanEnd).findIndex(isSystemAnchor);
}

function strippedEvent(stripped: { strippedCallIds: string[]; touchedItemIds: string[] }): TraceEvent {
  return traceEvent(
    "window",
    "stripped-orphan-tool-parts",
    `dropped ${plural(stripped.strippedCallIds.length, "tool call or output", "tool calls or outputs")} left unpaired by the window`,
    {
      itemIds: stripped.touchedItemIds,
      details: { toolCallIds: stripped.strippedCallIds },
    },
  );
}

/** Phase A: at most `history.maxItems` history items, cut where no tool pair or anchor is split. */
export const windowStage: Stage<HistoryItems, HistoryItems, PhaseAContext> = {
  name: "window",
  run({ items, current }, { settings }) {
    const windowed = windowHistory(items, settings.history.maxItems);
    return { value: { items: windowed.value, current }, trace: windowed.trace };
  },
};
