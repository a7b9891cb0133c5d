// Query functions for the messages of a conversation and their parts: finding one, finishing a reply with its
// artifacts, reading the transcript and a turn's window. Storing a new message is in message-insert-queries.ts;
// what a user does to messages besides sending is in message-variant-queries.ts (regenerate, choose),
// message-edit-queries.ts (edits in place, versions), message-tree-queries.ts (forks of an edited question) and
// conversation-branch-queries.ts ("branch from here").

import "server-only";
import { and, asc, desc, eq, inArray, lte, sql } from "drizzle-orm";
import { artifactTokenCounts, messageTokenCounts } from "@/lib/context/token-cache";
import { notFound } from "@/lib/domain/errors";
import type { StoredPart } from "@/lib/domain/types";
import type { Database } from "./client";
import { decodeRow, type JsonRow, parseJson } from "./json-rows";
import { type LiveEventInput, liveEventParts, liveEventValues } from "./live-event-queries";
import { encodedPlaceholder, isAnyOf, preparedStatement } from "./prepared-statements";
import {
  type AfterSeqArgs,
  type ConversationArgs,
  findMessageInConversation,
  inConversation,
  type MessageInConversationArgs,
  type Transaction,
  unsummarisedMessagesAfter,
} from "./query-parts";
import {
  type Artifact,
  type Attachment,
  artifacts,
  attachments,
  attempts,
  type Message,
  messages,
  turns,
} from "./schema";

export async function getMessageInConversation(args: MessageInConversationArgs): Promise<Message> {
  const row = await findMessageInConversation(args);
  if (!row) throw notFound("Message");
  return row;
}

/** The message a client already sent under this id, if any (sending it again never stores it twice). */

/**
 * What the latest attempt of the conversation sent: the history messages its items came from and the trace
 * events that say why older ones were left out. Null before the first turn.
 */
export async function getLatestAttemptView({ db, conversationId }: ConversationArgs) {
  const [row] = await db
    .select({ items: attempts.items, trace: attempts.trace, turnId: attempts.turnId })
    .from(attempts)
    .innerJoin(turns, eq(turns.id, attempts.turnId))
    .where(eq(turns.conversationId, conversationId))
    .orderBy(desc(turns.createdAt), desc(attempts.attemptNumber))
    .limit(1);
  return row ?? null;
}

/** The payloads of a conversation's artifacts of one type, in the order they happened, by message id. */
async function listArtifactPayloadsByMessage(
  db: Database,
  conversationId: string,
  type: string,
): Promise<Map<string, Record<string, unknown>[]>> {
  const rows = await db
    .select({ messageId: artifacts.messageId, payload: artifacts.payload })
    .from(artifacts)
    .where(inConversation(artifacts, conversationId, eq(artifacts.type, type)))
    .orderBy(asc(artifacts.id));
  const byMessage = new Map<string, Record<string, unknown>[]>();
  for (const row of rows) {
    const payloads = byMessage.get(row.messageId) ?? [];
    payloads.push(row.payload);
    byMessage.set(row.messageId, payloads);
  }
  return byMessage;
}

/** The tools each reply of a conversation called, in the order it called them, by message id (the transcript). */
export async function listToolNamesByMessage({ db, conversationId }: ConversationArgs) {
  const byMessage = new Map<string, string[]>();
  for (const [messageId, payloads] of await listArtifactPayloadsByMessage(
    db,
    conversationId,
    "function_call",
  )) {
    const names: string[] = [];
    for (const payload of payloads) {
      if (typeof payload.name === "string" && !names.includes(payload.name)) names.push(payload.name);
    }
    if (names.length > 0) byMessage.set(messageId, names);
  }
  return byMessage;
}

/** The reasoning payloads of each reply of a conversation, in the order it reasoned, by message id (the transcript). */
export function listReasoningByMessage({ db, conversationId }: ConversationArgs) {
  return listArtifactPayloadsByMessage(db, conversationId, "reasoning");
}

