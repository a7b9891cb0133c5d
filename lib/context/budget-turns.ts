// The turns of a payload as the budget drops them (docs/pipeline.md#budget): where each turn starts, which turn
// holds the current input, and which items are never dropped.

import type { ContextItem } from "@/lib/domain/types";
import { isPinned } from "./pinned";

function sharesSource(a: ContextItem, b: ContextItem): boolean {
  const ids = a.sourceMessageIds;
  const others = b.sourceMessageIds;
  // Items carved from one message often share the very array.
  if (ids === others) return ids.length > 0;
  for (const id of ids) for (const other of others) if (id === other) return true;
  return false;
}

export interface TurnScan {
  /** Turn starts, counted as in artifact replay: see below. Index 0 opens the leading "turn 0". */
  starts: number[];
  /** The turn holding the last current input, or -1. */
  currentTurn: number;
  /** 1 for items never dropped (isPinned), computed once. */
  pinned: Uint8Array;
}

/**
 * One pass over the items. Turn starts, counted as in artifact replay: a dialogue user item after a non-user item
 * opens a turn (consecutive user items share one). An item carved from its neighbour (relocated media, a media
 * notice) shares its source message and counts as that neighbour. Pinned user items (summary, notes, system text)
 * sit inside turns; the current input always opens its own, so older unanswered messages stay droppable. Tool
 * items follow their call, so a turn keeps its tool pairs.
 */
export function scanTurns(items: readonly ContextItem[]): TurnScan {
  const starts = [0];
  const pinned = new Uint8Array(items.length);
  let currentTurn = -1;
  let previousCountsAsUser = false;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    if (item === undefined) continue;
    const isPinnedItem = isPinned(item);
    if (isPinnedItem) pinned[index] = 1;
    if (item.role !== "user") {
      // A current input that is not a user item (never in practice) still marks the turn it sits in.
      if (item.tag === "CURRENT_INPUT") currentTurn = starts.length - 1;
      previousCountsAsUser = false;
      continue;
    }
    if (item.tag === "CURRENT_INPUT") {
      if (index > 0) starts.push(index);
      currentTurn = starts.length - 1;
      previousCountsAsUser = true;
      continue;
    }
    if (isPinnedItem) {
      previousCountsAsUser = false;
      continue;
    }
    // Carved from the previous item (relocated media): it belongs to that item's turn and changes nothing.
    const previous = index > 0 ? items[index - 1] : undefined;
    if (previous !== undefined && sharesSource(previous, item)) continue;
    if (previous !== undefined && !previousCountsAsUser) starts.push(index);
    previousCountsAsUser = true;
  }
  return { starts, currentTurn, pinned };
}

/** Where a turn's items start (turns are numbered from 0 to starts.length − 1). */
export function turnStart(scan: TurnScan, turn: number): number {
  return scan.starts[turn] ?? 0;
}

/** Where a turn's items end: the next turn's start, or the end of the items for the last turn. */
export function turnEnd(scan: TurnScan, turn: number, size: number): number {
  return scan.starts[turn + 1] ?? size;
}
