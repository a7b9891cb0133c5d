// What a reader of a live conversation receives (docs/features.md, "Live rooms"). Shared by the server that
// sends the events and the browser that applies them, so it imports only types.
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";

/** Stored, numbered events: a reconnect with the last id it saw gets every later one, once. */
export type StoredLiveEvent =
  /** A message as stored now: new, streaming (its text so far), edited, or ended (complete, stopped, failed). */
  | { type: "message"; message: ChatUIMessage; clientMessageId: string | null }
  /** Something only a fresh transcript shows right (another reply variant was chosen): reload it. */
  | { type: "transcript" }
  /** Someone joined or left: reload the people. */
  | { type: "members" };

/** Not stored, not numbered: missing one costs nothing (the next comes within seconds, or the message itself). */
export type PassingLiveEvent = { type: "typing"; userId: string; name: string };

/** Sent instead of a replay when the reader is further behind than the stored events reach: reload everything. */
export type ResyncEvent = { type: "resync" };

export type LiveEvent = StoredLiveEvent | PassingLiveEvent | ResyncEvent;

/** How long a typing notice shows without a newer one; the composer repeats it more often than this. */
export const TYPING_SHOWN_MS = 5_000;
/** The composer says "typing" at most this often. */
export const TYPING_REPEAT_MS = 2_000;