/**
 * The end of a reply that used tools: its artifacts (tool calls, outputs), each with its cached token count, and the
 * message's final parts, which name them between the text pieces, in one transaction. Returns the message as
 * stored (undefined when it is gone), which its live event is made from.
 */
export async function finishReplyWithArtifacts({
  db,
  messageId,
  conversationId,
  parts,
  artifacts: replayed,
  status,
  finishedTurn,
}: {
  db: Database;
  messageId: string;
  conversationId: string;
  parts: StoredPart[];
  artifacts: { id: string; type: string; payload: Record<string, unknown> }[];
  status: Message["status"];
  finishedTurn?: FinishedTurn;
}): Promise<Message | undefined> {
  return db.transaction(async (tx) => {
    if (replayed.length > 0) {
      await tx.insert(artifacts).values(
        replayed.map((artifact) => ({
          ...artifact,
          conversationId,
          messageId,
          tokenCounts: artifactTokenCounts(artifact) as Record<string, number>,
        })),
      );
    }
    return (await setMessage(tx, messageId, { parts, status, ...messageTokenCounts(parts) }, finishedTurn))
      .stored;
  });
}

/** The turn a reply's final write also finishes: its status, in the same statement as the reply's. */
export interface FinishedTurn {
  turnId: string;
  status: "ok" | "error" | "interrupted" | "stopped";
}

/** The fields a message's update may write. */
const MESSAGE_WRITE_FIELDS = ["parts", "status", "tokenCounts", "segmentTokenCounts"] as const;
type MessageWriteField = (typeof MESSAGE_WRITE_FIELDS)[number];
type MessageWrite = Partial<Pick<Message, MessageWriteField>>;

/**
 * One update of a message, returning it as stored; with `finishedTurn`, that turn's status is written by the
 * same statement (a data-modifying CTE), so a reply and its turn end together in one round trip. With `liveEvent`,
 * the message's live event is stored by the same statement too, when the message is there to update (see
 * `updateMessage`). A prepared statement for each shape (the fields written, the turn, the event): a streaming
 * reply is written every half second, and building its statement anew each time would cost more than running it.
 */
async function setMessage(
  db: Database | Transaction,
  messageId: string,
  values: MessageWrite,
  finishedTurn: FinishedTurn | undefined,
  liveEvent?: LiveEventInput,
): Promise<StoredWithEvent> {
  const fields = MESSAGE_WRITE_FIELDS.filter((name) => values[name] !== undefined);
  const event = liveEvent ? (liveEvent.notifyChannel ? "signalled" : "stored") : "none";
  const statement = messageWriteStatement(fields, finishedTurn !== undefined, event);
  const [row] = await statement(db).execute({
    ...values,
    messageId,
    updatedAt: new Date(),
    turnId: finishedTurn?.turnId ?? null,
    turnStatus: finishedTurn?.status ?? null,
    ...(liveEvent ? liveEventValues(liveEvent) : {}),
  });
  if (!row) return { stored: undefined, eventId: null };
  return {
    stored: decodeRow(messages, parseJson(row.row) as JsonRow),
    eventId: row.eventId === null ? null : Number(row.eventId),
  };
}

type MessageWriteEvent = "none" | "stored" | "signalled";
const messageWriteStatements = new Map<string, ReturnType<typeof messageWriteStatementFor>>();

/** The prepared statement of one shape of setMessage, made on its first use. */
function messageWriteStatement(fields: MessageWriteField[], finishesTurn: boolean, event: MessageWriteEvent) {
  const shape = `${fields.join(",")}|${finishesTurn ? "turn" : ""}|${event}`;
  let statement = messageWriteStatements.get(shape);
  if (!statement) {
    statement = messageWriteStatementFor(shape, fields, finishesTurn, event);
    messageWriteStatements.set(shape, statement);
  }
  return statement;
}

