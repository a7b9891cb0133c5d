// The replay buffer of live rooms (docs/architecture.md, "Live rooms"): each conversation's events with ids that
// count up, kept for REPLAY_WINDOW_MINUTES so a reader that reconnects gets what it missed, in order, once.
import { and, asc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "./client";
import { MEDIA_FACT_COLUMNS, type MediaFacts, mediaFactsById } from "./queries";
import { attachments, liveEventCursors, liveEvents, type Message, messages } from "./schema";

/** How long events stay for readers that reconnect; a reader further behind reloads the transcript instead. */
export const REPLAY_WINDOW_MINUTES = 60;

export interface LiveEventCursor {
  lastEventId: number;
  /** Events up to here may be gone: a reader behind it cannot replay. */
  prunedThroughId: number;
}

/**
 * Store an event and return its id. The cursor row's lock is held until the commit, so the next id is handed out
 * only once this one is visible: a reader that sees id n has seen every id below it. An event about a message
 * replaces the earlier events about that message (the latest state says everything they said), and events older
 * than the replay window go.
 */
export async function appendLiveEvent({
  db,
  conversationId,
  type,
  messageId = null,
  payload,
}: {
  db: Database;
  conversationId: string;
  type: string;
  messageId?: string | null;
  payload: Record<string, unknown>;
}): Promise<number> {
  return db.transaction(async (tx) => {
    const [cursor] = await tx
      .insert(liveEventCursors)
      .values({ conversationId, lastEventId: 1 })
      .onConflictDoUpdate({
        target: liveEventCursors.conversationId,
        set: { lastEventId: sql`${liveEventCursors.lastEventId} + 1` },
      })
      .returning({ id: liveEventCursors.lastEventId });
    await tx.insert(liveEvents).values({ conversationId, id: cursor.id, type, messageId, payload });
    if (messageId) {
      await tx
        .delete(liveEvents)
        .where(
          and(
            eq(liveEvents.conversationId, conversationId),
            eq(liveEvents.messageId, messageId),
            lt(liveEvents.id, cursor.id),
          ),
        );
    }
    const expired = await tx
      .delete(liveEvents)
      .where(
        and(
          eq(liveEvents.conversationId, conversationId),
          lt(liveEvents.createdAt, sql`now() - make_interval(mins => ${REPLAY_WINDOW_MINUTES})`),
        ),
      )
      .returning({ id: liveEvents.id });
    if (expired.length > 0) {
      const prunedThroughId = Math.max(...expired.map((row) => row.id));
      await tx
        .update(liveEventCursors)
        .set({ prunedThroughId: sql`greatest(${liveEventCursors.prunedThroughId}, ${prunedThroughId})` })
        .where(eq(liveEventCursors.conversationId, conversationId));
    }
    return cursor.id;
  });
}

/** The conversation's latest event id (0 before its first event) and how far the buffer was pruned. */
export async function getLiveEventCursor({
  db,
  conversationId,
}: {
  db: Database;
  conversationId: string;
}): Promise<LiveEventCursor> {
  const [row] = await db
    .select({ lastEventId: liveEventCursors.lastEventId, prunedThroughId: liveEventCursors.prunedThroughId })
    .from(liveEventCursors)
    .where(eq(liveEventCursors.conversationId, conversationId));
  return row ?? { lastEventId: 0, prunedThroughId: 0 };
}

/** The stored events after `afterId`, oldest first, at most `limit` (the caller reads on until it has all). */
export async function listLiveEventsAfter({
  db,
  conversationId,
  afterId,
  limit = 200,
}: {
  db: Database;
  conversationId: string;
  afterId: number;
  limit?: number;
}) {
  return db
    .select({ id: liveEvents.id, type: liveEvents.type, payload: liveEvents.payload })
    .from(liveEvents)
    .where(and(eq(liveEvents.conversationId, conversationId), gt(liveEvents.id, afterId)))
    .orderBy(asc(liveEvents.id))
    .limit(limit);
}

/** A message as readers are sent it: the row and what its media are (type and name, by attachment id). */
export async function getLiveMessage({
  db,
  conversationId,
  messageId,
}: {
  db: Database;
  conversationId: string;
  messageId: string;
}): Promise<{ message: Message; media: Map<string, MediaFacts> } | null> {
  const [message] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.conversationId, conversationId)));
  if (!message) return null;
  const attachmentIds = message.parts.flatMap((part) => (part.type === "media" ? [part.attachmentId] : []));
  const rows =
    attachmentIds.length === 0
      ? []
      : await db.select(MEDIA_FACT_COLUMNS).from(attachments).where(inArray(attachments.id, attachmentIds));
  return { message, media: mediaFactsById(rows) };
}
