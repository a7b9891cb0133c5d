// The publishing side of live rooms (docs/features.md, "Live rooms"): one call where a message is stored or
// changed, where people join or leave, and where someone types. A failure here is logged and never fails the
// write that called it: the readers' transcript is reloaded after every turn anyway.

import "server-only";
import type { Database } from "@/db/client";
import { appendLiveEvent, getLiveMessageMedia, type LiveEventInput } from "@/db/live-event-queries";
import type { StoredWithEvent } from "@/db/message-queries";
import { type ConversationArgs, findMessageInConversation, type MessageArgs } from "@/db/query-parts";
import type { Message } from "@/db/schema";
import { toUIMessage } from "@/lib/chat/views/ui-messages";
import { logger } from "@/lib/logger";
import { liveBus, storedEventChannel } from "./bus";
import { type StoredLiveEvent, TYPING_SHOWN_MS } from "./events";

const globalForPublishing = globalThis as unknown as {
  glassboxLiveChains?: Map<string, Promise<void>>;
  glassboxLastPublished?: Map<string, string>;
};

/** How many messages' last published state this process remembers (oldest forgotten first). */
const REMEMBERED_MESSAGES = 1_000;

/**
 * Whether this state of the message differs from the last one this process published: a message read in a state
 * already sent (a re-read after its writer's own event, a write that changed nothing readers see) is sent once.
 */
function isNewState(messageId: string, state: string): boolean {
  return globalForPublishing.glassboxLastPublished?.get(messageId) !== state;
}

/** Remembers the state of the message this process has just published. */
function rememberPublished(messageId: string, state: string): void {
  globalForPublishing.glassboxLastPublished ??= new Map();
  const published = globalForPublishing.glassboxLastPublished;
  published.delete(messageId);
  published.set(messageId, state);
  if (published.size > REMEMBERED_MESSAGES) published.delete(published.keys().next().value as string);
}

/**
 * Publishing runs one at a time per conversation in this process, in the order asked: a step reads the message as
 * stored when its turn comes, or carries the row its writer stored (asked in write order), so a later event never
 * carries an older state (two flushes of one reply can be in flight at once).
 */
function inOrder(conversationId: string, step: () => Promise<void>): Promise<void> {
  globalForPublishing.glassboxLiveChains ??= new Map();
  const chains = globalForPublishing.glassboxLiveChains;
  const next = (chains.get(conversationId) ?? Promise.resolve()).then(step).catch((error: unknown) => {
    logger.warn({ err: error, conversationId }, "could not publish a live event");
  });
  chains.set(conversationId, next);
  void next.then(() => {
    if (chains.get(conversationId) === next) chains.delete(conversationId);
  });
  return next;
}

/** Resolves once every event this process has begun publishing is published (or failed): shutdown waits for it. */
export async function publishingSettled(): Promise<void> {
  await Promise.all(globalForPublishing.glassboxLiveChains?.values() ?? []);
}

async function store(
  db: Database,
  conversationId: string,
  event: StoredLiveEvent,
  messageId: string | null = null,
): Promise<void> {
  const { type, ...payload } = event;
  // With the Postgres bus the statement that stores the event also signals it; otherwise the bus does, after.
  const notifyChannel = storedEventChannel();
  const eventId = await appendLiveEvent({ db, conversationId, type, messageId, payload, notifyChannel });
  if (!notifyChannel) await (await liveBus()).publish({ conversationId, eventId });
}

/** The event readers get for a chosen message in the state given, and that state as this process remembers it. */
async function messageEvent(db: Database, message: Message) {
  const event: StoredLiveEvent = {
    type: "message",
    message: toUIMessage(message, { media: await getLiveMessageMedia({ db, message }) }),
    clientMessageId: message.clientMessageId,
  };
  return { event, state: JSON.stringify(event) };
}

/** The event for a message in the state given: readers get it as stored, unless it says nothing new. */
async function storeMessage(db: Database, message: Message): Promise<void> {
  const { conversationId } = message;
  // A variant that is not chosen is not in anyone's transcript: the readers reload to see which one is.
  if (!message.chosen) return store(db, conversationId, { type: "transcript" });
  const { event, state } = await messageEvent(db, message);
  if (!isNewState(message.id, state)) return;
  rememberPublished(message.id, state);
  await store(db, conversationId, event, message.id);
}

