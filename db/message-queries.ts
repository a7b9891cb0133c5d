// Query functions for the messages of a conversation and their parts: appending one with the next seq (and its
// images), finishing a reply with its artifacts, reading the transcript and a turn's window; and what a user does
// to them besides sending: reply variants (regenerate, retry, choose), edits in place with earlier versions kept,
// and branches (docs/features.md, "Variants, edits and branches"). Every one of the latter checks that the message
// belongs to the conversation; who may do it is the route's rule.

import "server-only";
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, ne, or, sql } from "drizzle-orm";
import { monotonicFactory } from "ulid";
import { v7 as uuidv7 } from "uuid";
import { artifactTokenCounts, messageTokenCounts } from "@/lib/context/token-cache";
import { AppError, notFound } from "@/lib/domain/errors";
import type { StoredPart } from "@/lib/domain/types";
import type { Database } from "./client";
import { encodedPlaceholder, isAnyOf, preparedStatement } from "./prepared-statements";
import {
  type AfterSeqArgs,
  type ConversationArgs,
  findMessageInConversation,
  type MessageArgs,
  type MessageInConversationArgs,
  type Transaction,
  unsummarisedMessagesAfter,
} from "./query-parts";
import {
  artifacts,
  attachments,
  attempts,
  type Conversation,
  conversations,
  type Message,
  messages,
  messageVersions,
  summaries,
  turns,
} from "./schema";

export async function getMessageInConversation(args: MessageInConversationArgs): Promise<Message> {
  const row = await findMessageInConversation(args);
  if (!row) throw notFound("Message");
  return row;
}

/** The message a client already sent under this id, if any (sending it again never stores it twice). */
export async function findMessageByClientId({
  db,
  conversationId,
  clientMessageId,
}: ConversationArgs & { clientMessageId: string }): Promise<Message | null> {
  const [row] = await messageByClientIdStatement(db).execute({ conversationId, clientMessageId });
  return row ?? null;
}

/** Every message the chat UI sends asks this first: prepared, like the rest of a turn's reads. */
const messageByClientIdStatement = preparedStatement("findMessageByClientId", (db) =>
  db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, sql.placeholder("conversationId")),
        eq(messages.clientMessageId, sql.placeholder("clientMessageId")),
      ),
    ),
);

/**
 * The reply to regenerate (or retry) and the user message it answers. Only the latest exchange can get a new
 * variant: a reply further up would change what every later turn was answering (branch from it instead).
 */
export async function getReplyToRegenerate({
  db,
  conversationId,
  replyMessageId,
}: ConversationArgs & { replyMessageId: string }): Promise<{ reply: Message; userMessage: Message }> {
  const reply = await getMessageInConversation({ db, conversationId, messageId: replyMessageId });
  if (reply.authorType !== "persona" || !reply.replyToMessageId) {
    throw new AppError("bad_request", "messageId: only a reply of the persona can be regenerated.");
  }
  const userMessage = await getMessageInConversation({
    db,
    conversationId,
    messageId: reply.replyToMessageId,
  }).catch(() => null);
  if (userMessage?.authorType !== "user" || !userMessage.chosen) {
    throw new AppError("conflict", "This reply answers no message that is still in the conversation.");
  }
  if (userMessage.summarizedBy) {
    throw new AppError(
      "conflict",
      "This reply's message is summarised: the model sees it only as a summary.",
    );
  }
  await refuseUnlessLatestExchange(db, conversationId, userMessage, "regenerated");
  return { reply, userMessage };
}

/**
 * Only the latest exchange's reply can change (a new variant, or another one chosen): a reply further up would
 * change what every later turn was answering. Branch from it instead.
 */
async function refuseUnlessLatestExchange(
  db: Database | Transaction,
  conversationId: string,
  userMessage: Pick<Message, "id" | "seq">,
  what: "regenerated" | "chosen",
): Promise<void> {
  // Anything chosen after the user message, other than its own replies, means the exchange is not the latest.
  const [later] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        gt(messages.seq, userMessage.seq),
        eq(messages.chosen, true),
        or(isNull(messages.replyToMessageId), ne(messages.replyToMessageId, userMessage.id)),
      ),
    )
    .limit(1);
  if (later) {
    throw new AppError(
      "conflict",
      `Only the latest reply's variants can be ${what}: branch from this message to take another path.`,
    );
  }
}

export interface ReplyVariant {
  id: string;
  status: Message["status"];
  chosen: boolean;
}

/**
 * Every reply with more than one variant, by the user message it answers, oldest variant first. A failed variant
 * that is not chosen is left out: a retry replaced it.
 */
