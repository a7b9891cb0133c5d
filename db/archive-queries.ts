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
  // The messages by a subquery, not a list of their ids: a list is one bind parameter per message, and a
  // statement takes at most 65 535 of them (an archive holds up to 100 000 messages).
  const messageIds = db
    .select({ id: messages.id })
    .from(messages)
    .where(eq(messages.conversationId, conversationId));
  const [versionRows, attachmentRows, artifactRows, summaryRows] = await Promise.all([
    db
      .select()
      .from(messageVersions)
      .where(inArray(messageVersions.messageId, messageIds))
      .orderBy(asc(messageVersions.createdAt), asc(messageVersions.id)),
    // Uploads not yet sent with a message are not part of the conversation yet.
    db
      .select()
      .from(attachments)
      .where(inArray(attachments.messageId, messageIds))
      .orderBy(asc(attachments.id)),
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
 * Rows per INSERT statement. A statement carries one bind parameter per column of each row, at most 65 535 in all
 * (the widest table here, attempts, has 19 columns: 19 000), and drizzle builds its SQL by recursion whose depth
 * grows with the rows, which overflowed the stack at about 6 000 messages in one statement. 1 000 rows stay far
 * below both and store 100 000 messages in 100 statements.
 */
export const IMPORT_BATCH_ROWS = 1_000;

function batches<Row>(rows: Row[]): Row[][] {
  const result: Row[][] = [];
  for (let start = 0; start < rows.length; start += IMPORT_BATCH_ROWS)
    result.push(rows.slice(start, start + IMPORT_BATCH_ROWS));
  return result;
}

/**
 * Store an imported conversation: all of it, or nothing (one transaction; its statements are batches of
 * IMPORT_BATCH_ROWS rows). Blobs already stored (same sha256) are shared. Returns the stored conversation row.
 */
export async function insertConversationRows({ db, rows }: { db: Database; rows: ConversationRowsToInsert }) {
  return db.transaction(async (tx) => {
    const [conversation] = await tx.insert(conversations).values(rows.conversation).returning();
    // Summaries before the messages they cover; messages before their versions, attachments and artifacts.
    for (const batch of batches(rows.summaries)) await tx.insert(summaries).values(batch);
    for (const batch of batches(rows.messages)) await tx.insert(messages).values(batch);
    for (const batch of batches(rows.messageVersions)) await tx.insert(messageVersions).values(batch);
    for (const batch of batches(rows.blobs))
      await tx.insert(attachmentBlobs).values(batch).onConflictDoNothing();
    for (const batch of batches(rows.attachments)) await tx.insert(attachments).values(batch);
    for (const batch of batches(rows.artifacts)) await tx.insert(artifacts).values(batch);
    for (const batch of batches(rows.turns)) await tx.insert(turns).values(batch);
    for (const batch of batches(rows.attempts)) await tx.insert(attempts).values(batch);
    return conversation;
  });
}
