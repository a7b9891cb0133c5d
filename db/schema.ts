// The database schema. Auth tables follow better-auth's expected shape; every other row id is a UUIDv7 (sortable),
// artifacts use a ULID. Content is append-only: the pipeline never mutates messages. The tables live in db/schema/
// by group; this module is the one the app, drizzle and drizzle-kit read them from.

export * from "./schema/gateway";
export * from "./schema/lab";
export * from "./schema/tables";
