// Raw SQL goes through db/raw-sql.ts: `db.execute(sql…)` answers an array on postgres.js and `{ rows }` on
// PGlite, and the shared postgres.js type hides the difference, so a direct call works on one database and
// breaks on the other. Every source file is read, and a raw `.execute(…)` anywhere else fails this test with
// the file and line named. A prepared statement's `.execute({ …placeholders })` answers an array on both and is
// not raw.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { ROOT, sourceFiles } from "./source-files";

/** The helper itself, and this file (its scenarios are raw calls on purpose). */
const ALLOWED_FILES = new Set(["db/raw-sql.ts", "tests/architecture/raw-sql.test.ts"]);

/** `.execute`, an optional type argument, then raw SQL as its argument: sql`…`, sql<…>`…` or sql.raw(…). */
const RAW_EXECUTE = /\.execute\s*(?:<[^()]*?>)?\s*\(\s*sql\b/g;

/** Each raw `.execute(` in `text`, as `file:line`. */
function rawExecutes(file: string, text: string): string[] {
  if (ALLOWED_FILES.has(file)) return [];
  return [...text.matchAll(RAW_EXECUTE)].map((match) => {
    const line = text.slice(0, match.index).split("\n").length;
    return `${file}:${line}`;
  });
}

describe("raw SQL", () => {
  const files = sourceFiles();

  test("reads the project's sources", () => {
    // A sanity floor: the walk found the tree, not nothing.
    expect(files.length).toBeGreaterThan(400);
    expect(files).toContain("db/live-event-queries.ts");
    expect(files).toContain("tests/api/search.test.ts");
  });

  test("runs only through db/raw-sql.ts (queryRows)", () => {
    const found = files.flatMap((file) => rawExecutes(file, readFileSync(path.join(ROOT, file), "utf8")));
    expect(found).toEqual([]);
  });

  test.each([
    ["a tagged sql query", "await db.execute(sql`select 1`);"],
    ["a typed one", "const rows = await db.execute<{ id: string }>(sql`select id from personas`);"],
    [
      "one on a transaction, on the next line",
      "await tx.execute(\n  sql`set local enable_seqscan = off`,\n);",
    ],
    ["sql.raw", 'await db.execute(sql.raw("select count(*) from users"));'],
    ["a typed sql tag", "await handle.db.execute(sql<number>`select 1`);"],
  ])("fails on %s", (_name, text) => {
    expect(rawExecutes("db/example.ts", `// a planted example\n${text}`)).toEqual(["db/example.ts:2"]);
  });

  test.each([
    ["a prepared statement with placeholders", "const [row] = await sessionWithUser(db).execute({ token });"],
    ["one on the next line", "await plainMessageStatement(db).execute(\n  { conversationId },\n);"],
    ["one with no placeholders", "const rows = await currentSettingsStatement(db).execute();"],
    ["one given computed values", "await plainMessageStatement(db).execute(messageValues(message));"],
    ["a tool's execute", "execute: async () => ({ utc: now().toISOString() }),"],
    ["the helper", "await queryRows(db, sql`select 1`);"],
  ])("passes %s", (_name, text) => {
    expect(rawExecutes("db/example.ts", text)).toEqual([]);
  });
});
