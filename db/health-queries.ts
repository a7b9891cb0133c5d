// What the readiness check asks the database (docs/deploy.md#health): does it answer, and which migrations has
// it applied. drizzle's migrator records each applied migration in drizzle.__drizzle_migrations with the journal
// entry's timestamp as `created_at`; it is not part of our schema, so it is declared here, for reading only.

import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import { max, sql } from "drizzle-orm";
import { bigint, integer, pgSchema, text } from "drizzle-orm/pg-core";
import type { Database } from "./client";
import { queryRows } from "./raw-sql";

const appliedMigrations = pgSchema("drizzle").table("__drizzle_migrations", {
  id: integer("id"),
  hash: text("hash"),
  createdAt: bigint("created_at", { mode: "number" }),
});

export async function pingDatabase({ db }: { db: Database }): Promise<void> {
  await queryRows(db, sql`select 1`);
}

/** The timestamp of the newest migration the database has applied; null when it has applied none. */
export async function getLatestAppliedMigration({ db }: { db: Database }): Promise<number | null> {
  try {
    const [row] = await db.select({ latest: max(appliedMigrations.createdAt) }).from(appliedMigrations);
    return row?.latest === null || row?.latest === undefined ? null : Number(row.latest);
  } catch (error) {
    // 42P01 (undefined_table) / 3F000 (invalid_schema_name): nothing was ever migrated.
    const code =
      (error as { cause?: { code?: string }; code?: string }).cause?.code ??
      (error as { code?: string }).code;
    if (code === "42P01" || code === "3F000") return null;
    throw error;
  }
}

let journal: { latest: number; tag: string; count: number } | null = null;

/** The newest migration this build ships (db/migrations/meta/_journal.json), read once. */
export function shippedMigrations(): { latest: number; tag: string; count: number } {
  if (!journal) {
    const file = path.join(process.cwd(), "db", "migrations", "meta", "_journal.json");
    const { entries } = JSON.parse(readFileSync(file, "utf8")) as {
      entries: { when: number; tag: string }[];
    };
    const newest = entries.reduce((a, b) => (b.when > a.when ? b : a));
    journal = { latest: newest.when, tag: newest.tag, count: entries.length };
  }
  return journal;
}
