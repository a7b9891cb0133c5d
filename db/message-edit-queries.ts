// Edits in place: a message's text replaced (the version it replaces is kept, restorable) and its earlier
// versions (docs/features.md, "Variants, edits and branches"). Every function checks that the message belongs to
// the conversation; who may do it is the route's rule.

import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { messageTokenCounts } from "@/lib/context/token-cache";
import { AppError, notFound } from "@/lib/domain/errors";
import type { StoredPart } from "@/lib/domain/types";
import type { Database } from "./client";
import { getMessageInConversation } from "./message-queries";
import { forkQuestionIfAnswered } from "./message-tree-queries";
import type { MessageArgs, Transaction } from "./query-parts";
import { type Message, messages, messageVersions } from "./schema";

/** The parts a message has once its text is replaced: media and tool calls stay, in order; the text comes last. */
function partsWithText(parts: StoredPart[], text: string): StoredPart[] {
  const kept = parts.filter((part) => part.type !== "text");
  return text ? [...kept, { type: "text", text }] : kept;
}

/** Who edits which message: the version an edit replaces is kept, naming its editor. */
type MessageEditArgs = MessageArgs & { editorId: string };

/**
 * Edit a message: a user's question that already has later messages forks (a new version of it is returned, with
 * its own id); anything else is edited in place. The version it replaces is kept (restorable); the token counts are cached anew. An
 * edited reply counts as complete: its text is what the user decided the model said.
 */
export async function editMessageText({
  text,
  ...edit
}: MessageEditArgs & { text: string }): Promise<Message> {
  const { db, conversationId, messageId, editorId } = edit;
  return db.transaction(async (tx) => {
    const current = await editableMessage(tx, conversationId, messageId);
    const parts = partsWithText(current.parts, text);
    if (parts.length === 0) throw new AppError("bad_request", "text: a message cannot be left empty.");
    // A question that was answered forks instead (message-tree-queries.ts): the answer stays with the old text.
    const fork = current.authorType === "user" ? await forkQuestionIfAnswered(tx, current, parts) : null;
    return fork ?? replaceParts(tx, current, parts, editorId);
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