function messageWriteStatementFor(
  shape: string,
  fields: MessageWriteField[],
  finishesTurn: boolean,
  event: MessageWriteEvent,
) {
  return preparedStatement(`setMessage(${shape})`, (db) => {
    const assignments = [
      sql`"updatedAt" = ${encodedPlaceholder("updatedAt", messages.updatedAt)}::timestamptz`,
      ...fields.map((name) => {
        const column = messages[name];
        return sql`${sql.identifier(column.name)} = ${encodedPlaceholder(name, column)}::${sql.raw(column.getSQLType())}`;
      }),
    ];
    const stored = db.$with("stored", { id: sql<string>`"id"` }).as(
      sql`update ${messages} set ${sql.join(assignments, sql`, `)}
        where ${messages.id} = ${sql.placeholder("messageId")} returning *`,
    );
    const finished = db.$with("finished_turn", {}).as(
      sql`update ${turns} set "status" = ${sql.placeholder("turnStatus")}, "heartbeatAt" = null
        where ${turns.id} = ${sql.placeholder("turnId")}`,
    );
    const turnWrite = finishesTurn ? [finished] : [];
    // The row comes back as JSON, decoded as a read; with an event, the event's parts follow the update.
    const row = sql<unknown>`row_to_json(stored)`;
    if (event === "none") {
      return db
        .with(...turnWrite, stored)
        .select({ row, eventId: sql<string | number | null>`null` })
        .from(stored);
    }
    const parts = liveEventParts(db, { onlyIf: sql`exists (select 1 from stored)` });
    return db
      .with(...turnWrite, stored, ...parts.ctes)
      .select({
        row,
        eventId: sql<string | number | null>`cursor.id`,
        ...(event === "signalled" ? { signal: parts.signal } : {}),
      })
      .from(stored)
      .leftJoin(parts.cursor, sql`true`);
  });
}

/** A message as a write stored it (undefined when it is gone), and the id of the live event stored with it. */
export interface StoredWithEvent {
  stored: Message | undefined;
  eventId: number | null;
}

/**
 * Returns the message as stored (undefined when it is gone): a reply's live event is made from it, unread. With
 * `liveEvent`, the event readers get for the message as this write stores it is stored by the same statement
 * (lib/live/publish.ts, writeWithLiveEvent), and its id is returned.
 */
export async function updateMessage({
  db,
  messageId,
  parts,
  status,
  countTokens = false,
  finishedTurn,
  liveEvent,
}: {
  db: Database;
  messageId: string;
  parts?: StoredPart[];
  status?: Message["status"];
  /** Cache the new parts' token counts (once the text is final). */
  countTokens?: boolean;
  /** The turn this final write also finishes. */
  finishedTurn?: FinishedTurn;
  liveEvent?: LiveEventInput;
}): Promise<StoredWithEvent> {
  return setMessage(
    db,
    messageId,
    {
      ...(parts ? { parts } : {}),
      ...(status ? { status } : {}),
      ...(countTokens && parts ? messageTokenCounts(parts) : {}),
    },
    finishedTurn,
    liveEvent,
  );
}

/** The full transcript, summarized or not, in seq order. */
export async function listMessages({ db, conversationId }: ConversationArgs) {
  return db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.seq));
}

/**
 * The bounded window a turn is built from: messages after the active summary that are not summarized, newest
 * `limit` of them, in seq order. Uses the (conversationId, seq) index; the cost does not grow with history.
 */
export async function listHistoryWindow({
  db,
  conversationId,
  afterSeq,
  limit,
}: AfterSeqArgs & { limit: number }): Promise<Message[]> {
  const newestFirst = await historyWindowStatement(db).execute({ conversationId, afterSeq, limit });
  return newestFirst.reverse();
}

const historyWindowStatement = preparedStatement("listHistoryWindow", (db) =>
  db
    .select()
    .from(messages)
    .where(unsummarisedMessagesAfter(sql.placeholder("conversationId"), sql.placeholder("afterSeq")))
    .orderBy(desc(messages.seq))
    .limit(sql.placeholder("limit")),
);

/** A turn's window as listHistoryWindow reads it, with its messages' attachments and artifacts. */
export interface WindowWithMedia {
  /** Oldest first. */
  messages: Message[];
  attachments: Attachment[];
  /** In the order they happened. */
  artifacts: Artifact[];
}

