// Runs before each test file: points the file at its worker's own database (tests/global-setup.ts made one copy of
// the migrated template per worker), so files in other workers never see its rows.
import path from "node:path";
import { databaseUrl } from "./database";

const worker = process.env.VITEST_POOL_ID ?? "1";
const base = process.env.GLASSBOX_BASE_DATABASE_URL;
const prefix = process.env.GLASSBOX_WORKER_DATABASE_PREFIX;
const pgliteRoot = process.env.GLASSBOX_WORKER_PGLITE_ROOT;
if (base && prefix) process.env.DATABASE_URL = databaseUrl(base, `${prefix}_w${worker}`);
else if (pgliteRoot) process.env.PGLITE_DIR = path.join(pgliteRoot, `w${worker}`);
