// Small server-side query functions, one verb and noun each, with named arguments. Routes and the turn runner
// use only these, so every access rule lives in one place.

import "server-only";
import { createHash } from "node:crypto";
import {
  and,
  asc,
  desc,
  eq,
  gt,
  ilike,
  inArray,
  isNotNull,
  isNull,
  ne,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import { union } from "drizzle-orm/pg-core";
import { v7 as uuidv7 } from "uuid";
import { z } from "zod";
import { artifactTokenCounts, messageTokenCounts } from "@/lib/context/token-cache";
import type { StoredPart } from "@/lib/context/types";
import { AppError, notFound } from "@/lib/errors";
import type { Database } from "./client";
import { encodedPlaceholder, isAnyOf, preparedStatement } from "./prepared-statements";
import {
  type AfterSeqArgs,
  type ConversationArgs,
  onlyRow,
  type UserArgs,
  unsummarisedMessagesAfter,
} from "./query-parts";
import {
  type Attachment,
  artifacts,
  attachmentBlobs,
  attachments,
  attempts,
  type Conversation,
  conversations,
  type Message,
  type Model,
  memories,
  messages,
  models,
  type Persona,
  participants,
  personas,
  personaUserBlocks,
  settingsVersions,
  summaries,
  turns,
  user,
} from "./schema";

// ---------------------------------------------------------------------------------------------------------------
// Conversations

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
  ownerId,
  personaId,
  title,
}: {
  db: Database;
  ownerId: string;
  personaId: string;
  title: string;
}): Promise<Conversation> {
  return db.transaction(async (tx) => {
    const [conversation] = await tx.insert(conversations).values({ ownerId, personaId, title }).returning();
    await tx.insert(participants).values({ conversationId: conversation.id, userId: ownerId, role: "owner" });
    return conversation;
  });
}

type ReadableConversationArgs = ConversationArgs & { userId: string };

/**
 * The conversation, with its persona, if the user owns it or takes part in it (not only invited); otherwise not
 * found (never "forbidden": no leak).
 */
async function readableConversationRow({ db, conversationId, userId }: ReadableConversationArgs) {
  return onlyRow(await readableConversationStatement(db).execute({ conversationId, userId }), "Conversation");
}

const readableConversationStatement = preparedStatement("readableConversationRow", (db) => {
  const userId = sql.placeholder("userId");
  return db
    .select({ conversation: conversations, persona: personas })
    .from(conversations)
    .leftJoin(
      participants,
      and(
        eq(participants.conversationId, conversations.id),
        eq(participants.userId, userId),
        ne(participants.role, "invited"),
      ),
    )
    .leftJoin(personas, eq(personas.id, conversations.personaId))
    .where(
      and(
        eq(conversations.id, sql.placeholder("conversationId")),
        or(eq(conversations.ownerId, userId), eq(participants.userId, userId)),
      ),
    )
    .limit(1);
});

/** The conversation if the user owns it or takes part in it; otherwise not found (never "forbidden": no leak). */
export async function getReadableConversation(args: ReadableConversationArgs): Promise<Conversation> {
  return (await readableConversationRow(args)).conversation;
}

