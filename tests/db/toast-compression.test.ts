// The large JSON columns a turn writes are compressed with lz4 where the server has it (migration 0018), and read
// back unchanged; PGlite, built without lz4, migrates all the same and keeps pglz.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDatabase, type Database, type DatabaseHandle } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { messages } from "@/db/schema";
import { createFreshDatabase, dropDatabase } from "../database";
import { adaConversation, pgliteForFile } from "../fixtures/pglite";

const baseUrl = process.env.GLASSBOX_BASE_DATABASE_URL;

const LZ4_COLUMNS = [
  ["attempts", "items"],
  ["attempts", "requests"],
  ["attempts", "trace"],
  ["messages", "parts"],
  ["artifacts", "payload"],
] as const;

/** Each column's compression method as the catalog has it: "l" lz4, "p" pglz, "" the server's default (pglz). */
async function columnCompression(db: Database): Promise<Record<string, string>> {
  const rows = await queryRows<{ table: string; column: string; compression: string }>(
    db,
    sql`
    select c.relname as "table", a.attname as "column", a.attcompression::text as "compression"
    from pg_attribute a join pg_class c on c.oid = a.attrelid
    where c.relname in ('attempts', 'messages', 'artifacts') and a.attnum > 0 and not a.attisdropped`,
  );
  return Object.fromEntries(
    rows.map((row) => [`${row.table}.${row.column}`, row.compression.replace("\u0000", "")]),
  );
}

/** A text part of about 60 KB of varied text, well past the 2 KB at which Postgres compresses a value. */
function longText(): string {
  return Array.from(
    { length: 1_500 },
    (_, index) => `line ${index}: ${(index * 7919).toString(36)} of many`,
  ).join("\n");
}

async function storeLongMessage(db: Database) {
  const { append } = await adaConversation(db);
  const text = longText();
  const stored = await append(text, "persona");
  const [row] = await db
    .select({ parts: messages.parts, method: sql<string | null>`pg_column_compression(${messages.parts})` })
    .from(messages)
    .where(eq(messages.id, stored.id));
  return { text, row };
}

describe.skipIf(!baseUrl)("on Postgres", () => {
  let fresh: { url: string; name: string };
  let handle: DatabaseHandle;

  beforeAll(async () => {
    fresh = await createFreshDatabase(baseUrl as string, "toast");
    handle = createDatabase({ url: fresh.url });
    await handle.ready;
  }, 60_000);

  afterAll(async () => {
    await handle?.close().catch(() => {});
    if (fresh) await dropDatabase(baseUrl as string, fresh.name);
  });

  test.each(LZ4_COLUMNS)("%s.%s is compressed with lz4", async (table, column) => {
    expect((await columnCompression(handle.db))[`${table}.${column}`]).toBe("l");
  });

  test("a long message is stored lz4-compressed and read back unchanged", async () => {
    const { text, row } = await storeLongMessage(handle.db);
    expect(row.method).toBe("lz4");
    expect(row.parts).toEqual([{ type: "text", text }]);
  });

  test("the other columns keep the server's default", async () => {
    const compression = await columnCompression(handle.db);
    expect(compression["attempts.settings"]).toBe("");
    expect(compression["messages.tokenCounts"]).toBe("");
  });
});

describe("on PGlite", () => {
  const handle = pgliteForFile("toast");

  test("the migration runs and the columns keep pglz, which reads back unchanged", async () => {
    await handle.ready;
    const compression = await columnCompression(handle.db);
    for (const [table, column] of LZ4_COLUMNS) expect(compression[`${table}.${column}`]).toBe("");
    const { text, row } = await storeLongMessage(handle.db);
    expect(row.method).toBe("pglz");
    expect(row.parts).toEqual([{ type: "text", text }]);
  });
});
