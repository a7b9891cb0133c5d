// Pieces the query modules share: the named arguments most of them take, the one-row-or-404 rule, and the
// conditions that pick a conversation's messages, so each is written once.

import "server-only";
import { and, eq, gt, isNull, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { notFound } from "@/lib/domain/errors";
import type { Database } from "./client";
import { conversations, type Message, messages } from "./schema";

/** A transaction handle, which every query function that takes one also accepts in place of the database. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** The conversation a query is about; one of its messages; its messages after `afterSeq`; one user's. */
export type ConversationArgs = { db: Database; conversationId: string };
export type MessageArgs = ConversationArgs & { messageId: string };
/** A message of a conversation, read inside a transaction or not. */
export type MessageInConversationArgs = Omit<MessageArgs, "db"> & { db: Database | Transaction };
export type AfterSeqArgs = ConversationArgs & { afterSeq: number };
export type UserArgs = { db: Database; userId: string };
/** A new row of a table, given as its fields. */
export type NewRowArgs<Fields> = { db: Database; fields: Fields };

/** The first row a statement returned; without one, a 404 naming what is missing (or the error `missing` makes). */
export function onlyRow<Row>(rows: Row[], missing: string | (() => Error)): Row {
  const [row] = rows;
  if (!row) throw typeof missing === "string" ? notFound(missing) : missing();
  return row;
}

/** Whether any row of `table` meets `where`: the question is answered by one row at most, read as a constant. */
export async function anyRow(
  db: Database | Transaction,
  table: PgTable,
  where: SQL | undefined,
): Promise<boolean> {
  const [row] = await db.select({ found: sql`1` }).from(table).where(where).limit(1);
  return row !== undefined;
}

/** The rows of a table with a conversationId that belong to this conversation and meet every one of `conditions`. */
export function inConversation(
  table: { conversationId: AnyPgColumn },
  conversationId: string,
  ...conditions: (SQL | undefined)[]
) {
  return and(eq(table.conversationId, conversationId), ...conditions);
}

/**
 * The messages a turn or a summary may still be built from: after `afterSeq`, not summarised yet, and not a reply
 * variant the user did not choose (such a variant is kept but never sent). Placeholders stand in for the values in
 * a prepared statement.
 */
export function unsummarisedMessagesAfter(
  conversationId: string | Placeholder,
  afterSeq: number | Placeholder,
) {
  return and(
    eq(messages.conversationId, conversationId),
    gt(messages.seq, afterSeq),
    isNull(messages.summarizedBy),
    eq(messages.chosen, true),
  );
}

/**
 * Hold the conversation's row (its message counter) until the transaction ends: inserts of messages, summaries
 * and changes of the shown path wait for each other.
 */
export async function lockConversation(tx: Transaction, conversationId: string): Promise<void> {
  const [row] = await tx
    .select({ id: conversations.id })
    .from(conversations)
    .where(eq(conversations.id, conversationId))
    .for("update");
  if (!row) throw notFound("Conversation");
}

/** The message with this id when it belongs to the conversation, else undefined. */
export async function findMessageInConversation({
  db,
  conversationId,
  messageId,
}: MessageInConversationArgs): Promise<Message | undefined> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.conversationId, conversationId)));
  return row;
}
