// Vitest global setup. With DATABASE_URL, every run gets its own fresh database on that server (dropped at the
// end), so runs never see each other's rows; without it, database tests use embedded PGlite in a temp dir.
import "./polyfills";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createFreshDatabase, dropDatabase } from "./database";

export default async function setup() {
  process.env.GLASSBOX_TEST = "1";
  // Tests send many turns per user; the limit itself is tested with a small value.
  process.env.CHAT_RATE_LIMIT_PER_MINUTE ??= "1000";
  process.env.GLASSBOX_RETRY_BASE_MS ??= "20";
  process.env.OFFLINE_MODEL_WORD_DELAY_MS ??= "1";
  // Titles come from the offline model, so tests that count provider requests see only their own; the title tests
  // unset it to exercise the provider path.
  process.env.TITLE_MODEL_ID ??= "offline:echo";
  const baseUrl = process.env.DATABASE_URL;
  if (baseUrl) {
    const { url, name } = await createFreshDatabase(baseUrl, "vitest");
    process.env.GLASSBOX_BASE_DATABASE_URL = baseUrl;
    process.env.DATABASE_URL = url;
    return async () => dropDatabase(baseUrl, name);
  }
  const dir = mkdtempSync(path.join(tmpdir(), "glassbox-pglite-"));
  process.env.PGLITE_DIR = dir;
  return async () => rmSync(dir, { recursive: true, force: true });
}
