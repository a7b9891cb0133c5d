// Query functions for what a user does to the messages of a conversation besides sending: reply variants
// (regenerate, retry, choose), edits in place with earlier versions kept, and branches (docs/features.md,
// "Variants, edits and branches"). Every one checks that the message belongs to the conversation; who may do it
// is the route's rule.

import "server-only";
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, ne, or, sql } from "drizzle-orm";
import { monotonicFactory } from "ulid";
import { v7 as uuidv7 } from "uuid";
import { messageTokenCounts } from "@/lib/context/token-cache";
import type { StoredPart } from "@/lib/context/types";
import { AppError, notFound } from "@/lib/errors";
import type { Database } from "./client";
import { preparedStatement } from "./prepared-statements";
import {
  type ConversationArgs,
  findMessageInConversation,
  type MessageArgs,
  type MessageInConversationArgs,
  type Transaction,
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