/** getReadableConversation and its persona in one round trip (every model call opens both). */
export async function getReadableConversationWithPersona(
  args: ReadableConversationArgs,
): Promise<{ conversation: Conversation; persona: Persona }> {
  const { conversation, persona } = await readableConversationRow(args);
  if (!persona) throw notFound("Persona");
  return { conversation, persona };
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

// ---------------------------------------------------------------------------------------------------------------
// Messages

export interface NewMessage {
  /** Preset when the caller needs the id before the row exists (the streamed reply announces it first). */
  id?: string;
  conversationId: string;
  authorType: Message["authorType"];
  authorUserId?: string | null;
  authorPersonaId?: string | null;
  authorName: string;
  parts: StoredPart[];
  status: Message["status"];
  replyToMessageId?: string | null;
  /** The id the client gave a user's message: the same id twice is refused (409), never stored twice. */
  clientMessageId?: string | null;
}

/**
 * Insert a message with the next seq of its conversation, in one transaction (the seq is the one sort key). Its
 * token counts are cached here, at write time, so no later turn tokenises it again. With `attach`, the images its
 * media parts name become this message's in the same transaction: an unsent upload of that user is linked; one
 * already sent in this conversation (a message sent again) is copied for this message. Anything else is refused
 * and nothing is stored. A reply (a persona message with `replyToMessageId`) becomes the chosen variant: the
 * earlier replies to the same message stay, unchosen.
 */
export async function appendMessage({
  db,
  message,
  attach,
}: {
  db: Database;
  message: NewMessage;
  attach?: { attachmentIds: string[]; userId: string };
}): Promise<Message> {
  // A message of a person with no images is one statement (the turn waits for it); a reply (its variants are
  // un-chosen after the counter's lock) or a message with images (checked and linked) is a transaction.
  const stored =
    message.authorType === "user" && !attach?.attachmentIds.length
      ? insertPlainMessage(db, message)
      : db.transaction(async (tx) => insertMessage(tx, message, attach));
  return stored.catch((error) => {
    if (isUniqueViolation(error, "messages_client_id_idx")) {
      throw new AppError(
        "conflict",
        "This message was already sent (its id is stored): it is not sent again.",
      );
    }
    throw error;
  });
}

/**
 * The conversation's counter bumped and the message inserted with its seq, in one statement: the counter row's
 * lock orders the inserts as the transaction does. A conversation that is gone leaves the seq null: not found.
 */
async function insertPlainMessage(db: Database, message: NewMessage): Promise<Message> {
  try {
    const [row] = await plainMessageStatement(db).execute(
      messageValues(message, message.id ?? uuidv7(), message.parts),
    );
    return row;
  } catch (error) {
    if (hasErrorCode(error, "23502")) throw notFound("Conversation");
    throw error;
  }
}

const plainMessageStatement = preparedStatement("insertPlainMessage", (db) => {
  const counter = db.$with("counter", { lastSeq: sql<number>`"lastSeq"` }).as(
    sql`update ${conversations} set "lastSeq" = ${conversations.lastSeq} + 1, "updatedAt" = now()
        where ${conversations.id} = ${sql.placeholder("conversationId")} returning "lastSeq"`,
  );
  return db
    .with(counter)
    .insert(messages)
    .values({ ...messageColumnPlaceholders(), seq: sql`(select "lastSeq" from "counter")` })
    .returning();
});

/**
 * The columns a new message sets, as placeholders (filled by `messageValues`): the same columns for every message,
 * so one prepared statement serves them all. A field the message leaves out is null, as its column's default is.
 */
function messageColumnPlaceholders() {
  return {
    id: sql.placeholder("id"),
    conversationId: sql.placeholder("conversationId"),
    authorType: sql.placeholder("authorType"),
    authorUserId: sql.placeholder("authorUserId"),
    authorPersonaId: sql.placeholder("authorPersonaId"),
    authorName: sql.placeholder("authorName"),
    parts: encodedPlaceholder("parts", messages.parts),
    status: sql.placeholder("status"),
    replyToMessageId: sql.placeholder("replyToMessageId"),
    clientMessageId: sql.placeholder("clientMessageId"),
    tokenCounts: encodedPlaceholder("tokenCounts", messages.tokenCounts),
    segmentTokenCounts: encodedPlaceholder("segmentTokenCounts", messages.segmentTokenCounts),
  };
}

/** The values of messageColumnPlaceholders for a message with this id and these parts (token counts cached). */
function messageValues(message: NewMessage, id: string, parts: StoredPart[]) {
  return {
    id,
    conversationId: message.conversationId,
    authorType: message.authorType,
    authorUserId: message.authorUserId ?? null,
    authorPersonaId: message.authorPersonaId ?? null,
    authorName: message.authorName,
    parts,
    status: message.status,
    replyToMessageId: message.replyToMessageId ?? null,
    clientMessageId: message.clientMessageId ?? null,
    ...messageTokenCounts(parts),
  };
}

/** Whether Postgres answered with this SQLSTATE (drizzle wraps the driver's error as its cause). */
function hasErrorCode(error: unknown, code: string): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: string }).code === code) return true;
  }
  return false;
}

/** Postgres's unique_violation on the named index (drizzle wraps the driver's error as its cause). */
function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let current = error; current instanceof Error || typeof current === "object"; ) {
    const fields = current as {
      code?: string;
      constraint_name?: string;
      constraint?: string;
      message?: string;
      cause?: unknown;
    };
    if (fields?.code === "23505") {
      return [fields.constraint_name, fields.constraint, fields.message].some((text) =>
        text?.includes(constraint),
      );
    }
    if (!fields?.cause) return false;
    current = fields.cause;
  }
  return false;
}

