// Every table's row count: a refused request may change none of them (nothing half-stored).
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";

/** The rows of a raw query's result, whichever driver ran it (postgres.js gives an array, PGlite { rows }). */
export function rowsOf<Row>(result: unknown): Row[] {
  return (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
}

/** Each base table of the public schema with its row count, read in one statement (one snapshot). */
export async function tableRowCounts(): Promise<Record<string, number>> {
  const db = await getDb();
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`),
  );
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const columns = tables.map(({ name }) => `(select count(*) from ${quoted(name)}) as ${quoted(name)}`);
  const [row] = rowsOf<Record<string, string | number>>(
    await db.execute(sql.raw(`select ${columns.join(", ")}`)),
  );
  return Object.fromEntries(tables.map(({ name }) => [name, Number(row[name])]));
}
