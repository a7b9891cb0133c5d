// The replay buffer of live rooms (docs/features.md, "Live rooms"): each conversation's events with ids that
// count up, kept for REPLAY_WINDOW_MINUTES so a reader that reconnects gets what it missed, in order, once.
import { and, asc, eq, gt, inArray, type SQL, sql } from "drizzle-orm";
import { MEDIA_FACT_COLUMNS, type MediaFacts, mediaFactsById } from "./attachment-queries";
import type { Database } from "./client";
import { preparedStatement } from "./prepared-statements";
import type { ConversationArgs } from "./query-parts";
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
  const statement = event.notifyChannel ? appendSignalledEventStatement : appendEventStatement;
  const [row] = await statement(db).execute(liveEventValues(event));
  if (!row) throw new Error("the live event cursor returned no id");
  return Number(row.id);
}

const appendEventStatement = preparedStatement("appendLiveEvent", (db) => appendEventQuery(db, false));
const appendSignalledEventStatement = preparedStatement("appendSignalledLiveEvent", (db) =>
  appendEventQuery(db, true),
);

function appendEventQuery(db: Database, signalled: boolean) {
  const event = liveEventParts(db);
  return db
    .with(...event.ctes)
    .select({ id: sql<string | number>`cursor.id`, ...(signalled ? { signal: event.signal } : {}) })
    .from(event.cursor);
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

/** The event's placeholders, as liveEventParts names them: an `event` prefix keeps them apart from a statement's own. */
const placeholders = {
  conversationId: sql.placeholder("eventConversationId"),
  type: sql.placeholder("eventType"),
  messageId: sql.placeholder("eventMessageId"),
  payload: sql.placeholder("eventPayload"),
  channel: sql.placeholder("eventChannel"),
};

/** The values of liveEventParts' placeholders for `input`. */
export function liveEventValues({
  conversationId,
  type,
  messageId = null,
  payload,
  notifyChannel = null,
}: LiveEventInput) {
  return {
    eventConversationId: conversationId,
    eventType: type,
    eventMessageId: messageId,
    eventPayload: JSON.stringify(payload),
    eventChannel: notifyChannel,
  };
}

/**
 * appendLiveEvent's statement in parts, with placeholders (filled by liveEventValues), for a prepared statement
 * that stores an event, alone or beside something else it writes (a reply's write and its event in one:
 * db/message-queries.ts): `ctes` for the statement's `with`, among them `cursor`, which hands out the event's id,
 * and `signal`, the pg_notify to select when the event goes out on the Postgres bus. With `onlyIf`, a condition on
 * the statement's other parts, the event is stored only when it holds (`cursor` is then empty, and so is what
 * reads it).
 */
export function liveEventParts(db: Database, { onlyIf }: { onlyIf?: SQL } = {}) {
  const { conversationId } = placeholders;
  const expiredBefore = sql`now() - make_interval(mins => ${sql.raw(String(REPLAY_WINDOW_MINUTES))})`;
  const firstCursor = onlyIf
    ? sql`select ${conversationId}::uuid, 1 where ${onlyIf}`
    : sql`values (${conversationId}::uuid, 1)`;
  const cursor = db.$with("cursor", { id: sql<number>`id` }).as(sql`
    insert into ${liveEventCursors} ("conversationId", "lastEventId") ${firstCursor}
    on conflict ("conversationId") do update set
      "lastEventId" = ${liveEventCursors.lastEventId} + 1,
      "prunedThroughId" = greatest(
        ${liveEventCursors.prunedThroughId},
        coalesce(
          (select max(${liveEvents.id}) from ${liveEvents}
            where ${liveEvents.conversationId} = ${conversationId}::uuid and ${liveEvents.createdAt} < ${expiredBefore}),
          0
        )
      )
    returning "lastEventId" as id`);
  const inserted = db.$with("inserted", {}).as(sql`
    insert into ${liveEvents} ("conversationId", "id", "type", "messageId", "payload")
    select ${conversationId}::uuid, cursor.id, ${placeholders.type}::text, ${placeholders.messageId}::uuid, ${placeholders.payload}::jsonb
    from cursor`);
  const superseded = db.$with("superseded", {}).as(sql`
    delete from ${liveEvents}
    where ${liveEvents.conversationId} = ${conversationId}::uuid and ${placeholders.messageId}::uuid is not null
      and ${liveEvents.messageId} = ${placeholders.messageId}::uuid and ${liveEvents.id} < (select id from cursor)`);
  const expired = db.$with("expired", {}).as(sql`
    delete from ${liveEvents}
    where ${liveEvents.conversationId} = ${conversationId}::uuid and ${liveEvents.createdAt} < ${expiredBefore}`);
  // The signal as the bus's listeners parse it (lib/live/bus.ts).
  const signal = sql`pg_notify(${placeholders.channel}::text,
    json_build_object('conversationId', ${conversationId}::text, 'eventId', cursor.id)::text)`;
  return { ctes: [cursor, inserted, superseded, expired] as const, cursor, signal };
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
