// Every table's row count: a refused request may change none of them (nothing half-stored).
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { queryRows } from "@/db/raw-sql";

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
