// Message helpers shared by the stages and by the write-time token cache: what a stored message is made of (its
// text, its text pieces around tool calls, whether it has artifacts), who wrote it, and the id of the item it
// becomes. Depends on no stage, so any stage (and token-cache.ts, called on every write) can use it.

import type { ItemRole, ItemSender, ProviderMetadata, StoredMessage } from "@/lib/domain/types";

/**
 * One unit of history between the collapse and role-mapping stages: a stored message (or a collapsed run of
 * pure-text messages by one author), or a notice that stands in for messages (e.g. blocked users' turns).
 */
export type HistoryEntry =
  | { kind: "message"; messages: MessageRun }
  | { kind: "notice"; id: string; text: string; sourceMessageIds: string[]; sender: ItemSender };

/** The messages of one history entry: never empty (a single message, or a collapsed run of several). */
export type MessageRun = [StoredMessage, ...StoredMessage[]];

/** Pure text: at least one part, and every part is text. */
export function isPureText(message: StoredMessage): boolean {
  if (message.parts.length === 0) return false;
  // Text the provider tagged (a signature, an item id) goes back as it came, never merged with other text.
  for (const part of message.parts)
    if (part.type !== "text" || part.providerMetadata !== undefined) return false;
  return true;
}

/** Same author: same kind of author, same user or persona, and the same shown name. */
export function sameAuthor(a: StoredMessage, b: StoredMessage): boolean {
  return (
    a.authorType === b.authorType &&
    a.authorUserId === b.authorUserId &&
    a.authorPersonaId === b.authorPersonaId &&
    a.authorName === b.authorName
  );
}

/** A message's text parts joined by newlines ("" when it has none). */
export function messageText(message: Pick<StoredMessage, "parts">): string {
  let text = "";
  let first = true;
  for (const part of message.parts) {
    if (part.type !== "text") continue;
    text = first ? part.text : `${text}\n${part.text}`;
    first = false;
  }
  return text;
}

/** The id of the item a stored message becomes. Stable across builds. */
export function messageItemId(messageId: string): string {
  return `msg:${messageId}`;
}

const MESSAGE_ITEM_PREFIX = "msg:";

/**
 * The stored message an item was made from, when the item is exactly that message's own item (not a notice, a
 * collapsed run, a text piece or a tool item). Compares without building the id string: this runs per item.
 */
export function ownMessageId(item: { id: string; sourceMessageIds: readonly string[] }): string | null {
  const messageId = item.sourceMessageIds[0];
  if (messageId === undefined || item.sourceMessageIds.length !== 1) return null;
  const id = item.id;
  return id.length === messageId.length + MESSAGE_ITEM_PREFIX.length &&
    id.startsWith(MESSAGE_ITEM_PREFIX) &&
    id.endsWith(messageId)
    ? messageId
    : null;
}

export function roleFor(
  message: StoredMessage,
  personaId: string,
  impersonateUserId: string | null | undefined,
): ItemRole {
  if (impersonateUserId) {
    return message.authorType === "user" && message.authorUserId === impersonateUserId ? "assistant" : "user";
  }
  return message.authorType === "persona" && message.authorPersonaId === personaId ? "assistant" : "user";
}

/** A message's shape for replay: its text pieces and artifacts in the order they happened. */
export type LayoutEntry = { kind: "text"; text: string } | { kind: "artifact"; artifactId: string };

/**
 * Whether a text has anything to say: a blank (empty or whitespace-only) text counts as no text, so it is never
 * labelled and sent as a message with nothing in it ("Bob:  ").
 */
export function hasText(text: string): boolean {
  return /\S/.test(text);
}

/**
 * A message's text split at its artifact parts: the pieces of text written around tool calls, with the artifacts
 * between them. Consecutive text parts join with a newline; media parts do not split; blank pieces are left out.
 */
export function messageLayout(message: StoredMessage): LayoutEntry[] {
  const layout: LayoutEntry[] = [];
  let current: string | null = null;
  for (const part of message.parts) {
    if (part.type === "text") current = current === null ? part.text : `${current}\n${part.text}`;
    else if (part.type === "artifact") {
      if (current !== null && hasText(current)) layout.push({ kind: "text", text: current });
      current = null;
      layout.push({ kind: "artifact", artifactId: part.artifactId });
    }
  }
  if (current !== null && hasText(current)) layout.push({ kind: "text", text: current });
  return layout;
}

/** The text pieces of messageLayout, without building the layout. */
export function textSegments(message: Pick<StoredMessage, "parts">): string[] {
  const segments: string[] = [];
  let current: string | null = null;
  for (const part of message.parts) {
    if (part.type === "text") current = current === null ? part.text : `${current}\n${part.text}`;
    else if (part.type === "artifact") {
      if (current !== null && hasText(current)) segments.push(current);
      current = null;
    }
  }
  if (current !== null && hasText(current)) segments.push(current);
  return segments;
}

/**
 * The provider metadata of each text piece (parallel to textSegments): what the piece's text parts carried, merged
 * per provider key (a later part's fields win); undefined for a piece without any.
 */
export function textSegmentMetadata(message: Pick<StoredMessage, "parts">): (ProviderMetadata | undefined)[] {
  const metadata: (ProviderMetadata | undefined)[] = [];
  let current: string | null = null;
  let merged: ProviderMetadata | undefined;
  const close = () => {
    if (current !== null && hasText(current)) metadata.push(merged);
    current = null;
    merged = undefined;
  };
  for (const part of message.parts) {
    if (part.type === "text") {
      current = current === null ? part.text : `${current}\n${part.text}`;
      if (part.providerMetadata !== undefined) merged = mergeProviderMetadata(merged, part.providerMetadata);
    } else if (part.type === "artifact") close();
  }
  close();
  return metadata;
}

/** Provider metadata merged per provider key: `next`'s fields win. */
export function mergeProviderMetadata(
  base: ProviderMetadata | undefined,
  next: ProviderMetadata | undefined,
): ProviderMetadata | undefined {
  if (next === undefined) return base;
  if (base === undefined) return next;
  const merged: ProviderMetadata = { ...base };
  for (const [provider, fields] of Object.entries(next))
    merged[provider] = { ...merged[provider], ...fields };
  return merged;
}

export function hasArtifactParts(message: Pick<StoredMessage, "parts">): boolean {
  for (const part of message.parts) if (part.type === "artifact") return true;
  return false;
}
