// Reading a conversation's rows for export, and storing an imported archive as a new conversation in one
// transaction (docs/architecture.md, "Export and import"). lib/export checks the archive and gives the rows fresh
// ids before they reach here.

import { asc, eq, inArray } from "drizzle-orm";
import type { Database } from "./client";
import type { ConversationArgs } from "./query-parts";
import {
  artifacts,
  attachmentBlobs,
  attachments,
  attempts,
  conversations,
  messages,
  messageVersions,
  summaries,
  turns,
} from "./schema";

/** Every stored row of a conversation that an archive holds, except attempts (exported through their views). */
export async function listConversationArchiveRows({ db, conversationId }: ConversationArgs) {
  const messageRows = await db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.seq));
  const messageIds = messageRows.map((row) => row.id);
  const [versionRows, attachmentRows, artifactRows, summaryRows] = await Promise.all([
    messageIds.length > 0
      ? db
          .select()
          .from(messageVersions)
          .where(inArray(messageVersions.messageId, messageIds))
          .orderBy(asc(messageVersions.createdAt), asc(messageVersions.id))
      : [],
    // Uploads not yet sent with a message are not part of the conversation yet.
    messageIds.length > 0
      ? db
          .select()
          .from(attachments)
          .where(inArray(attachments.messageId, messageIds))
          .orderBy(asc(attachments.id))
      : [],
    db
      .select()
      .from(artifacts)
      .where(eq(artifacts.conversationId, conversationId))
      .orderBy(asc(artifacts.id)),
    db
      .select()
      .from(summaries)
      .where(eq(summaries.conversationId, conversationId))
      .orderBy(asc(summaries.createdAt), asc(summaries.id)),
  ]);
  const storageKeys = [...new Set(attachmentRows.map((row) => row.storageKey))];
  const blobRows =
    storageKeys.length > 0
      ? await db.select().from(attachmentBlobs).where(inArray(attachmentBlobs.storageKey, storageKeys))
      : [];
  return { messageRows, versionRows, attachmentRows, artifactRows, summaryRows, blobRows };
}

type Insert<Table extends { $inferInsert: unknown }> = Table["$inferInsert"];

/** The rows of an imported conversation, ids already fresh and references rewritten (lib/export). */
export interface ConversationRowsToInsert {
  conversation: Insert<typeof conversations> & { id: string };
  summaries: Insert<typeof summaries>[];
  messages: Insert<typeof messages>[];
  messageVersions: Insert<typeof messageVersions>[];
  blobs: Insert<typeof attachmentBlobs>[];
  attachments: Insert<typeof attachments>[];
  artifacts: Insert<typeof artifacts>[];
  turns: Insert<typeof turns>[];
  attempts: Insert<typeof attempts>[];
}

/**
 * Store an imported conversation: all of it, or nothing. Blobs already stored (same sha256) are shared. Returns the
 * stored conversation row.
 */
export async function insertConversationRows({ db, rows }: { db: Database; rows: ConversationRowsToInsert }) {
  return db.transaction(async (tx) => {
    const [conversation] = await tx.insert(conversations).values(rows.conversation).returning();
    // Summaries before the messages they cover; messages before their versions, attachments and artifacts.
    if (rows.summaries.length > 0) await tx.insert(summaries).values(rows.summaries);
    if (rows.messages.length > 0) await tx.insert(messages).values(rows.messages);
    if (rows.messageVersions.length > 0) await tx.insert(messageVersions).values(rows.messageVersions);
    if (rows.blobs.length > 0) await tx.insert(attachmentBlobs).values(rows.blobs).onConflictDoNothing();
    if (rows.attachments.length > 0) await tx.insert(attachments).values(rows.attachments);
    if (rows.artifacts.length > 0) await tx.insert(artifacts).values(rows.artifacts);
    if (rows.turns.length > 0) await tx.insert(turns).values(rows.turns);
    if (rows.attempts.length > 0) await tx.insert(attempts).values(rows.attempts);
    return conversation;
  });
}
