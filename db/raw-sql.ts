// Raw SQL (a statement drizzle's query builder cannot say) and its rows. `db.execute` answers in the driver's own
// shape: postgres.js gives the rows as an array, PGlite a result object with `rows`; the app is typed as
// postgres.js for both (db/client.ts), so reading PGlite's answer as an array type-checks and fails at run time.
// Every raw statement goes through here (tests/architecture/raw-sql.test.ts holds that), so it reads the same on
// both. Prepared statements (db/prepared-statements.ts) answer with arrays on both and need no help.

import "server-only";
import type { SQL } from "drizzle-orm";
import type { Database } from "./client";

/** The database or a transaction of it: anything that runs raw SQL. */
export type RawSqlRunner = Pick<Database, "execute">;

/** Runs `query` and returns its rows (none for a statement that returns none), whichever driver runs it. */
export async function queryRows<Row extends Record<string, unknown> = Record<string, unknown>>(
  db: RawSqlRunner,
  query: SQL,
): Promise<Row[]> {
  const result: unknown = await db.execute<Row>(query);
  if (Array.isArray(result)) return result as Row[];
  const { rows } = result as { rows?: unknown };
  if (!Array.isArray(rows)) throw new Error("the database driver answered raw SQL without rows");
  return rows as Row[];
}
