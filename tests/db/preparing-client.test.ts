// The client drizzle is given (db/preparing-client.ts): a statement of a few parameters becomes a named prepared
// statement on its connection, in a transaction too, and is sent with its values from its second run; one with
// more parameters than MAX_PREPARED_PARAMETERS (its text varies with its data) stays unnamed, unless drizzle was
// asked to prepare it. Seen from Postgres itself (`pg_prepared_statements`, per connection), on one connection.
// Needs Postgres.
import { eq, inArray, sql } from "drizzle-orm";
import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAX_PREPARED_PARAMETERS, preparingClient } from "@/db/preparing-client";
import { queryRows, type RawSqlRunner } from "@/db/raw-sql";
import { createFreshDatabase, dropDatabase } from "../database";

const baseUrl = process.env.GLASSBOX_BASE_DATABASE_URL;

describe.skipIf(!baseUrl)("statements prepared on their connection", () => {
  let database: { url: string; name: string };
  let client: postgres.Sql;
  let db: ReturnType<typeof drizzle>;

  beforeAll(async () => {
    database = await createFreshDatabase(baseUrl as string, "preparing_client");
    client = postgres(database.url, { max: 1, onnotice: () => {} });
    db = drizzle({ client: preparingClient(client) });
    await client.unsafe("create table things (id integer primary key, name text not null)");
    await client.unsafe("insert into things select n, 'thing ' || n from generate_series(1, 50) n");
  });

  afterAll(async () => {
    await client?.end();
    if (database) await dropDatabase(baseUrl as string, database.name);
  });

  const things = sql`things`;
  const preparedTexts = async () =>
    (await client.unsafe<{ statement: string }[]>("select statement from pg_prepared_statements")).map(
      (row) => row.statement,
    );

  test("a statement with a few parameters is prepared once and run again by name", async () => {
    const byId = (id: number) =>
      queryRows(db as RawSqlRunner, sql`select name from ${things} where id = ${id}`);
    expect(await byId(7)).toEqual([{ name: "thing 7" }]);
    expect(await byId(8)).toEqual([{ name: "thing 8" }]);
    const texts = await preparedTexts();
    expect(texts.filter((text) => text === "select name from things where id = $1")).toHaveLength(1);
  });

  test("inside a transaction, its statements are prepared on its connection too", async () => {
    const names = await db.transaction(async (transaction) => {
      await queryRows(
        transaction as RawSqlRunner,
        sql`update ${things} set name = ${"renamed"} where id = ${3}`,
      );
      return queryRows(
        transaction as RawSqlRunner,
        sql`select name from ${things} where id = ${3} and name <> ${"x"}`,
      );
    });
    expect(names).toEqual([{ name: "renamed" }]);
    const texts = await preparedTexts();
    expect(texts).toContain("update things set name = $1 where id = $2");
    expect(texts).toContain("select name from things where id = $1 and name <> $2");
  });

  test(`a statement of more than ${MAX_PREPARED_PARAMETERS} parameters stays unnamed; it still runs`, async () => {
    const table = sql`things`;
    const ids = Array.from({ length: MAX_PREPARED_PARAMETERS + 1 }, (_, index) => index + 1);
    const rows = await queryRows(
      db as RawSqlRunner,
      sql`select count(*)::int as count from ${table} where ${inArray(sql`id`, ids)} and ${eq(sql`1`, 1)}`,
    );
    expect(rows).toEqual([{ count: MAX_PREPARED_PARAMETERS + 1 }]);
    const texts = await preparedTexts();
    expect(texts.some((text) => text.includes(`$${MAX_PREPARED_PARAMETERS + 1}`))).toBe(false);
  });

  test(`one drizzle was asked to prepare stays prepared, even with more than ${MAX_PREPARED_PARAMETERS}`, async () => {
    const thingsTable = pgTable("things", { id: integer("id").primaryKey(), name: text("name").notNull() });
    const count = MAX_PREPARED_PARAMETERS + 1;
    const placeholders = Array.from({ length: count }, (_, index) => sql.placeholder(`id${index}`));
    const statement = db
      .select({ name: thingsTable.name })
      .from(thingsTable)
      .where(inArray(thingsTable.id, placeholders))
      .prepare("manyThings");
    const values = Object.fromEntries(placeholders.map((_, index) => [`id${index}`, index + 1]));
    expect(await statement.execute(values)).toHaveLength(count);
    const texts = await preparedTexts();
    expect(texts.some((text) => text.includes(`$${count})`))).toBe(true);
  });
});
