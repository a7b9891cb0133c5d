// "Branch from here": a new conversation holding the chosen path up to a message (docs/features.md, "Variants,
// edits and branches").

import "server-only";
import { and, asc, desc, eq, inArray, isNull, lte } from "drizzle-orm";
import { monotonicFactory } from "ulid";
import { v7 as uuidv7 } from "uuid";
import { AppError } from "@/lib/domain/errors";
import type { StoredPart } from "@/lib/domain/types";
import type { Database } from "./client";
import { insertConversationWithOwner } from "./conversation-queries";
import { getMessageInConversation } from "./message-queries";
import { artifacts, attachments, type Conversation, messages, summaries } from "./schema";

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
    const branch = await insertConversationWithOwner(tx, {
      ownerId,
      personaId: source.personaId,
      title: `${source.title} (branch)`.slice(0, 200),
      visibility: "private",
      settingsOverride: source.settingsOverride,
      instructions: source.instructions,
      lastSeq: at.seq,
      branchedFromConversationId: source.id,
      branchedFromMessageId: at.id,
    });

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
          parentMessageId: row.parentMessageId ? (messageIdFor.get(row.parentMessageId) ?? null) : null,
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