async function insertMessage(
  tx: Transaction,
  message: NewMessage,
  attach: { attachmentIds: string[]; userId: string } | undefined,
): Promise<Message> {
  const [counter] = await counterStatement(tx).execute({
    conversationId: message.conversationId,
    now: new Date(),
  });
  if (!counter) throw notFound("Conversation");
  // After the counter's row lock: a reply inserted at the same time by another transaction is committed by now,
  // so it is un-chosen too (done before the lock, two concurrent regenerates would both stay chosen).
  if (message.authorType === "persona" && message.replyToMessageId) {
    await unchooseRepliesStatement(tx).execute({
      conversationId: message.conversationId,
      replyToMessageId: message.replyToMessageId,
    });
  }
  const messageId = message.id ?? uuidv7();
  let parts = message.parts;
  let afterInsert: (() => Promise<void>) | null = null;
  if (attach && attach.attachmentIds.length > 0) {
    const plan = await planAttachments(tx, {
      ...attach,
      conversationId: message.conversationId,
      messageId,
    });
    parts = parts.map((part) =>
      part.type === "media"
        ? { ...part, attachmentId: plan.idFor.get(part.attachmentId) ?? part.attachmentId }
        : part,
    );
    afterInsert = plan.apply;
  }
  const [row] = await messageStatement(tx).execute({
    ...messageValues(message, messageId, parts),
    seq: counter.seq,
  });
  await afterInsert?.();
  return row;
}

/** The conversation's counter bumped under its row lock; the new value is the next message's seq. */
const counterStatement = preparedStatement("bumpMessageCounter", (db) =>
  db
    .update(conversations)
    .set({
      lastSeq: sql`${conversations.lastSeq} + 1`,
      updatedAt: encodedPlaceholder("now", conversations.updatedAt),
    })
    .where(eq(conversations.id, sql.placeholder("conversationId")))
    .returning({ seq: conversations.lastSeq }),
);

/** The earlier replies to a message, no longer chosen (a new variant is being inserted). */
const unchooseRepliesStatement = preparedStatement("unchooseReplies", (db) =>
  db
    .update(messages)
    .set({ chosen: false })
    .where(
      and(
        eq(messages.conversationId, sql.placeholder("conversationId")),
        eq(messages.replyToMessageId, sql.placeholder("replyToMessageId")),
        eq(messages.authorType, "persona"),
      ),
    ),
);

