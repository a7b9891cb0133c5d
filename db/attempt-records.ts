// The JSON an attempt row keeps about what it sent and what it cost: each exact request with its wire map, the
// private memories it used, and the provider's usage. Types only: the columns that hold them are in schema.ts.

export interface PrivateMemoryUse {
  memoryId: string;
  ownerId: string;
  /** The text as it was sent, so a later edit or deletion of the memory never un-redacts it. */
  content: string;
}

export interface RecordedRequest {
  url: string;
  /** The exact body as the provider received it, with base64 media elided to {mime, bytes, sha256}. */
  body: string;
  status: number | null;
  /** Elided media, keyed by sha256, so the full body can be rebuilt from attachments on demand. */
  elidedMedia: { sha256: string; mime: string; bytes: number }[];
  /** Where each item of this request sits in its body; absent on attempts recorded before it was kept. */
  wire?: RecordedWireMap;
}

/** Where one item sits in a request body (docs/features.md#wire-reconciliation). */
export interface WireAddress {
  /** JSON Pointers into the recorded body, in body order; empty when the item was not sent. */
  wirePaths: string[];
  /** Another item shares one of these elements (several items written into one wire element). */
  merged?: true;
  /** Set when no element carries the item: why it is missing. */
  dropped?: { reason: string };
  /** Parts of a sent item that are not in the body (a media part the adapter left out), by part index. */
  droppedParts?: { part: number; reason: string }[];
}

/** A body element that no item explains (something the adapter added, or a bug). */
export interface UnclaimedElement {
  pointer: string;
  what: string;
}

/** What a request's body carries, item by item. */
export interface RecordedWireMap {
  /**
   * One per item this request carried, in order: the attempt's items, then the items the tool loop added before
   * this request and the earlier ones (`addedItems`).
   */
  addresses: WireAddress[];
  /** Body elements no item explains. */
  unclaimed: UnclaimedElement[];
  /** The provider adapter's warnings for this request (the AI SDK's call warnings). */
  warnings: string[];
  /** In a tool loop: the items the previous step added (its reply and tool results), sent from this request on. */
  addedItems: unknown[];
}

/**
 * An attempt's token usage, as the provider reported it (the AI SDK's, normalised across providers). A type, not
 * an interface, so it stays assignable to a record of numbers (the export's view of it).
 */
export type AttemptUsage = {
  /** Summed over the attempt's tool steps (what the attempt cost). */
  inputTokens?: number;
  outputTokens?: number;
  /** Input read from the provider's prompt cache (part of inputTokens). */
  cachedInputTokens?: number;
  /** Input written to the provider's prompt cache (part of inputTokens; Anthropic bills it above the input rate). */
  cacheWriteTokens?: number;
  /** Of the output tokens, those the model spent reasoning (AI SDK `outputTokenDetails.reasoningTokens`). */
  reasoningTokens?: number;
  /** The input tokens of the attempt's last model call, which the inspector's gauge compares with the payload. */
  lastCallInputTokens?: number;
};
