// What the budget never drops, in one place (docs/pipeline.md#budget). Strict normalisation runs before the
// budget and keeps these apart from droppable items, so merging turns for a strict model never makes dialogue
// undroppable.

import { type ContextItem, type ItemTag, SYSTEM_ITEM_TAGS } from "@/lib/domain/types";

/** The id of a strict model's inserted leading user turn (strict normalisation). The budget never drops it. */
export const CONVERSATION_START_ID = "conversation-start";

const SYSTEM_TAGS: ReadonlySet<ItemTag> = new Set<ItemTag>(SYSTEM_ITEM_TAGS);

/** System items and system text sent as a user turn (models without a system role). */
export function isSystemItem(item: ContextItem): boolean {
  return item.role === "system" || SYSTEM_TAGS.has(item.tag);
}

/**
 * Never dropped: system items, the summary, the current input, context notes (configured instructions), and a
 * strict model's conversation-start turn (dropping it only makes realignment put it back, over budget).
 */
export function isPinned(item: ContextItem): boolean {
  return (
    isSystemItem(item) ||
    item.tag === "SUMMARY" ||
    item.tag === "CURRENT_INPUT" ||
    item.tag === "CONTEXT_NOTE" ||
    item.id === CONVERSATION_START_ID
  );
}
