// Rows read straight from the database: every table's row count (a refused request may change none of them:
// nothing half-stored), and a conversation's rows of one table.
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import type { attachments, participants, turns } from "@/db/schema";

/** Each base table of the public schema with its row count, read in one statement (one snapshot). */
export async function tableRowCounts(): Promise<Record<string, number>> {
  const db = await getDb();
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const columns = tables.map(({ name }) => `(select count(*) from ${quoted(name)}) as ${quoted(name)}`);
  const [row] = await queryRows<Record<string, string | number>>(db, sql.raw(`select ${columns.join(", ")}`));
  return Object.fromEntries(tables.map(({ name }) => [name, Number(row[name])]));
}

/** The tables whose rows the tests read by conversation. */
type ConversationTable = typeof turns | typeof attachments | typeof participants;

/** Every row of `table` that belongs to the conversation. */
export async function conversationRows<Table extends ConversationTable>(
  table: Table,
  conversationId: string,
): Promise<Table["$inferSelect"][]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(table as ConversationTable)
    .where(eq(table.conversationId, conversationId));
  // Typed for the union of tables, the rows are those of `table`.
  return rows as Table["$inferSelect"][];
}
