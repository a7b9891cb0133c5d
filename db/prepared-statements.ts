// Prepared statements for the fixed-shape queries a chat turn or a gateway call sends (docs/features.md, "The
// turn's own cost"). drizzle builds a query's SQL text anew on every call, which costs a hot path more than the
// statement's own run; a statement made with `.prepare()` is built once. Like every statement of a few parameters
// (db/preparing-client.ts), postgres.js keeps it prepared on each connection: Parse and Describe once, then Bind and
// Execute only. PGlite's session accepts the same call (it runs the text it is given).
//
// A prepared statement runs on the driver client of the handle it was built from, so it is kept per handle: the
// database's own runs on its pool, and a transaction's runs inside that transaction (a transaction is a handle of
// its own, dropped with it).

import "server-only";
import { type Column, Param, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Database } from "./client";
import type { Transaction } from "./query-parts";

/**
 * A function that gives the statement `build` makes, prepared, for a database or transaction handle: built on a
 * handle's first call, then kept for as long as the handle lives. Values go in through placeholders
 * (`sql.placeholder("name")`), given to `execute({ name: value })`.
 */
export function preparedStatement<Prepared extends { getQuery(): { sql: string } }>(
  name: string,
  build: (db: Database) => { prepare(name: string): Prepared },
): (db: Database | Transaction) => Prepared {
  const byHandle = new WeakMap<Database | Transaction, Prepared>();
  return (db) => {
    let statement = byHandle.get(db);
    if (statement === undefined) {
      // A transaction has the same query builder as the database (db/admin-queries.ts passes one the same way).
      statement = build(db as Database).prepare(name);
      byHandle.set(db, statement);
      preparedTexts.add(statement.getQuery().sql);
    }
    return statement;
  };
}

const preparedTexts = new Set<string>();

/**
 * The SQL of every statement prepared so far. Postgres may run a prepared statement with a generic plan, made
 * without its parameters' values; tests/api/query-plans.test.ts checks those plans too.
 */
export function preparedStatementTexts(): ReadonlySet<string> {
  return preparedTexts;
}

/**
 * A placeholder whose value is encoded as `column` encodes its values (a Date as an ISO timestamp, JSON as text),
 * null staying SQL NULL. For a column that encodes (dates, JSON) and in `update … set` (whose types refuse a bare
 * placeholder); elsewhere `sql.placeholder` is enough. drizzle encodes a bare placeholder in `insert … values`
 * but gives null to the encoder too (jsonb would store the JSON `null`, a timestamp would throw), and in a
 * condition (`eq`, `gt`) it does not encode it at all.
 */
export function encodedPlaceholder(name: string, column: Column): SQL {
  const encoder = {
    mapToDriverValue: (value: unknown) => (value === null ? null : column.mapToDriverValue(value)),
  };
  return sql`${new Param(sql.placeholder(name), encoder)}`;
}

/**
 * `column = any($1)` with one array parameter: the same SQL text however many values the list holds (`inArray`
 * writes one parameter per value, so each length is a statement of its own). The list must not be empty.
 */
export function isAnyOf(column: Column, list: Placeholder): SQL {
  return sql`${column} = any(${list})`;
}
