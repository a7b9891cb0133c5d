// Storing a new message of a conversation: the next seq under the counter's lock, its images linked or copied, a
// reply made the chosen variant of the replies to its message.

import "server-only";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { messageTokenCounts } from "@/lib/context/token-cache";
import { AppError, notFound } from "@/lib/domain/errors";
import type { StoredPart } from "@/lib/domain/types";
import type { Database } from "./client";
import { encodedPlaceholder, preparedStatement } from "./prepared-statements";
import type { Transaction } from "./query-parts";
import { attachments, conversations, type Message, messages } from "./schema";

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
  /**
   * The message before it on its path. Left out, a reply's is the message it answers, and anything else's the
   * latest message of the shown path (it extends the path); a fork of an edited question names its original's.
   */
  parentMessageId?: string | null;
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
    .values({
      ...messageColumnPlaceholders(),
      seq: sql`(select "lastSeq" from "counter")`,
      // This statement's snapshot: two messages sent at the same instant may both name the same parent (see
      // listQuestionBranches, which does not take them for versions of one question).
      parentMessageId: sql`(${latestShownMessageId(sql.placeholder("conversationId"))})`,
    })
    .returning();
});

/** The latest message of the conversation's shown path: the parent of a message that extends it. */
function latestShownMessageId(conversationId: unknown) {
  return sql`select ${messages.id} from ${messages} where ${messages.conversationId} = ${conversationId}
    and ${messages.chosen} order by ${messages.seq} desc limit 1`;
}

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
    parentMessageId: sql.placeholder("parentMessageId"),
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
    parentMessageId: message.parentMessageId ?? null,
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

export async function insertMessage(
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
    parentMessageId: await parentOfNewMessage(tx, message),
    seq: counter.seq,
  });
  await afterInsert?.();
  return row;
}

/** Where a message inserted under the counter's lock joins the tree (see NewMessage.parentMessageId). */
async function parentOfNewMessage(tx: Transaction, message: NewMessage): Promise<string | null> {
  if (message.parentMessageId !== undefined) return message.parentMessageId;
  if (message.authorType === "persona" && message.replyToMessageId) return message.replyToMessageId;
  const [latest] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.conversationId, message.conversationId), eq(messages.chosen, true)))
    .orderBy(desc(messages.seq))
    .limit(1);
  return latest?.id ?? null;
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
    .set({ chosen: false, chosenAmongSiblings: false })
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
