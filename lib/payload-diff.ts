// Comparing two payloads item by item (by item id), for the inspector's diff against the previous turn and the
// admin previews' "versus saved": which items were added, removed, changed or moved, and how many leading bytes
// of two request bodies are identical (providers cache exactly that prefix). Pure and client-safe.
//
// Values are compared canonically: object key order never matters (stored parts come back from the database as
// {"text","type"}, freshly built ones are {"type","text"}), and media parts are compared by what they refer to,
// not by the transport form of their bytes.

export type ItemChange = "added" | "removed" | "changed" | "moved" | "same";

/** The shape both the inspector's ContextItem and the admin preview's items have. */
export interface DiffableItem {
  id: string;
  role: string;
  tag: string;
  parts: readonly unknown[];
}

export interface ItemDiffEntry<T extends DiffableItem = DiffableItem> {
  change: ItemChange;
  item: T;
  /** The previous version, for items present in both. */
  previous?: T;
  /** What changed, in words: "tag CURRENT_INPUT → DIALOGUE_HISTORY", "content", "media", "position". */
  details: string[];
}

export interface ItemDiff<T extends DiffableItem = DiffableItem> {
  entries: ItemDiffEntry<T>[];
  counts: Record<ItemChange, number>;
}

/** JSON with object keys sorted at every depth; undefined members are left out as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((entry) => canonicalJson(entry ?? null)).join(",")}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${members.join(",")}}`;
}

const MEDIA_TYPES = new Set(["image", "video", "audio", "file"]);

function isMediaPart(part: unknown): part is Record<string, unknown> {
  if (!part || typeof part !== "object") return false;
  const type = (part as { type?: unknown }).type;
  return type === "media" || (typeof type === "string" && MEDIA_TYPES.has(type));
}

/**
 * A media part's identity: the attachment and its type. Its url (a data URL, an elided one, a short-lived link)
 * and handle are how the bytes travel, not what they are.
 */
function mediaIdentity(part: Record<string, unknown>): unknown {
  if (part.type === "media") return part;
  return { type: part.type, mediaType: part.mediaType, attachmentId: part.attachmentId ?? part.url };
}

function describeChanges(previous: DiffableItem, current: DiffableItem): string[] {
  const details: string[] = [];
  if (previous.role !== current.role) details.push(`role ${previous.role} → ${current.role}`);
  if (previous.tag !== current.tag) details.push(`tag ${previous.tag} → ${current.tag}`);
  const content = (item: DiffableItem) => canonicalJson(item.parts.filter((part) => !isMediaPart(part)));
  const media = (item: DiffableItem) =>
    canonicalJson(item.parts.filter(isMediaPart).map((part) => mediaIdentity(part)));
  if (content(previous) !== content(current)) details.push("content");
  if (media(previous) !== media(current)) details.push("media");
  return details;
}

/**
 * Items that kept their relative order are the longest increasing run of previous positions (patience sorting,
 * O(n log n)); the other common items moved.
 */
function stableCommonIds(previousIndex: Map<string, number>, current: readonly DiffableItem[]): Set<string> {
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

/** The current items in order, with removed items shown where they used to be. */
export function diffItems<T extends DiffableItem>(
  previous: readonly T[],
  current: readonly T[],
): ItemDiff<T> {
  const previousIndex = new Map(previous.map((item, index) => [item.id, index]));
  const currentIds = new Set(current.map((item) => item.id));
  const stable = stableCommonIds(previousIndex, current);
  const counts: Record<ItemChange, number> = { added: 0, removed: 0, changed: 0, moved: 0, same: 0 };
  const entries: ItemDiffEntry<T>[] = [];
  const emit = (entry: ItemDiffEntry<T>) => {
    counts[entry.change] += 1;
    entries.push(entry);
  };

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

/** An item's text parts joined, other parts as "[type]": for short listings. */
export function itemText(item: DiffableItem): string {
  return item.parts
    .map((part) => {
      const { type, text } = (part ?? {}) as { type?: unknown; text?: unknown };
      return type === "text" && typeof text === "string" ? text : `[${String(type)}]`;
    })
    .join("");
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

/** "Prefix stable for 1,234 of 1,300 bytes (94.9%)": the figure shown and tested. */
export function describePrefixStability(stability: PrefixStability): string {
  const percent = stability.percent === 100 ? "100" : stability.percent.toFixed(1);
  return `Prefix stable for ${stability.stableBytes.toLocaleString("en-US")} of ${stability.previousBytes.toLocaleString("en-US")} bytes (${percent}%)`;
}
