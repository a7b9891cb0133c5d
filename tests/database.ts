// Fresh databases for test runs on a real Postgres server, and copies of a migrated template.
import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, "..", "db", "migrations");

/**
 * A new empty database on `baseUrl`'s server, or a copy of `template` (a database with the migrations applied,
 * which no one may be connected to while it is copied).
 */
export async function createFreshDatabase(
  baseUrl: string,
  purpose: string,
  template?: string,
): Promise<{ url: string; name: string }> {
  const name = `glassbox_${purpose}_${Date.now()}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  await createNamedDatabase(baseUrl, name, template);
  return { url: databaseUrl(baseUrl, name), name };
}

export async function createNamedDatabase(baseUrl: string, name: string, template?: string): Promise<void> {
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  } finally {
    await admin.end();
  }
}

/** `baseUrl` with its database replaced by `name`. */
export function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Applies the app's migrations to the database at `url`, then closes the connection. */
export async function migrateDatabase(url: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.end();
  }
}

/**
 * Drops a test's database, ending its sessions first. Tried up to three times, a second apart: Postgres waits only
 * five seconds for the sessions it ends to go, and on a loaded machine a closing session can take longer.
 */
export async function dropDatabase(baseUrl: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    } finally {
      await admin.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
