// Vitest global setup. Every test worker gets a database of its own, copied from a template migrated once here,
// so test files run in parallel without seeing each other's rows and no file pays for the migrations. With
// DATABASE_URL these are databases on that server (dropped at the end); without it, PGlite directories in a temp
// dir. tests/worker-database.ts points each worker at its copy.
import "./polyfills";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import type { TestProject } from "vitest/node";
import {
  createNamedDatabase,
  databaseUrl,
  dropDatabase,
  MIGRATIONS_FOLDER,
  migrateDatabase,
} from "./database";

export default async function setup(project: TestProject) {
  process.env.GLASSBOX_TEST = "1";
  // Tests send many turns per user; the limit itself is tested with a small value.
  process.env.CHAT_RATE_LIMIT_PER_MINUTE ??= "1000";
  process.env.GLASSBOX_RETRY_BASE_MS ??= "20";
  process.env.OFFLINE_MODEL_WORD_DELAY_MS ??= "1";
  // Titles come from the offline model, so tests that count provider requests see only their own; the title tests
  // unset it to exercise the provider path.
  process.env.TITLE_MODEL_ID ??= "offline:echo";
  const workers = Math.max(1, project.config.maxWorkers);
  const baseUrl = process.env.DATABASE_URL;
  if (baseUrl) {
    const prefix = `glassbox_vitest_${Date.now()}_${process.pid}`;
    const template = `${prefix}_template`;
    const names = Array.from({ length: workers }, (_, index) => `${prefix}_w${index + 1}`);
    const drop = () => Promise.all([template, ...names].map((name) => dropDatabase(baseUrl, name)));
    try {
      await createNamedDatabase(baseUrl, template);
      await migrateDatabase(databaseUrl(baseUrl, template));
      await Promise.all(names.map((name) => createNamedDatabase(baseUrl, name, template)));
    } catch (error) {
      await drop().catch(() => {});
      throw error;
    }
    process.env.GLASSBOX_BASE_DATABASE_URL = baseUrl;
    process.env.GLASSBOX_TEMPLATE_DATABASE = template;
    process.env.GLASSBOX_WORKER_DATABASE_PREFIX = prefix;
    // Until a worker's setup file points it at its own copy (a worker without VITEST_POOL_ID uses the first).
    process.env.DATABASE_URL = databaseUrl(baseUrl, names[0]);
    return async () => {
      await drop();
    };
  }
  const root = mkdtempSync(path.join(tmpdir(), "glassbox-pglite-"));
  const template = path.join(root, "template");
  const client = new PGlite(template);
  try {
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.close();
  }
  for (let index = 1; index <= workers; index++)
    cpSync(template, path.join(root, `w${index}`), { recursive: true });
  process.env.GLASSBOX_TEMPLATE_PGLITE_DIR = template;
  process.env.GLASSBOX_WORKER_PGLITE_ROOT = root;
  process.env.PGLITE_DIR = path.join(root, "w1");
  return async () => rmSync(root, { recursive: true, force: true });
}
