// Comparing a payload with the previous turn's (SPEC §5.4 prefix stability, peers §6 "cacheable prefix"): which
// items were added, removed, changed or moved (by item id), and how many leading bytes of the request body are
// identical, since providers cache exactly that prefix.
import type { ContextItem } from "@/lib/context/types";

export type ItemChange = "added" | "removed" | "changed" | "moved" | "same";

export interface ItemDiffEntry {
  change: ItemChange;
  item: ContextItem;
  /** The previous version, for changed and moved items. */
  previous?: ContextItem;
  /** What changed, in words: "tag CURRENT_INPUT → DIALOGUE_HISTORY", "text". */
  details: string[];
}

export interface ItemDiff {
  entries: ItemDiffEntry[];
  counts: Record<ItemChange, number>;
}

function describeChanges(previous: ContextItem, current: ContextItem): string[] {
  const details: string[] = [];
  if (previous.role !== current.role) details.push(`role ${previous.role} → ${current.role}`);
  if (previous.tag !== current.tag) details.push(`tag ${previous.tag} → ${current.tag}`);
  if (JSON.stringify(previous.parts) !== JSON.stringify(current.parts)) details.push("content");
  return details;
}

/**
 * Items that kept their relative order are the longest increasing run of previous positions (patience sorting,
 * O(n log n)); the other common items moved.
 */
function stableCommonIds(previousIndex: Map<string, number>, current: ContextItem[]): Set<string> {
  const sequence = current
    .filter((item) => previousIndex.has(item.id))
    .map((item) => ({ id: item.id, at: previousIndex.get(item.id) as number }));
  const tails: number[] = [];
  const parent = new Array<number>(sequence.length).fill(-1);
  for (let index = 0; index < sequence.length; index += 1) {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (sequence[tails[middle]].at < sequence[index].at) low = middle + 1;
      else high = middle;
    }
    if (low > 0) parent[index] = tails[low - 1];
    tails[low] = index;
  }
  const stable = new Set<string>();
  for (let index = tails.at(-1) ?? -1; index !== -1; index = parent[index]) stable.add(sequence[index].id);
  return stable;
}

export function diffItems(previous: ContextItem[], current: ContextItem[]): ItemDiff {
  const previousIndex = new Map(previous.map((item, index) => [item.id, index]));
  const currentIds = new Set(current.map((item) => item.id));
  const stable = stableCommonIds(previousIndex, current);
  const counts: Record<ItemChange, number> = { added: 0, removed: 0, changed: 0, moved: 0, same: 0 };
  const entries: ItemDiffEntry[] = [];
  const emit = (entry: ItemDiffEntry) => {
    counts[entry.change] += 1;
    entries.push(entry);
  };

  // Removed items are shown where they used to be, between the current items around them.
  let previousCursor = 0;
  const emitRemovedBefore = (end: number) => {
    for (; previousCursor < end; previousCursor += 1) {
      const old = previous[previousCursor];
      if (!currentIds.has(old.id)) emit({ change: "removed", item: old, details: [] });
    }
  };

  for (const item of current) {
    const at = previousIndex.get(item.id);
    if (at === undefined) {
      emit({ change: "added", item, details: [] });
      continue;
    }
    if (at >= previousCursor) {
      emitRemovedBefore(at);
      previousCursor = at + 1;
    }
    const old = previous[at];
    const details = describeChanges(old, item);
    const moved = !stable.has(item.id);
    if (moved) details.push("position");
    const change: ItemChange = details.some((detail) => detail !== "position")
      ? "changed"
      : moved
        ? "moved"
        : "same";
    emit({ change, item, previous: old, details });
  }
  emitRemovedBefore(previous.length);
  return { entries, counts };
}

export interface PrefixStability {
  /** Leading bytes identical in both bodies (UTF-8). */
  stableBytes: number;
  previousBytes: number;
  currentBytes: number;
  /** stableBytes as a share of the previous body: how much of it the provider can serve from its prefix cache. */
  percent: number;
  /** The character offset in the current body where they first differ, or null when one is a prefix of the other. */
  divergeAt: number | null;
}

const encoder = new TextEncoder();

export function prefixStability(previousBody: string, currentBody: string): PrefixStability {
  const previousBytes = encoder.encode(previousBody);
  const currentBytes = encoder.encode(currentBody);
  const shorter = Math.min(previousBytes.length, currentBytes.length);
  let stableBytes = 0;
  while (stableBytes < shorter && previousBytes[stableBytes] === currentBytes[stableBytes]) stableBytes += 1;

  let divergeAt: number | null = null;
  const shorterChars = Math.min(previousBody.length, currentBody.length);
  let chars = 0;
  while (chars < shorterChars && previousBody.charCodeAt(chars) === currentBody.charCodeAt(chars)) chars += 1;
  if (chars < previousBody.length && chars < currentBody.length) divergeAt = chars;

  return {
    stableBytes,
    previousBytes: previousBytes.length,
    currentBytes: currentBytes.length,
    percent: previousBytes.length === 0 ? 0 : (stableBytes / previousBytes.length) * 100,
    divergeAt,
  };
}

/** "prefix stable for 1 234 of 1 300 bytes (94.9%)" — the figure shown and tested. */
export function describePrefixStability(stability: PrefixStability): string {
  const percent = stability.percent === 100 ? "100" : stability.percent.toFixed(1);
  return `Prefix stable for ${stability.stableBytes.toLocaleString("en-US")} of ${stability.previousBytes.toLocaleString("en-US")} bytes (${percent}%)`;
}