export async function listReplyVariants({
  db,
  conversationId,
}: ConversationArgs): Promise<Map<string, ReplyVariant[]>> {
  const rows = await db
    .select({
      id: messages.id,
      status: messages.status,
      chosen: messages.chosen,
      replyToMessageId: messages.replyToMessageId,
    })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        eq(messages.authorType, "persona"),
        isNotNull(messages.replyToMessageId),
        or(eq(messages.chosen, true), ne(messages.status, "error")),
      ),
    )
    .orderBy(asc(messages.seq));
  const byUserMessage = new Map<string, ReplyVariant[]>();
  for (const { replyToMessageId, ...variant } of rows) {
    if (!replyToMessageId) continue;
    byUserMessage.set(replyToMessageId, [...(byUserMessage.get(replyToMessageId) ?? []), variant]);
  }
  for (const [userMessageId, variants] of byUserMessage) {
    if (variants.length < 2) byUserMessage.delete(userMessageId);
  }
  return byUserMessage;
}

/** Make this variant the one shown and sent; its siblings stay, unchosen. */
export async function chooseReplyVariant({ db, conversationId, messageId }: MessageArgs): Promise<Message> {
  return db.transaction(async (tx) => {
    const variant = await getMessageInConversation({ db: tx, conversationId, messageId });
    if (variant.authorType !== "persona" || !variant.replyToMessageId) {
      throw new AppError("bad_request", "chosen: only a reply of the persona has variants to choose from.");
    }
    const answered = await getMessageInConversation({
      db: tx,
      conversationId,
      messageId: variant.replyToMessageId,
    });
    await refuseUnlessLatestExchange(tx, conversationId, answered, "chosen");
    await tx
      .update(messages)
      .set({ chosen: false })
      .where(
        and(
          eq(messages.conversationId, conversationId),
          eq(messages.replyToMessageId, variant.replyToMessageId),
          eq(messages.authorType, "persona"),
        ),
      );
    const [chosen] = await tx
      .update(messages)
      .set({ chosen: true })
      .where(eq(messages.id, messageId))
      .returning();
    return chosen;
  });
}

/** The parts a message has once its text is replaced: media and tool calls stay, in order; the text comes last. */
function partsWithText(parts: StoredPart[], text: string): StoredPart[] {
  const kept = parts.filter((part) => part.type !== "text");
  return text ? [...kept, { type: "text", text }] : kept;
}

/** Who edits which message: the version an edit replaces is kept, naming its editor. */
type MessageEditArgs = MessageArgs & { editorId: string };

/**
 * Edit a message in place. The version it replaces is kept (restorable); the token counts are cached anew. An
 * edited reply counts as complete: its text is what the user decided the model said.
 */
export async function editMessageText({
  text,
  ...edit
}: MessageEditArgs & { text: string }): Promise<Message> {
  return replaceEditableParts(edit, async (_tx, current) => {
    const parts = partsWithText(current.parts, text);
    if (parts.length === 0) throw new AppError("bad_request", "text: a message cannot be left empty.");
    return parts;
  });
}

/** Make an earlier version current again; the current one becomes a version in its turn. */
export async function restoreMessageVersion({
  versionId,
  ...edit
}: MessageEditArgs & { versionId: string }): Promise<Message> {
  return replaceEditableParts(edit, async (tx, current) => {
    const [version] = await tx
      .select()
      .from(messageVersions)
      .where(and(eq(messageVersions.id, versionId), eq(messageVersions.messageId, current.id)));
    if (!version) throw notFound("Version");
    await tx.delete(messageVersions).where(eq(messageVersions.id, versionId));
    return version.parts;
  });
}

/** In one transaction, give a message that may be edited the parts `newParts` makes from it. */
async function replaceEditableParts(
  { db, conversationId, messageId, editorId }: MessageEditArgs,
  newParts: (tx: Transaction, current: Message) => Promise<StoredPart[]>,
): Promise<Message> {
  return db.transaction(async (tx) => {
    const current = await editableMessage(tx, conversationId, messageId);
    return replaceParts(tx, current, await newParts(tx, current), editorId);
  });
}

async function editableMessage(tx: Transaction, conversationId: string, messageId: string): Promise<Message> {
  const current = await getMessageInConversation({ db: tx, conversationId, messageId });
  if (current.summarizedBy) {
    throw new AppError(
      "conflict",
      "This message is summarised: the model sees it only through the summary. Edit the summary instead.",
    );
  }
  if (current.status === "streaming") {
    throw new AppError("conflict", "This reply is still being written: stop it or wait to edit it.");
  }
  return current;
}

