// Rows that come back as JSON (`row_to_json`, `json_agg`) from a statement that reads several tables at once,
// decoded into the same typed rows drizzle gives for a table read.

import { type Column, getTableColumns, type Table } from "drizzle-orm";

export type JsonRow = Record<string, unknown>;

/** postgres.js hands json over as text (drizzle's setting), PGlite parsed. */
export function parseJson(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : value;
}

const columnsByTable = new WeakMap<Table, [string, Column][]>();

/** A table's columns by their key, listed once: a history window decodes about a hundred rows of one table. */
function columnsOf(table: Table): [string, Column][] {
  let columns = columnsByTable.get(table);
  if (!columns) {
    columns = Object.entries(getTableColumns(table));
    columnsByTable.set(table, columns);
  }
  return columns;
}

/**
 * A row as `row_to_json` wrote it, as drizzle would have read it from the table: each column through its own
 * mapper (timestamps become Dates), JSON columns as they are (already parsed with the row).
 */
export function decodeRow<T extends Table>(table: T, json: JsonRow): T["$inferSelect"] {
  const row: JsonRow = {};
  for (const [key, column] of columnsOf(table)) {
    const value = json[column.name];
    if (value === null || value === undefined) row[key] = null;
    else if (column.dataType === "json") row[key] = value;
    else row[key] = column.mapFromDriverValue(value);
  }
  return row as T["$inferSelect"];
}
