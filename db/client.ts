// One database handle for the process: postgres.js when DATABASE_URL is set (production, tests), else embedded
// PGlite on disk in .data/ (zero set-up for a first run). The handle is created synchronously (better-auth needs
// it at import time); migrations run once in `ready`, which every entry point awaits before its first query.

import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import * as schema from "./schema";
import { seedDatabase } from "./seed";

/** Both drivers expose the same query builder; postgres.js's type is used for both. */
export type Database = PostgresJsDatabase<typeof schema>;

export interface DatabaseHandle {
  db: Database;
  driver: "postgres" | "pglite";
  /** Resolves once migrations and seed data are in place. */
  ready: Promise<void>;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

export function createDatabase(options: { url?: string; pgliteDir?: string } = {}): DatabaseHandle {
  const url = options.url ?? process.env.DATABASE_URL;
  if (url) {
    const client = postgres(url, { max: Number(process.env.DATABASE_POOL_SIZE ?? 10), onnotice: () => {} });
    const db = drizzlePostgres({ client, schema });
    const ready = migratePostgres(db, { migrationsFolder: MIGRATIONS_FOLDER }).then(() => seedDatabase(db));
    return { db, driver: "postgres", ready, close: () => client.end({ timeout: 5 }) };
  }
  const dir = options.pgliteDir ?? process.env.PGLITE_DIR ?? path.join(process.cwd(), ".data", "pglite");
  mkdirSync(dir, { recursive: true });
  const client = new PGlite(dir);
  const db = drizzlePglite({ client, schema });
  const ready = client.waitReady
    .then(() => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }))
    .then(() => seedDatabase(db as unknown as Database));
  return { db: db as unknown as Database, driver: "pglite", ready, close: () => client.close() };
}

// Next.js may evaluate this module more than once (route bundles, dev reloads): keep one handle per process.
const globalForDatabase = globalThis as unknown as { glassboxDatabase?: DatabaseHandle };

export function databaseHandle(): DatabaseHandle {
  globalForDatabase.glassboxDatabase ??= createDatabase();
  return globalForDatabase.glassboxDatabase;
}

/** The process's database, migrated. */
export async function getDb(): Promise<Database> {
  const handle = databaseHandle();
  await handle.ready;
  return handle.db;
}
