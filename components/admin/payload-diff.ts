// What an edit changes in the next payload: items added, removed, changed (role or text) and moved, comparing the
// saved settings' preview with the edited one by item id (ids are stable across builds of the same inputs).

import type { PreviewItem } from "./admin-api";

export interface PayloadDiff {
  added: PreviewItem[];
  removed: PreviewItem[];
  changed: PreviewItem[];
  moved: PreviewItem[];
}

export function itemText(item: PreviewItem): string {
  return item.parts.map((part) => (part.type === "text" ? (part.text ?? "") : `[${part.type}]`)).join("");
}

/** Longest common subsequence of two id lists: the items that kept their relative order. */
function inOrder(before: string[], after: string[]): Set<string> {
  const lengths = Array.from({ length: before.length + 1 }, () =>
    new Array<number>(after.length + 1).fill(0),
  );
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      lengths[i][j] =
        before[i] === after[j] ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
    }
  }
  const kept = new Set<string>();
  let i = 0;
  let j = 0;
  while (i < before.length && j < after.length) {
    if (before[i] === after[j]) {
      kept.add(before[i]);
      i++;
      j++;
    } else if (lengths[i + 1][j] >= lengths[i][j + 1]) i++;
    else j++;
  }
  return kept;
}

export function diffPayloads(saved: PreviewItem[], edited: PreviewItem[]): PayloadDiff {
  const savedById = new Map(saved.map((item) => [item.id, item]));
  const editedIds = new Set(edited.map((item) => item.id));
  const common = edited.filter((item) => savedById.has(item.id));
  const kept = inOrder(
    saved.filter((item) => editedIds.has(item.id)).map((item) => item.id),
    common.map((item) => item.id),
  );
  return {
    added: edited.filter((item) => !savedById.has(item.id)),
    removed: saved.filter((item) => !editedIds.has(item.id)),
    changed: common.filter((item) => {
      const before = savedById.get(item.id) as PreviewItem;
      return before.role !== item.role || itemText(before) !== itemText(item);
    }),
    moved: common.filter((item) => !kept.has(item.id)),
  };
}
