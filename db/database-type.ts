// The query builder's type, apart from the handle that makes one (./client.ts), so the code the handle runs at
// start-up (./seed.ts) can name it without importing the handle back.
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type * as schema from "./schema";

/** Both drivers expose the same query builder; postgres.js's type is used for both. */
export type Database = PostgresJsDatabase<typeof schema>;
