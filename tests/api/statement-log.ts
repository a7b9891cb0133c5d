// Test fixture: every statement drizzle sends, for a file that checks which statements a request sends. The app's
// own handle is made again with a query log (db/client.ts makes it on first use otherwise), and the auth instance is
// built again on it; each statement is named by the tables it reads and writes.
import { afterAll, beforeAll } from "vitest";
import { createDatabase, type DatabaseHandle } from "@/db/client";
import { settleBackgroundWork } from "../background-work";

const globals = globalThis as { glassboxDatabase?: DatabaseHandle; glassboxAuth?: unknown };

/**
 * Replaces the app's database handle for the calling file (call it at the top of the file, after the fixtures whose
 * rows it does not log) and gives `statementsOf`: the statements an action sends until its background work is done.
 */
export function statementLogForFile() {
  const logged: string[] = [];
  let capturing = false;
  beforeAll(async () => {
    await globals.glassboxDatabase?.close().catch(() => {});
    globals.glassboxAuth = undefined;
    globals.glassboxDatabase = createDatabase({
      url: process.env.DATABASE_URL,
      logQuery: (query) => {
        if (capturing) logged.push(query);
      },
    });
    await globals.glassboxDatabase.ready;
  });
  afterAll(async () => {
    await globals.glassboxDatabase?.close().catch(() => {});
    globals.glassboxDatabase = undefined;
    globals.glassboxAuth = undefined;
  });
  return {
    /** The statements `action` sends until its live events and title work are done, each as tablesOf names it, sorted. */
    async statementsOf(action: () => Promise<unknown>): Promise<string[]> {
      logged.length = 0;
      capturing = true;
      try {
        await action();
        await settleBackgroundWork();
      } finally {
        capturing = false;
      }
      return logged.map(tablesOf).sort();
    },
  };
}

/** A statement as the tables it touches, in the order they appear: "read session, read user". */
export function tablesOf(query: string): string {
  const verbs: Record<string, string> = {
    "insert into": "insert",
    update: "update",
    "delete from": "delete",
    from: "read",
    join: "read",
  };
  const touched: string[] = [];
  for (const [, verb, table] of query.matchAll(/\b(insert into|update|delete from|from|join)\s+"(\w+)"/g)) {
    const entry = `${verbs[verb]} ${table}`;
    if (!touched.includes(entry)) touched.push(entry);
  }
  if (query.includes("pg_notify(")) touched.push("notify");
  return touched.join(", ");
}