const messageStatement = preparedStatement("insertMessage", (db) =>
  db
    .insert(messages)
    .values({ ...messageColumnPlaceholders(), seq: sql.placeholder("seq") })
    .returning(),
);

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Check the named images and say how each becomes the new message's (see appendMessage). */
async function planAttachments(
  tx: Transaction,
  {
    attachmentIds,
    userId,
    conversationId,
    messageId,
  }: { attachmentIds: string[]; userId: string; conversationId: string; messageId: string },
): Promise<{ idFor: Map<string, string>; apply: () => Promise<void> }> {
  const rows = await tx
    .select()
    .from(attachments)
    .where(and(eq(attachments.conversationId, conversationId), inArray(attachments.id, attachmentIds)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const toLink: string[] = [];
  const copies: (typeof attachments.$inferInsert)[] = [];
  const idFor = new Map<string, string>();
  for (const attachmentId of attachmentIds) {
    const row = byId.get(attachmentId);
    const pendingOfUser = row?.messageId === null && row.uploadedBy === userId;
    if (!row || (row.messageId === null && !pendingOfUser) || idFor.has(attachmentId)) {
      throw new AppError(
        "bad_request",
        `message.parts: image ${attachmentId} is not an image you uploaded to this conversation (or it is named twice).`,
      );
    }
    if (pendingOfUser) {
      toLink.push(row.id);
      idFor.set(row.id, row.id);
    } else {
      const { id: _id, createdAt: _createdAt, ...fields } = row;
      const copyId = uuidv7();
      copies.push({ ...fields, id: copyId, messageId });
      idFor.set(row.id, copyId);
    }
  }
  const apply = async () => {
    if (toLink.length > 0) {
      const linked = await tx
        .update(attachments)
        .set({ messageId })
        .where(and(inArray(attachments.id, toLink), isNull(attachments.messageId)))
        .returning({ id: attachments.id });
      // Another message took one of them meanwhile: refuse rather than share it.
      if (linked.length !== toLink.length)
        throw new AppError(
          "conflict",
          "message.parts: an image was just sent with another message; attach it again.",
        );
    }
    if (copies.length > 0) await tx.insert(attachments).values(copies);
  };
  return { idFor, apply };
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
    .where(and(eq(artifacts.conversationId, conversationId), eq(artifacts.type, type)))
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

/** What the transcript shows of an attachment: its type, name, size and (a fetched image link) origin. */
export interface MediaFacts {
  mime: string;
  filename: string | null;
  sizeBytes: number;
  originUrl: string | null;
}

export const MEDIA_FACT_COLUMNS = {
  id: attachments.id,
  mime: attachments.mime,
  filename: attachments.filename,
  sizeBytes: attachments.sizeBytes,
  originUrl: attachments.originUrl,
};

export function mediaFactsById(rows: ({ id: string } & MediaFacts)[]): Map<string, MediaFacts> {
  return new Map(rows.map(({ id, ...facts }) => [id, facts]));
}

/** The facts of every attachment of a conversation's messages, for the transcript. */
export async function listMessageMedia({ db, conversationId }: ConversationArgs) {
  const rows = await db
    .select(MEDIA_FACT_COLUMNS)
    .from(attachments)
    .where(eq(attachments.conversationId, conversationId));
  return mediaFactsById(rows);
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
}: {
  db: Database;
  messageId: string;
  conversationId: string;
  parts: StoredPart[];
  artifacts: { id: string; type: string; payload: Record<string, unknown> }[];
  status: Message["status"];
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
    const [stored] = await tx
      .update(messages)
      .set({ parts, status, ...messageTokenCounts(parts), updatedAt: new Date() })
      .where(eq(messages.id, messageId))
      .returning();
    return stored;
  });
}

/** Returns the message as stored (undefined when it is gone): a reply's live event is made from it, unread. */
export async function updateMessage({
  db,
  messageId,
  parts,
  status,
  countTokens = false,
}: {
  db: Database;
  messageId: string;
  parts?: StoredPart[];
  status?: Message["status"];
  /** Cache the new parts' token counts (once the text is final). */
  countTokens?: boolean;
}): Promise<Message | undefined> {
  const [stored] = await db
    .update(messages)
    .set({
      ...(parts ? { parts } : {}),
      ...(status ? { status } : {}),
      ...(countTokens && parts ? messageTokenCounts(parts) : {}),
      updatedAt: new Date(),
    })
    .where(eq(messages.id, messageId))
    .returning();
  return stored;
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

export async function listAttachmentsForMessages({ db, messageIds }: { db: Database; messageIds: string[] }) {
  if (messageIds.length === 0) return [];
  return attachmentsForMessagesStatement(db).execute({ messageIds });
}

const attachmentsForMessagesStatement = preparedStatement("listAttachmentsForMessages", (db) =>
  db
    .select()
    .from(attachments)
    .where(isAnyOf(attachments.messageId, sql.placeholder("messageIds"))),
);

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
        and(
          eq(artifacts.conversationId, conversationId),
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

export async function getActiveSummary({ db, conversationId }: ConversationArgs) {
  const [row] = await activeSummaryStatement(db).execute({ conversationId });
  return row ?? null;
}

const activeSummaryStatement = preparedStatement("getActiveSummary", (db) =>
  db
    .select()
    .from(summaries)
    .where(
      and(eq(summaries.conversationId, sql.placeholder("conversationId")), isNull(summaries.supersededBy)),
    )
    .orderBy(desc(summaries.createdAt))
    .limit(1),
);

// ---------------------------------------------------------------------------------------------------------------
// Personas, models, settings

export async function getPersona({ db, personaId }: { db: Database; personaId: string }) {
  return onlyRow(await db.select().from(personas).where(eq(personas.id, personaId)).limit(1), "Persona");
}

export async function listPersonas({ db }: { db: Database }) {
  return db.select().from(personas).orderBy(asc(personas.createdAt));
}

export async function getDefaultPersona({ db }: { db: Database }) {
  return onlyRow(
    await db.select().from(personas).orderBy(asc(personas.createdAt)).limit(1),
    () => new AppError("not_found", "No persona exists yet: an admin must create one."),
  );
}

/** The persona an imported conversation talks to: the same id, else the same name, else the default one. */
export async function findPersonaForImport({ db, id, name }: { db: Database; id: string; name: string }) {
  const [byId] = z.uuid().safeParse(id).success
    ? await db.select().from(personas).where(eq(personas.id, id)).limit(1)
    : [];
  if (byId) return { persona: byId, matchedBy: "id" as const };
  const [byName] = await db
    .select()
    .from(personas)
    .where(eq(personas.name, name))
    .orderBy(asc(personas.createdAt))
    .limit(1);
  if (byName) return { persona: byName, matchedBy: "name" as const };
  return { persona: await getDefaultPersona({ db }), matchedBy: "default" as const };
}

export async function getModel({ db, modelId }: { db: Database; modelId: string }) {
  const [row] = await db.select().from(models).where(eq(models.id, modelId)).limit(1);
  return row ?? null;
}

/** The rows of these models that exist, in one query (by id; the caller keeps its own order). */
export async function listModelsById({ db, modelIds }: { db: Database; modelIds: string[] }) {
  if (modelIds.length === 0) return new Map<string, Model>();
  const rows = await modelsByIdStatement(db).execute({ modelIds });
  return new Map(rows.map((row) => [row.id, row]));
}

const modelsByIdStatement = preparedStatement("listModelsById", (db) =>
  db
    .select()
    .from(models)
    .where(isAnyOf(models.id, sql.placeholder("modelIds"))),
);

export async function listModels({ db }: { db: Database }) {
  return db.select().from(models).orderBy(asc(models.id));
}

export async function getCurrentSettings({ db }: { db: Database }) {
  return onlyRow(
    await currentSettingsStatement(db).execute(),
    () => new AppError("internal", "The context policy is missing: the database was not seeded."),
  );
}

const currentSettingsStatement = preparedStatement("getCurrentSettings", (db) =>
  db.select().from(settingsVersions).orderBy(desc(settingsVersions.version)).limit(1),
);

// ---------------------------------------------------------------------------------------------------------------
// What a turn loads besides messages

/** The images of the message with this seq in a conversation, with their base64 bytes (for `analyze_image`). */
export async function listMessageImages({ db, conversationId, seq }: ConversationArgs & { seq: number }) {
  return db
    .select({ id: attachments.id, mime: attachments.mime, data: attachmentBlobs.data, parts: messages.parts })
    .from(attachments)
    .innerJoin(messages, eq(messages.id, attachments.messageId))
    .innerJoin(attachmentBlobs, eq(attachmentBlobs.storageKey, attachments.storageKey))
    .where(
      and(
        eq(attachments.conversationId, conversationId),
        eq(messages.seq, seq),
        eq(attachments.kind, "image"),
      ),
    )
    .orderBy(asc(attachments.createdAt));
}

/** A memory the `remember` tool stores: about this user, for this persona. */
export async function storeToolMemory({
  db,
  userId,
  personaId,
  area,
  content,
}: UserArgs & { personaId: string; area: string; content: string }) {
  const [row] = await db
    .insert(memories)
    .values({ scope: "user_persona", userId, personaId, area, content, active: true })
    .returning();
  return row;
}

/**
 * The memories a turn may use: the persona's own, and unless `includePrivate` is false (a room, where others read
 * the payload), the user's private ones (user and user × persona scope).
 */
export async function listActiveMemories({
  db,
  userId,
  personaId,
  includePrivate = true,
}: UserArgs & { personaId: string; includePrivate?: boolean }) {
  if (!includePrivate) return personaMemoriesStatement(db).execute({ personaId });
  return memoriesWithPrivateStatement(db).execute({ userId, personaId });
}

/** The statement of listActiveMemories, with the user's private scopes or without them. */
function activeMemoriesQuery(db: Database, includePrivate: boolean) {
  const userId = sql.placeholder("userId");
  const personaId = sql.placeholder("personaId");
  const personaScope = and(eq(memories.scope, "persona"), eq(memories.personaId, personaId));
  const privateScopes = [
    and(eq(memories.scope, "user"), eq(memories.userId, userId)),
    and(eq(memories.scope, "user_persona"), eq(memories.userId, userId), eq(memories.personaId, personaId)),
  ];
  return db
    .select()
    .from(memories)
    .where(and(eq(memories.active, true), includePrivate ? or(personaScope, ...privateScopes) : personaScope))
    .orderBy(asc(memories.createdAt), asc(memories.id));
}

const memoriesWithPrivateStatement = preparedStatement("listActiveMemories", (db) =>
  activeMemoriesQuery(db, true),
);
const personaMemoriesStatement = preparedStatement("listActivePersonaMemories", (db) =>
  activeMemoriesQuery(db, false),
);

/** Blocks of a persona that have not expired. */
export async function listActiveBlocks({
  db,
  personaId,
  now,
}: {
  db: Database;
  personaId: string;
  now: Date;
}) {
  return activeBlocksStatement(db).execute({ personaId, now });
}

const activeBlocksStatement = preparedStatement("listActiveBlocks", (db) =>
  db
    .select({ block: personaUserBlocks, userName: user.name })
    .from(personaUserBlocks)
    .innerJoin(user, eq(user.id, personaUserBlocks.userId))
    .where(
      and(
        eq(personaUserBlocks.personaId, sql.placeholder("personaId")),
        or(
          isNull(personaUserBlocks.expiresAt),
          gt(personaUserBlocks.expiresAt, encodedPlaceholder("now", personaUserBlocks.expiresAt)),
        ),
      ),
    ),
);

export async function listParticipants({ db, conversationId }: ConversationArgs) {
  return participantsStatement(db).execute({ conversationId });
}

const participantsStatement = preparedStatement("listParticipants", (db) =>
  db
    .select({
      userId: participants.userId,
      name: user.name,
      role: participants.role,
      joinedAt: participants.joinedAt,
    })
    .from(participants)
    .innerJoin(user, eq(user.id, participants.userId))
    .where(
      and(
        eq(participants.conversationId, sql.placeholder("conversationId")),
        ne(participants.role, "invited"),
      ),
    )
    .orderBy(asc(participants.joinedAt)),
);

/**
 * Invite someone into a conversation by the email of their account (the owner's call). The
 * invitation is pending until the invited account accepts it; until then it grants nothing. Whether the email
 * has an account, or is in the conversation already, is not told: the inviter gets the same answer either way,
 * and an unknown email stores nothing.
 */
export async function inviteParticipant({
  db,
  conversationId,
  email,
}: ConversationArgs & { email: string }): Promise<void> {
  const [invitee] = await db
    .select({ id: user.id })
    .from(user)
    .where(eq(sql`lower(${user.email})`, email.trim().toLowerCase()))
    .limit(1);
  if (!invitee) return;
  await db
    .insert(participants)
    .values({ conversationId, userId: invitee.id, role: "invited" })
    .onConflictDoNothing();
}

/** The invitations waiting for this user's answer, newest first, with who asked and to what. */
export async function listInvitations({ db, userId }: UserArgs) {
  return db
    .select({
      conversationId: conversations.id,
      title: conversations.title,
      invitedBy: user.name,
      invitedAt: participants.joinedAt,
    })
    .from(participants)
    .innerJoin(conversations, eq(conversations.id, participants.conversationId))
    .innerJoin(user, eq(user.id, conversations.ownerId))
    .where(and(eq(participants.userId, userId), eq(participants.role, "invited")))
    .orderBy(desc(participants.joinedAt));
}

/** One person's place in one conversation (the people routes name both). */
type ParticipantArgs = ReadableConversationArgs;

/** The participant row of `userId` in the conversation, when its role passes `role`. */
function participantRow({ conversationId, userId }: ParticipantArgs, role: SQL) {
  return and(eq(participants.conversationId, conversationId), eq(participants.userId, userId), role);
}

/** Accept a pending invitation: the user becomes a member and the conversation a room. 404 when none is pending. */
export async function acceptInvitation(args: ParticipantArgs) {
  const { db, conversationId, userId } = args;
  return db.transaction(async (tx) => {
    const [accepted] = await tx
      .update(participants)
      .set({ role: "member", joinedAt: new Date() })
      .where(participantRow(args, eq(participants.role, "invited")))
      .returning();
    if (!accepted) throw notFound("Invitation");
    await tx.update(conversations).set({ visibility: "room" }).where(eq(conversations.id, conversationId));
    const [named] = await tx.select({ name: user.name }).from(user).where(eq(user.id, userId));
    return { userId, name: named?.name ?? "", role: accepted.role, joinedAt: accepted.joinedAt };
  });
}

/** Decline a pending invitation (the invited user's call). 404 when none is pending. */
export async function declineInvitation(args: ParticipantArgs) {
  await deleteParticipant(args, eq(participants.role, "invited"), "Invitation");
}

/** Take a member out of a conversation, or withdraw a pending invitation (the owner cannot be removed). */
export async function removeParticipant(args: ParticipantArgs) {
  await deleteParticipant(args, ne(participants.role, "owner"), "Member");
}

async function deleteParticipant(args: ParticipantArgs, role: SQL, what: string) {
  const [deleted] = await args.db
    .delete(participants)
    .where(participantRow(args, role))
    .returning({ userId: participants.userId });
  if (!deleted) throw notFound(what);
}

/** The conversation's turn whose reply is still being written, if any (the newest). */
export async function getRunningTurn({ db, conversationId }: ConversationArgs) {
  const [row] = await runningTurnStatement(db).execute({ conversationId });
  return row ?? null;
}

const runningTurnStatement = preparedStatement("getRunningTurn", (db) =>
  db
    .select({ id: turns.id, assistantMessageId: turns.assistantMessageId })
    .from(turns)
    .where(and(eq(turns.conversationId, sql.placeholder("conversationId")), eq(turns.status, "running")))
    .orderBy(desc(turns.createdAt))
    .limit(1),
);

/** Base64 bytes of stored attachments, keyed by storage key. */
export async function loadAttachmentData({ db, storageKeys }: { db: Database; storageKeys: string[] }) {
  if (storageKeys.length === 0) return new Map<string, string>();
  const rows = await attachmentDataStatement(db).execute({ storageKeys });
  return new Map(rows.map((row) => [row.storageKey, row.data]));
}

const attachmentDataStatement = preparedStatement("loadAttachmentData", (db) =>
  db
    .select()
    .from(attachmentBlobs)
    .where(isAnyOf(attachmentBlobs.storageKey, sql.placeholder("storageKeys"))),
);

/**
 * An uploaded file, not yet part of a message (messageId stays null until one is sent with it). The bytes are
 * stored once per sha256, so the same picture uploaded twice is two attachments over one blob.
 */
export async function storeUpload({
  db,
  conversationId,
  uploadedBy,
  bytes,
  mime,
  kind,
  filename,
  width,
  height,
  originUrl = null,
}: {
  db: Database;
  conversationId: string;
  uploadedBy: string;
  bytes: Uint8Array;
  mime: string;
  kind: Attachment["kind"];
  filename: string | null;
  width: number | null;
  height: number | null;
  /** For an image fetched from a link in a message: the link. */
  originUrl?: string | null;
}): Promise<Attachment> {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const storageKey = `db:${sha256}`;
  return db.transaction(async (tx) => {
    const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
    await tx.insert(attachmentBlobs).values({ storageKey, data }).onConflictDoNothing();
    const [attachment] = await tx
      .insert(attachments)
      .values({
        conversationId,
        uploadedBy,
        kind,
        mime,
        filename,
        sizeBytes: bytes.byteLength,
        sha256,
        width,
        height,
        storageKey,
        originUrl,
      })
      .returning();
    return attachment;
  });
}

/**
 * The newest image this conversation already fetched from `originUrl` and that a sent message carries, so the same
 * link in a later message reuses its bytes instead of fetching again (docs/features.md#image-links).
 */
export async function findImageByOrigin({
  db,
  conversationId,
  originUrl,
}: ConversationArgs & { originUrl: string }): Promise<Attachment | null> {
  const [row] = await db
    .select()
    .from(attachments)
    .where(
      and(
        eq(attachments.conversationId, conversationId),
        eq(attachments.originUrl, originUrl),
        isNotNull(attachments.messageId),
      ),
    )
    .orderBy(desc(attachments.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * An attachment and its base64 bytes, only for someone who may read its conversation (the rule of
 * getReadableConversation, applied by it). Null otherwise, so a caller cannot tell "not yours" from "none".
 */
export async function getReadableAttachment({ db, attachmentId, userId }: AttachmentReaderArgs) {
  const [row] = await db
    .select({ attachment: attachments, data: attachmentBlobs.data })
    .from(attachments)
    .innerJoin(attachmentBlobs, eq(attachmentBlobs.storageKey, attachments.storageKey))
    .where(eq(attachments.id, attachmentId))
    .limit(1);
  if (!row) return null;
  return (await mayReadConversation({ db, conversationId: row.attachment.conversationId, userId }))
    ? row
    : null;
}

/** An attachment the user may read, without its bytes (they are read in slices, see readAttachmentBytes). */
export async function getReadableAttachmentInfo({ db, attachmentId, userId }: AttachmentReaderArgs) {
  const [row] = await db.select().from(attachments).where(eq(attachments.id, attachmentId)).limit(1);
  if (!row) return null;
  return (await mayReadConversation({ db, conversationId: row.conversationId, userId })) ? row : null;
}

/** An attachment and who asks for it. */
type AttachmentReaderArgs = UserArgs & { attachmentId: string };

/** Whether the user may read the conversation (getReadableConversation's rule), as a yes or no. */
async function mayReadConversation(args: ReadableConversationArgs): Promise<boolean> {
  try {
    await getReadableConversation(args);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return false;
    throw error;
  }
}

/**
 * Bytes `start` to `end` (inclusive) of a stored blob, read from its base64 text without loading the rest:
 * every 4 base64 characters are 3 bytes, so the slice of text that covers the range is cut in SQL and decoded.
 */
export async function readAttachmentBytes({
  db,
  storageKey,
  start,
  end,
}: {
  db: Database;
  storageKey: string;
  start: number;
  end: number;
}): Promise<Buffer> {
  const firstGroup = Math.floor(start / 3);
  const lastGroup = Math.floor(end / 3);
  const [row] = await db
    .select({
      text: sql<string>`substr(${attachmentBlobs.data}, ${firstGroup * 4 + 1}::int, ${(lastGroup - firstGroup + 1) * 4}::int)`,
    })
    .from(attachmentBlobs)
    .where(eq(attachmentBlobs.storageKey, storageKey));
  if (!row) throw notFound("Attachment");
  const decoded = Buffer.from(row.text, "base64");
  const offset = start - firstGroup * 3;
  return decoded.subarray(offset, offset + (end - start + 1));
}

// ---------------------------------------------------------------------------------------------------------------
// Turns and attempts

/** A conversation's turns in order, each with its attempts as `loadAttempts` selects them (one query for all). */
async function turnsWithAttempts<Row extends { turnId: string | null }>(
  db: Database,
  conversationId: string,
  loadAttempts: (turnIds: string[]) => Promise<Row[]>,
) {
  const turnRows = await db
    .select()
    .from(turns)
    .where(eq(turns.conversationId, conversationId))
    .orderBy(asc(turns.createdAt), asc(turns.id));
  if (turnRows.length === 0) return [];
  const attemptRows = await loadAttempts(turnRows.map((turn) => turn.id));
  return turnRows.map((turn) => ({
    ...turn,
    attempts: attemptRows.filter((attempt) => attempt.turnId === turn.id),
  }));
}

export async function listTurnsWithAttempts({ db, conversationId }: ConversationArgs) {
  return turnsWithAttempts(db, conversationId, (turnIds) =>
    db.select().from(attempts).where(inArray(attempts.turnId, turnIds)).orderBy(asc(attempts.attemptNumber)),
  );
}

/**
 * Turns with their attempts' light columns only (no items, trace, settings or request bodies): the inspector's
 * index of a conversation, whose size does not grow with the payloads. Full attempts come from getAttempt….
 */
export async function listTurnSummaries({ db, conversationId }: ConversationArgs) {
  return turnsWithAttempts(db, conversationId, (turnIds) =>
    db
      .select(attemptSummaryColumns)
      .from(attempts)
      .where(inArray(attempts.turnId, turnIds))
      .orderBy(asc(attempts.attemptNumber)),
  );
}

/** An attempt's light columns: what it was, how it went, its usage and timings, without its payloads. */
export const attemptSummaryColumns = {
  id: attempts.id,
  turnId: attempts.turnId,
  kind: attempts.kind,
  attemptNumber: attempts.attemptNumber,
  stepNumber: attempts.stepNumber,
  modelId: attempts.modelId,
  status: attempts.status,
  error: attempts.error,
  usage: sql<Record<string, number> | null>`${attempts.response} -> 'usage'`,
  /**
   * What an estimate of a stopped or failed attempt's cost is counted from (lib/chat/attempt-cost.ts): the tokens
   * of the items it sent and the text it streamed. Null for any other attempt, so the light rows stay light.
   */
  sentTokens: sql<
    number | null
  >`case when ${attempts.status} in ('stopped', 'error') then (select coalesce(sum((item ->> 'tokens')::numeric), 0)::float8 from jsonb_array_elements(${attempts.items}) as item where item ->> 'tokens' ~ '^[0-9]+$') end`,
  streamedText: sql<
    string | null
  >`case when ${attempts.status} in ('stopped', 'error') then ${attempts.response} ->> 'text' end`,
  timings: attempts.timings,
  settingsVersion: attempts.settingsVersion,
  createdAt: attempts.createdAt,
};

/** An attempt with the conversation it belongs to, for the access check. */
export async function getAttemptWithConversation({ db, attemptId }: { db: Database; attemptId: string }) {
  return onlyRow(
    await db
      .select({ attempt: attempts, conversationId: attempts.conversationId })
      .from(attempts)
      .where(eq(attempts.id, attemptId))
      .limit(1),
    "Attempt",
  );
}

/** Base64 media of a conversation's attachments by sha256, to rebuild elided request bodies. */
export async function loadConversationMediaBySha256({
  db,
  conversationId,
  sha256s,
}: ConversationArgs & { sha256s: string[] }): Promise<Map<string, string>> {
  if (sha256s.length === 0) return new Map();
  const rows = await db
    .select({ sha256: attachments.sha256, data: attachmentBlobs.data })
    .from(attachments)
    .innerJoin(attachmentBlobs, eq(attachmentBlobs.storageKey, attachments.storageKey))
    .where(and(eq(attachments.conversationId, conversationId), inArray(attachments.sha256, sha256s)));
  return new Map(rows.map((row) => [row.sha256, row.data]));
}