/**
 * A write of a message that stores the message's live event in the same statement (a reply's flushes and its final
 * write: one round trip instead of two). `expected` is the message as the write will store it, as far as its
 * writer knows (its row as last stored, with the new parts and status); `write` stores it, with the event made
 * from it when readers do not have that state yet, and returns the row as stored. Runs in the conversation's
 * publishing order, like every event of this process. When the row as stored reads differently (another writer
 * changed it meanwhile), readers get it as stored after. Rejects when the write fails; the event is then not sent.
 */
export function writeWithLiveEvent({
  db,
  expected,
  write,
}: {
  db: Database;
  expected: Message;
  write: (event: LiveEventInput | null) => Promise<StoredWithEvent>;
}): Promise<Message | undefined> {
  const { conversationId } = expected;
  return new Promise((resolve, reject) => {
    void inOrder(conversationId, async () => {
      let written: StoredWithEvent;
      let expectedState: string | null = null;
      try {
        let input: LiveEventInput | null = null;
        if (expected.chosen) {
          const { event, state } = await messageEvent(db, expected);
          if (isNewState(expected.id, state)) {
            const { type, ...payload } = event;
            input = {
              conversationId,
              type,
              messageId: expected.id,
              payload,
              notifyChannel: storedEventChannel(),
            };
            expectedState = state;
          }
        }
        written = await write(input);
      } catch (error) {
        reject(error);
        return;
      }
      const { stored, eventId } = written;
      resolve(stored);
      if (eventId !== null && expectedState !== null) {
        rememberPublished(expected.id, expectedState);
        if (!storedEventChannel()) await (await liveBus()).publish({ conversationId, eventId });
      }
      if (!stored) return;
      // Without an event in the write, or with one made from a state that is not the row's: the row as stored.
      const asExpected =
        eventId !== null && stored.chosen && (await messageEvent(db, stored)).state === expectedState;
      if (!asExpected) await storeMessage(db, stored);
    });
  });
}

/**
 * A message was stored or changed: readers get it as it is stored when its turn comes (it is read then). Resolves
 * once published (or failed).
 */
export function publishMessage({ db, conversationId, messageId }: MessageArgs): Promise<void> {
  return inOrder(conversationId, async () => {
    const message = await findMessageInConversation({ db, conversationId, messageId });
    if (message) await storeMessage(db, message);
  });
}

/**
 * A message in the state its writer just stored (the row its write returned): published without reading it again.
 * The writer calls this in the order of its writes, after each one, so a later event never carries an older state
 * (the reply's persistence chains its writes and reads its row before the first: lib/chat/turn/reply-persistence.ts).
 */
export function publishStoredMessage({ db, message }: { db: Database; message: Message }): Promise<void> {
  return inOrder(message.conversationId, () => storeMessage(db, message));
}

/** Which reply variant is chosen changed: readers reload their transcript. */
export function publishTranscriptChange({ db, conversationId }: ConversationArgs) {
  return inOrder(conversationId, () => store(db, conversationId, { type: "transcript" }));
}

/** Someone joined or left the conversation. */
export function publishMembersChange({ db, conversationId }: ConversationArgs) {
  return inOrder(conversationId, () => store(db, conversationId, { type: "members" }));
}

/** Typing notices closer together than this, per person and conversation, are dropped here. */
const TYPING_MIN_GAP_MS = 1_000;
const lastTypingAt = new Map<string, number>();

/** Someone is typing: passed to the readers now, not stored. */
export async function publishTyping(signal: {
  conversationId: string;
  userId: string;
  name: string;
}): Promise<void> {
  const { conversationId, userId, name } = signal;
  const key = `${conversationId}:${userId}`;
  const now = Date.now();
  if (now - (lastTypingAt.get(key) ?? 0) < TYPING_MIN_GAP_MS) return;
  lastTypingAt.set(key, now);
  // The map stays small: entries older than a typing notice's life are of no use.
  if (lastTypingAt.size > 1_000) {
    for (const [entry, at] of lastTypingAt) if (now - at > TYPING_SHOWN_MS) lastTypingAt.delete(entry);
  }
  try {
    await (await liveBus()).publish({ conversationId, typing: { userId, name } });
  } catch (error) {
    logger.warn({ err: error, conversationId }, "could not publish typing");
  }
}