/**
 * listHistoryWindow up to `throughSeq` (the message a turn answers: a message stored after it is no history of
 * it), the window's attachments and its artifacts in one statement (one round trip).
 */
export async function listHistoryWindowWithMedia({
  db,
  conversationId,
  afterSeq,
  throughSeq,
  limit,
}: AfterSeqArgs & { throughSeq: number; limit: number }): Promise<WindowWithMedia> {
  const [row] = await windowWithMediaStatement(db).execute({ conversationId, afterSeq, throughSeq, limit });
  const parts = parseJson(row.parts) as Record<keyof WindowWithMedia, JsonRow[]>;
  return {
    messages: parts.messages.map((message) => decodeRow(messages, message)),
    attachments: parts.attachments.map((attachment) => decodeRow(attachments, attachment)),
    artifacts: parts.artifacts.map((artifact) => decodeRow(artifacts, artifact)),
  };
}

const windowWithMediaStatement = preparedStatement("listHistoryWindowWithMedia", (db) => {
  const window = db.$with("history_window").as(
    db
      .select()
      .from(messages)
      .where(
        and(
          unsummarisedMessagesAfter(sql.placeholder("conversationId"), sql.placeholder("afterSeq")),
          lte(messages.seq, sql.placeholder("throughSeq")),
        ),
      )
      .orderBy(desc(messages.seq))
      .limit(sql.placeholder("limit")),
  );
  const parts = sql`json_build_object(
    'messages', coalesce((select json_agg(row_to_json(w) order by w.seq) from ${window} w), '[]'::json),
    'attachments', coalesce((select json_agg(row_to_json(a) order by a."createdAt", a.id) from ${attachments} a
      where a."messageId" in (select id from ${window})), '[]'::json),
    'artifacts', coalesce((select json_agg(row_to_json(r) order by r.id) from ${artifacts} r
      where r."messageId" in (select id from ${window})), '[]'::json)
  )`;
  return db.with(window).select({ parts }).from(sql`(select 1) as one`);
});

/**
 * `reasoning.persist = next_reply`: once the reply is done, the reasoning replayed for it is deleted,
 * and the messages' references to it with it (so later turns do not report it missing). Only reasoning artifacts
 * of this conversation are touched. Returns how many were deleted.
 */
export async function deleteReplayedReasoning({
  db,
  conversationId,
  artifactIds,
}: ConversationArgs & { artifactIds: string[] }): Promise<number> {
  if (artifactIds.length === 0) return 0;
  return db.transaction(async (tx) => {
    const deleted = await tx
      .delete(artifacts)
      .where(
        inConversation(
          artifacts,
          conversationId,
          eq(artifacts.type, "reasoning"),
          inArray(artifacts.id, artifactIds),
        ),
      )
      .returning({ id: artifacts.id, messageId: artifacts.messageId });
    const gone = new Set(deleted.map((row) => row.id));
    const messageIds = [...new Set(deleted.map((row) => row.messageId))];
    if (messageIds.length === 0) return 0;
    const rows = await tx.select().from(messages).where(inArray(messages.id, messageIds));
    for (const row of rows) {
      const parts = row.parts.filter((part) => part.type !== "artifact" || !gone.has(part.artifactId));
      await tx
        .update(messages)
        .set({ parts, ...messageTokenCounts(parts), updatedAt: new Date() })
        .where(eq(messages.id, row.id));
    }
    return deleted.length;
  });
}

export async function listArtifactsForMessages({ db, messageIds }: { db: Database; messageIds: string[] }) {
  if (messageIds.length === 0) return [];
  return artifactsForMessagesStatement(db).execute({ messageIds });
}

const artifactsForMessagesStatement = preparedStatement("listArtifactsForMessages", (db) =>
  db
    .select()
    .from(artifacts)
    .where(isAnyOf(artifacts.messageId, sql.placeholder("messageIds")))
    .orderBy(asc(artifacts.id)),
);
