// The replay buffer of live rooms (docs/features.md, "Live rooms"): each conversation's events with ids that
// count up, kept for REPLAY_WINDOW_MINUTES so a reader that reconnects gets what it missed, in order, once.
import { and, asc, eq, gt, inArray, type SQL, sql } from "drizzle-orm";
import { MEDIA_FACT_COLUMNS, type MediaFacts, mediaFactsById } from "./attachment-queries";
import type { Database } from "./client";
import type { ConversationArgs } from "./query-parts";
import { queryRows } from "./raw-sql";
import { attachments, liveEventCursors, liveEvents, type Message } from "./schema";

/** How long events stay for readers that reconnect; a reader further behind reloads the transcript instead. */
export const REPLAY_WINDOW_MINUTES = 60;

export interface LiveEventCursor {
  lastEventId: number;
  /** Events up to here may be gone: a reader behind it cannot replay. */
  prunedThroughId: number;
}

/**
 * Store an event and return its id, in one statement (one round trip, no transaction held open across several):
 * the cursor row's lock is held until the statement commits, so the next id is handed out only once this one is
 * visible: a reader that sees id n has seen every id below it. An event about a message replaces the earlier events
 * about that message (the latest state says everything they said), and events older than the replay window go,
 * with `prunedThroughId` moved past them in the same upsert (one row is never updated twice in a statement).
 * Every part reads the statement's snapshot, taken before the cursor's lock: within a process a conversation's
 * events are appended one at a time (lib/live/publish.ts), so only another instance's event committed during
 * that wait can be missed by the deletes, and it stays as one more superseded state (harmless: the newer one
 * follows it) or is pruned by the next event. With `notifyChannel` (the Postgres bus) the statement also signals
 * the event, `{ conversationId, eventId }`, on that channel: NOTIFY is delivered when the statement commits, so the
 * signal never comes before the event can be read, and no separate NOTIFY is sent.
 */
export async function appendLiveEvent({ db, ...event }: ConversationArgs & LiveEventInput): Promise<number> {
  const { ctes, signal } = liveEventParts(event);
  const [row] = await queryRows<{ id: string | number }>(
    db,
    sql`with ${ctes} select id${signal} from cursor`,
  );
  if (!row) throw new Error("the live event cursor returned no id");
  return Number(row.id);
}

/** An event to store: its conversation, its type, the message it is about (if any) and its payload. */
export interface LiveEventInput {
  conversationId: string;
  type: string;
  messageId?: string | null;
  payload: Record<string, unknown>;
  /** The Postgres bus's channel, signalled by the statement itself (see appendLiveEvent); null otherwise. */
  notifyChannel?: string | null;
}

/**
 * appendLiveEvent's statement in parts, for a statement that writes something else too (a reply's write and its
 * event in one: db/message-queries.ts): `ctes` (`cursor` hands out the event's id), and `signal`, the select
 * list's pg_notify when there is a channel. With `onlyIf`, a condition on the statement's other parts, the event
 * is stored only when it holds (`cursor` is then empty, and so is what reads it).
 */
export function liveEventParts(
  { conversationId, type, messageId = null, payload, notifyChannel = null }: LiveEventInput,
  { onlyIf }: { onlyIf?: SQL } = {},
): { ctes: SQL; signal: SQL } {
  const expiredBefore = sql`now() - make_interval(mins => ${REPLAY_WINDOW_MINUTES})`;
  // The signal as the bus's listeners parse it (lib/live/bus.ts).
  const signalText = sql`json_build_object('conversationId', ${conversationId}::text, 'eventId', cursor.id)::text`;
  const signal = notifyChannel ? sql`, pg_notify(${notifyChannel}, ${signalText})` : sql``;
  const firstCursor = onlyIf
    ? sql`select ${conversationId}::uuid, 1 where ${onlyIf}`
    : sql`values (${conversationId}, 1)`;
  const ctes = sql`
    cursor as (
      insert into ${liveEventCursors} ("conversationId", "lastEventId") ${firstCursor}
      on conflict ("conversationId") do update set
        "lastEventId" = ${liveEventCursors.lastEventId} + 1,
        "prunedThroughId" = greatest(
          ${liveEventCursors.prunedThroughId},
          coalesce(
            (select max(${liveEvents.id}) from ${liveEvents}
              where ${liveEvents.conversationId} = ${conversationId} and ${liveEvents.createdAt} < ${expiredBefore}),
            0
          )
        )
      returning "lastEventId" as id
    ),
    inserted as (
      insert into ${liveEvents} ("conversationId", "id", "type", "messageId", "payload")
      select ${conversationId}, cursor.id, ${type}, ${messageId}::uuid, ${JSON.stringify(payload)}::jsonb from cursor
    ),
    superseded as (
      delete from ${liveEvents}
      where ${liveEvents.conversationId} = ${conversationId} and ${messageId}::uuid is not null
        and ${liveEvents.messageId} = ${messageId}::uuid and ${liveEvents.id} < (select id from cursor)
    ),
    expired as (
      delete from ${liveEvents}
      where ${liveEvents.conversationId} = ${conversationId} and ${liveEvents.createdAt} < ${expiredBefore}
    )`;
  return { ctes, signal };
}

/** The conversation's latest event id (0 before its first event) and how far the buffer was pruned. */
export async function getLiveEventCursor({ db, conversationId }: ConversationArgs): Promise<LiveEventCursor> {
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
}: ConversationArgs & { afterId: number; limit?: number }) {
  return db
    .select({ id: liveEvents.id, type: liveEvents.type, payload: liveEvents.payload })
    .from(liveEvents)
    .where(and(eq(liveEvents.conversationId, conversationId), gt(liveEvents.id, afterId)))
    .orderBy(asc(liveEvents.id))
    .limit(limit);
}

/** What a message's media are (type and name, by attachment id), as readers are sent it: no read without media. */
export async function getLiveMessageMedia({
  db,
  message,
}: {
  db: Database;
  message: Message;
}): Promise<Map<string, MediaFacts>> {
  const attachmentIds = message.parts.flatMap((part) => (part.type === "media" ? [part.attachmentId] : []));
  const rows =
    attachmentIds.length === 0
      ? []
      : await db.select(MEDIA_FACT_COLUMNS).from(attachments).where(inArray(attachments.id, attachmentIds));
  return mediaFactsById(rows);
}