async function replaceParts(
  tx: Transaction,
  current: Message,
  parts: StoredPart[],
  editorId: string,
): Promise<Message> {
  await tx
    .insert(messageVersions)
    .values({ messageId: current.id, parts: current.parts, replacedBy: editorId });
  const [updated] = await tx
    .update(messages)
    .set({
      parts,
      ...messageTokenCounts(parts),
      segmentTokenCounts: null,
      ...(current.authorType === "persona" ? { status: "complete" as const } : {}),
      editedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(messages.id, current.id))
    .returning();
  return updated;
}

/** A message's earlier versions, oldest first. */
export async function listMessageVersions({ db, messageId }: { db: Database; messageId: string }) {
  return db
    .select({ id: messageVersions.id, parts: messageVersions.parts, createdAt: messageVersions.createdAt })
    .from(messageVersions)
    .where(eq(messageVersions.messageId, messageId))
    .orderBy(asc(messageVersions.createdAt), asc(messageVersions.id));
}

/**
 * "Branch from here": a new private conversation of `ownerId` holding the chosen messages up to and including
 * `messageId` (their media and tool calls copied), and the active summary when it covers only messages before
 * that point. Seqs are kept, so the new conversation's payload is the original's at that point.
 */
export async function branchConversation({
  db,
  source,
  messageId,
  ownerId,
}: {
  db: Database;
  source: Conversation;
  messageId: string;
  ownerId: string;
}): Promise<Conversation> {
  return db.transaction(async (tx) => {
    const at = await getMessageInConversation({ db: tx, conversationId: source.id, messageId });
    if (!at.chosen)
      throw new AppError("conflict", "Choose this variant first: a branch follows the chosen path.");
    if (at.status === "streaming") throw new AppError("conflict", "This reply is still being written.");
    const [branch] = await tx
      .insert(conversations)
      .values({
        ownerId,
        personaId: source.personaId,
        title: `${source.title} (branch)`.slice(0, 200),
        visibility: "private",
        settingsOverride: source.settingsOverride,
        instructions: source.instructions,
        lastSeq: at.seq,
        branchedFromConversationId: source.id,
        branchedFromMessageId: at.id,
      })
      .returning();

    const rows = await tx
      .select()
      .from(messages)
      .where(
        and(eq(messages.conversationId, source.id), lte(messages.seq, at.seq), eq(messages.chosen, true)),
      )
      .orderBy(asc(messages.seq));
    const [activeSummary] = await tx
      .select()
      .from(summaries)
      .where(and(eq(summaries.conversationId, source.id), isNull(summaries.supersededBy)))
      .orderBy(desc(summaries.createdAt))
      .limit(1);
    const summary = activeSummary && activeSummary.coversThroughSeq < at.seq ? activeSummary : null;
    const summaryId = summary ? uuidv7() : null;
    if (summary && summaryId) {
      const { id: _id, conversationId: _conversationId, createdAt: _createdAt, ...fields } = summary;
      await tx.insert(summaries).values({ ...fields, id: summaryId, conversationId: branch.id });
    }

    const messageIdFor = new Map(rows.map((row) => [row.id, uuidv7()]));
    const sourceIds = rows.map((row) => row.id);
    const attachmentRows =
      sourceIds.length > 0
        ? await tx.select().from(attachments).where(inArray(attachments.messageId, sourceIds))
        : [];
    const artifactRows =
      sourceIds.length > 0
        ? await tx
            .select()
            .from(artifacts)
            .where(inArray(artifacts.messageId, sourceIds))
            .orderBy(asc(artifacts.id))
        : [];
    const attachmentIdFor = new Map(attachmentRows.map((row) => [row.id, uuidv7()]));
    // Artifacts are replayed in id order: fresh ids from a monotonic source keep that order.
    const nextArtifactId = monotonicFactory();
    const artifactIdFor = new Map(artifactRows.map((row) => [row.id, nextArtifactId()]));

    if (rows.length > 0) {
      await tx.insert(messages).values(
        rows.map(({ id, createdAt: _createdAt, updatedAt: _updatedAt, ...row }) => ({
          ...row,
          id: messageIdFor.get(id) as string,
          conversationId: branch.id,
          clientMessageId: null,
          replyToMessageId: row.replyToMessageId ? (messageIdFor.get(row.replyToMessageId) ?? null) : null,
          summarizedBy: summaryId && row.seq <= (summary?.coversThroughSeq ?? 0) ? summaryId : null,
          parts: row.parts.map((part): StoredPart => {
            if (part.type === "media")
              return { ...part, attachmentId: attachmentIdFor.get(part.attachmentId) ?? part.attachmentId };
            if (part.type === "artifact")
              return { ...part, artifactId: artifactIdFor.get(part.artifactId) ?? part.artifactId };
            return part;
          }),
        })),
      );
    }
    // An attachment or artifact of a copied message (never of none: they were read by message) is copied with it.
    const copyIntoBranch = <Row extends { id: string; createdAt: Date; messageId: string | null }>(
      { id, createdAt: _createdAt, ...row }: Row,
      idFor: Map<string, string>,
    ) => ({
      ...row,
      id: idFor.get(id) as string,
      conversationId: branch.id,
      messageId: messageIdFor.get(row.messageId as string) as string,
    });
    if (attachmentRows.length > 0) {
      await tx.insert(attachments).values(attachmentRows.map((row) => copyIntoBranch(row, attachmentIdFor)));
    }
    if (artifactRows.length > 0) {
      await tx.insert(artifacts).values(artifactRows.map((row) => copyIntoBranch(row, artifactIdFor)));
    }
    return branch;
  });
}

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
