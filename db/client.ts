// One database handle for the process: postgres.js when DATABASE_URL is set (production, tests), else embedded
// PGlite on disk in .data/ (zero set-up for a first run). The handle is created synchronously (better-auth needs
// it at import time); migrations run in `ready`, which every entry point awaits before its first query. A failed
// migration (the database was down at start-up) is not kept: the next `ready` after a short pause tries again,
// so the app recovers when the database does, without a restart. Connecting and each statement are bounded in
// time, so a database that does not answer makes a request fail (503) within seconds instead of hanging.

import "server-only";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { env } from "@/lib/config/env";
import type { Database } from "./database-type";
import { preparingClient } from "./preparing-client";
import * as schema from "./schema";
import { seedDatabase } from "./seed";

export type { Database } from "./database-type";

export interface DatabaseHandle {
  db: Database;
  driver: "postgres" | "pglite";
  /** Resolves once migrations and seed data are in place; after a failure, a later read tries again. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

/** Pause between migration attempts while the database is unreachable, so a burst of requests is one attempt. */
const MIGRATION_RETRY_PAUSE_MS = 1_000;

/**
 * `ready` as a promise that is made again after a failure: callers that arrive while an attempt runs share it;
 * the first caller after a failed attempt (and a short pause) starts a new one.
 */
function retryingReady(migrate: () => Promise<void>): { readonly ready: Promise<void> } {
  let current: Promise<void> | null = null;
  let failedAt = 0;
  const attempt = () => {
    const promise = migrate().catch((error: unknown) => {
      failedAt = Date.now();
      throw error;
    });
    current = promise;
    return promise;
  };
  attempt().catch(() => {}); // start at once; a failure here is reported to whoever awaits `ready`
  return {
    get ready() {
      if (current && failedAt && Date.now() - failedAt >= MIGRATION_RETRY_PAUSE_MS) {
        failedAt = 0;
        return attempt();
      }
      return current ?? attempt();
    },
  };
}

export interface DatabaseOptions {
  url?: string;
  pgliteDir?: string;
  /** Told of every statement drizzle sends, with its parameters (the query-plan test collects a turn's). */
  logQuery?: (query: string, params: unknown[]) => void;
}

export function createDatabase(options: DatabaseOptions = {}): DatabaseHandle {
  const environment = env();
  const url = options.url ?? environment.DATABASE_URL;
  const logger = options.logQuery ? { logQuery: options.logQuery } : undefined;
  if (url) {
    const client = postgres(url, {
      // A bounded pool per instance: requests beyond it queue here instead of piling onto Postgres
      // (docs/deploy.md#pool-sizing).
      max: environment.DATABASE_POOL_MAX,
      onnotice: () => {},
      // Bounded, so a database that does not answer fails the request (503) instead of hanging it.
      connect_timeout: environment.DATABASE_CONNECT_TIMEOUT_SECONDS,
      connection: {
        statement_timeout: environment.DATABASE_STATEMENT_TIMEOUT_MS,
        // A transaction left open by a stuck request would hold its locks and its connection forever.
        idle_in_transaction_session_timeout: environment.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      },
    });
    const db = drizzlePostgres({ client: preparingClient(client), schema, logger });
    const readiness = retryingReady(() =>
      migratePostgres(db, { migrationsFolder: MIGRATIONS_FOLDER }).then(() => seedDatabase(db, environment)),
    );
    return {
      db,
      driver: "postgres",
      get ready() {
        return readiness.ready;
      },
      close: () => client.end({ timeout: 5 }),
    };
  }
  const dir = options.pgliteDir ?? environment.PGLITE_DIR ?? path.join(process.cwd(), ".data", "pglite");
  mkdirSync(dir, { recursive: true });
  const client = new PGlite(dir);
  const db = drizzlePglite({ client, schema, logger });
  const readiness = retryingReady(() =>
    client.waitReady
      .then(() => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }))
      .then(() => seedDatabase(db as unknown as Database, environment)),
  );
  return {
    db: db as unknown as Database,
    driver: "pglite",
    get ready() {
      return readiness.ready;
    },
    close: () => client.close(),
  };
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
