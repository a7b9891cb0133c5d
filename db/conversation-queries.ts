// Conversations: listing, creating, reading, changing and deleting them. Who may read one is decided here
// (readableBy, getReadableConversation, getOwnedConversation): routes and the turn runner use only these.

import "server-only";
import { and, desc, eq, ilike, inArray, ne, or, type Placeholder, type SQL, sql } from "drizzle-orm";
import { union } from "drizzle-orm/pg-core";
import { AppError } from "@/lib/domain/errors";
import type { Database } from "./client";
import { preparedStatement } from "./prepared-statements";
import { type ConversationArgs, onlyRow, type Transaction, type UserArgs } from "./query-parts";
import { type Conversation, conversations, participants, personas } from "./schema";

/** What a list of conversations shows of each (the conversations page, search results). */
export const conversationListColumns = {
  id: conversations.id,
  title: conversations.title,
  personaId: conversations.personaId,
  ownerId: conversations.ownerId,
  visibility: conversations.visibility,
  createdAt: conversations.createdAt,
  updatedAt: conversations.updatedAt,
};

/** The conversations `userId` may read: their own, and those they are a member of (an invitation is not yet). */
export function readableBy(db: Database, userId: string): SQL {
  // The ids first, from the two indexes (owner, membership), then the rows by id: `ownerId = … or id in (…)` made
  // Postgres read every conversation to test the second half (tests/api/query-plans.test.ts).
  const readableIds = union(
    db
      .select({ conversationId: conversations.id })
      .from(conversations)
      .where(eq(conversations.ownerId, userId)),
    db
      .select({ conversationId: participants.conversationId })
      .from(participants)
      .where(and(eq(participants.userId, userId), ne(participants.role, "invited"))),
  );
  return inArray(conversations.id, readableIds);
}

export async function listConversations({ db, userId, titleQuery }: UserArgs & { titleQuery?: string }) {
  const readable = readableBy(db, userId);
  // The title filter matches the words literally: LIKE wildcards in what the user typed are escaped.
  const titleFilter = titleQuery
    ? ilike(conversations.title, `%${titleQuery.replace(/[\\%_]/g, "\\$&")}%`)
    : undefined;
  return db
    .select(conversationListColumns)
    .from(conversations)
    .where(titleFilter ? and(readable, titleFilter) : readable)
    .orderBy(desc(conversations.updatedAt));
}

export async function createConversation({
  db,
  ...fields
}: { db: Database } & Pick<NewConversation, "ownerId" | "personaId" | "title">): Promise<Conversation> {
  return db.transaction((tx) => insertConversationWithOwner(tx, fields));
}

type NewConversation = typeof conversations.$inferInsert;

/**
 * A new conversation with its owner as its first member: every way a conversation is made (new, branch, import)
 * stores it through here.
 */
export async function insertConversationWithOwner(
  tx: Transaction,
  fields: NewConversation,
): Promise<Conversation> {
  const [conversation] = await tx.insert(conversations).values(fields).returning();
  await tx
    .insert(participants)
    .values({ conversationId: conversation.id, userId: conversation.ownerId, role: "owner" });
  return conversation;
}

export type ReadableConversationArgs = ConversationArgs & { userId: string };

/**
 * The conversation, with its persona, if the user owns it or takes part in it (not only invited); otherwise not
 * found (never "forbidden": no leak).
 */
async function readableConversationRow({ db, conversationId, userId }: ReadableConversationArgs) {
  return onlyRow(await readableConversationStatement(db).execute({ conversationId, userId }), "Conversation");
}

/**
 * How a statement reading one conversation (the `conversationId` placeholder's, or the one the expression given
 * finds) for `userId` decides they may: joined to the reader's membership (`membership`, for a left join of
 * participants), it `mayRead` when they own it or have joined it (an invitation is not yet).
 */
export function readerOfConversation(
  userId: Placeholder | SQL,
  conversationId: Placeholder | SQL = sql.placeholder("conversationId"),
) {
  return {
    membership: and(
      eq(participants.conversationId, conversations.id),
      eq(participants.userId, userId),
      ne(participants.role, "invited"),
    ),
    mayRead: and(
      eq(conversations.id, conversationId),
      or(eq(conversations.ownerId, userId), eq(participants.userId, userId)),
    ),
  };
}

const readableConversationStatement = preparedStatement("readableConversationRow", (db) => {
  const reader = readerOfConversation(sql.placeholder("userId"));
  return db
    .select({ conversation: conversations, persona: personas })
    .from(conversations)
    .leftJoin(participants, reader.membership)
    .leftJoin(personas, eq(personas.id, conversations.personaId))
    .where(reader.mayRead)
    .limit(1);
});

/**
 * The conversation, or undefined when it is gone, whoever asks: for the server's own work on it (a title being
 * generated) and for an admin. A person's request reads it through getReadableConversation.
 */
export async function findConversation({
  db,
  conversationId,
}: ConversationArgs): Promise<Conversation | undefined> {
  const [conversation] = await db.select().from(conversations).where(eq(conversations.id, conversationId));
  return conversation;
}

/** The conversation if the user owns it or takes part in it; otherwise not found (never "forbidden": no leak). */
export async function getReadableConversation(args: ReadableConversationArgs): Promise<Conversation> {
  return (await readableConversationRow(args)).conversation;
}

/** Only the owner may change or delete a conversation: anyone else who may read it gets 403 with `refusal`. */
export async function getOwnedConversation(args: {
  db: Database;
  conversationId: string;
  userId: string;
  refusal?: string;
}): Promise<Conversation> {
  const conversation = await getReadableConversation(args);
  if (conversation.ownerId !== args.userId) {
    throw new AppError("forbidden", args.refusal ?? "Only the conversation's owner can change it.");
  }
  return conversation;
}

export async function updateConversation({
  db,
  conversationId,
  changes,
}: {
  db: Database;
  conversationId: string;
  changes: Partial<
    Pick<Conversation, "title" | "settingsOverride" | "instructions" | "personaId" | "visibility" | "modelId">
  >;
}): Promise<Conversation> {
  const [updated] = await db
    .update(conversations)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(conversations.id, conversationId))
    .returning();
  return updated;
}

export async function deleteConversation({ db, conversationId }: ConversationArgs) {
  await db.delete(conversations).where(eq(conversations.id, conversationId));
}
