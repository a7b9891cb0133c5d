// Reading a conversation's rows for export, and storing an imported archive as a new conversation in one
// transaction (docs/features.md, "Export and import"). lib/export checks the archive and gives the rows fresh
// ids before they reach here.

import { asc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Database } from "./client";
import { insertConversationWithOwner } from "./conversation-queries";
import type { ConversationArgs } from "./query-parts";
import { queryRows } from "./raw-sql";
import {
  artifacts,
  attachmentBlobs,
  attachments,
  attempts,
  type conversations,
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

/** Every row with its id set: ids made in JavaScript (`$defaultFn`) are not the database's defaults. */
type WithId<Row> = Row & { id: string };

/** The rows of an imported conversation, ids already fresh and references rewritten (lib/export). */
export interface ConversationRowsToInsert {
  conversation: WithId<Insert<typeof conversations>>;
  summaries: WithId<Insert<typeof summaries>>[];
  messages: WithId<Insert<typeof messages>>[];
  messageVersions: WithId<Insert<typeof messageVersions>>[];
  blobs: Insert<typeof attachmentBlobs>[];
  attachments: WithId<Insert<typeof attachments>>[];
  artifacts: WithId<Insert<typeof artifacts>>[];
  turns: WithId<Insert<typeof turns>>[];
  attempts: WithId<Insert<typeof attempts>>[];
}

/**
 * Rows per INSERT statement. Each statement takes its rows as one JSON parameter (json_populate_recordset), so
 * neither Postgres' 65 535 bind parameters per statement nor drizzle's SQL builder limits the batch: built row by
 * row, drizzle took about 0.2 ms per row on a loaded 2-core machine (some 20 s for 100 000 messages, the event
 * loop blocked meanwhile), and one statement of about 6 000 messages overflowed its stack. 1 000 rows keep each
 * statement's text to a few MB and store 100 000 messages in 100 statements.
 */
export const IMPORT_BATCH_ROWS = 1_000;

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Insert `rows` into `table`, IMPORT_BATCH_ROWS at a time. The columns are the keys the rows set; a column no row
 * sets takes its default in the database (a default made in JavaScript, as the ids', must be set by the caller).
 */
async function insertInBatches<Table extends PgTable>(
  tx: Transaction,
  table: Table,
  rows: Table["$inferInsert"][],
  { onConflictDoNothing = false } = {},
): Promise<void> {
  const columns = Object.entries(getTableColumns(table));
  for (let start = 0; start < rows.length; start += IMPORT_BATCH_ROWS) {
    const batch = rows.slice(start, start + IMPORT_BATCH_ROWS) as Record<string, unknown>[];
    const set = columns.filter(([key]) => batch.some((row) => row[key] !== undefined));
    // Keyed by column name, as json_populate_recordset reads them; Dates become ISO times, JSON columns stay JSON.
    const json = JSON.stringify(
      batch.map((row) => Object.fromEntries(set.map(([key, column]) => [column.name, row[key] ?? null]))),
    );
    const names = sql.join(
      set.map(([, column]) => sql.identifier(column.name)),
      sql`, `,
    );
    await queryRows(
      tx,
      sql`insert into ${table} (${names}) select ${names} from json_populate_recordset(null::${table}, ${json}::json)${
        onConflictDoNothing ? sql` on conflict do nothing` : sql``
      }`,
    );
  }
}

/**
 * Store an imported conversation: all of it, or nothing (one transaction; its statements are batches of
 * IMPORT_BATCH_ROWS rows). Blobs already stored (same sha256) are shared. Returns the stored conversation row.
 */
export async function insertConversationRows({ db, rows }: { db: Database; rows: ConversationRowsToInsert }) {
  return db.transaction(async (tx) => {
    const conversation = await insertConversationWithOwner(tx, rows.conversation);
    // Summaries before the messages they cover; messages before their versions, attachments and artifacts.
    await insertInBatches(tx, summaries, rows.summaries);
    await insertInBatches(tx, messages, rows.messages);
    await insertInBatches(tx, messageVersions, rows.messageVersions);
    await insertInBatches(tx, attachmentBlobs, rows.blobs, { onConflictDoNothing: true });
    await insertInBatches(tx, attachments, rows.attachments);
    await insertInBatches(tx, artifacts, rows.artifacts);
    await insertInBatches(tx, turns, rows.turns);
    await insertInBatches(tx, attempts, rows.attempts);
    return conversation;
  });
}
