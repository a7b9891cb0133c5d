import { defineConfig } from "@playwright/test";
import { chromiumPath } from "./scripts/chromium-path.mjs";

// End-to-end tests drive Debian's Chromium against `next start` (built first by scripts/test.mjs) and the fake
// provider servers. The database comes from E2E_DATABASE_URL (a fresh Postgres database) or a PGlite directory.
//
// E2E_WORKERS Playwright workers run spec files side by side. Each worker has a set of its own: an app server, the
// fake providers (whose scripts and recorded requests are global) and a database (admin specs change global
// settings), on ports E2E_WORKER_PORT_STEP apart. Worker n > 0 uses the database named E2E_DATABASE_URL's plus
// `_w<n>` (which the caller creates: scripts/test.mjs does) or the PGlite directory E2E_PGLITE_DIR plus `-w<n>`.
// This file is loaded again in each worker, which sets its own set's variables there before its specs read them.
const WORKERS = Number(process.env.E2E_WORKERS ?? 1);
const PORT_STEP = Number(process.env.E2E_WORKER_PORT_STEP ?? 100);
process.env.E2E_BASE_APP_PORT ??= process.env.E2E_APP_PORT ?? "3100";
process.env.E2E_BASE_FAKE_PORT ??= process.env.E2E_FAKE_PORT ?? "4010";
if (process.env.E2E_DATABASE_URL) process.env.E2E_BASE_DATABASE_URL ??= process.env.E2E_DATABASE_URL;
if (process.env.E2E_PGLITE_DIR) process.env.E2E_BASE_PGLITE_DIR ??= process.env.E2E_PGLITE_DIR;
// The account each app server makes its admin (ADMIN_EMAIL); e2e/pages/admin-role.ts signs in as it.
process.env.E2E_ADMIN_EMAIL ??= "e2e-admin@example.test";
const ADMIN_EMAIL = process.env.E2E_ADMIN_EMAIL;

interface WorkerSet {
  appPort: number;
  fakePort: number;
  databaseUrl?: string;
  pgliteDir?: string;
}

function workerSet(index: number): WorkerSet {
  const databaseUrl = process.env.E2E_BASE_DATABASE_URL;
  const pgliteDir = process.env.E2E_BASE_PGLITE_DIR;
  let ownDatabaseUrl = databaseUrl;
  if (databaseUrl && index > 0) {
    const url = new URL(databaseUrl);
    url.pathname = `${url.pathname}_w${index}`;
    ownDatabaseUrl = url.toString();
  }
  return {
    appPort: Number(process.env.E2E_BASE_APP_PORT) + index * PORT_STEP,
    fakePort: Number(process.env.E2E_BASE_FAKE_PORT) + index * PORT_STEP,
    databaseUrl: ownDatabaseUrl,
    pgliteDir: pgliteDir && index > 0 ? `${pgliteDir}-w${index}` : pgliteDir,
  };
}

// In a worker, its own set; in the runner, the first.
const own = workerSet(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
process.env.E2E_APP_PORT = String(own.appPort);
process.env.E2E_FAKE_PORT = String(own.fakePort);
if (own.databaseUrl) process.env.E2E_DATABASE_URL = own.databaseUrl;
if (own.pgliteDir) process.env.E2E_PGLITE_DIR = own.pgliteDir;

function servers(set: WorkerSet) {
  const fakeUrl = `http://127.0.0.1:${set.fakePort}`;
  return [
    {
      command: `node_modules/.bin/tsx e2e/fake-providers/main.ts --port ${set.fakePort}`,
      url: `${fakeUrl}/__health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `node_modules/.bin/next start -p ${set.appPort} -H 127.0.0.1`,
      url: `http://127.0.0.1:${set.appPort}/sign-in`,
      reuseExistingServer: false,
      timeout: 90_000,
      env: {
        NEXT_TELEMETRY_DISABLED: "1",
        NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next",
        GLASSBOX_TEST: "1",
        GLASSBOX_RETRY_BASE_MS: "20",
        // Titles from the offline model: specs that count the fake provider's requests see only their own.
        TITLE_MODEL_ID: "offline:echo",
        CHAT_RATE_LIMIT_PER_MINUTE: "1000",
        AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-e2e-secret",
        // The admin, on either database: it gives other accounts their roles (e2e/pages/admin-role.ts).
        ADMIN_EMAIL,
        ...(set.databaseUrl ? { DATABASE_URL: set.databaseUrl } : {}),
        ...(set.pgliteDir ? { PGLITE_DIR: set.pgliteDir } : {}),
        // Set by the test command: each recorded attempt's wire map is checked, a violation fails the run.
        ...(process.env.GLASSBOX_WIRE_CHECK_FILE
          ? { GLASSBOX_WIRE_CHECK_FILE: process.env.GLASSBOX_WIRE_CHECK_FILE }
          : {}),
        OPENAI_API_KEY: "sk-fake-e2e",
        OPENAI_BASE_URL: `${fakeUrl}/v1`,
        GOOGLE_GENERATIVE_AI_API_KEY: "fake-google-e2e",
        GOOGLE_BASE_URL: `${fakeUrl}/v1beta`,
        ANTHROPIC_API_KEY: "fake-anthropic-e2e",
        ANTHROPIC_BASE_URL: `${fakeUrl}/v1`,
        OPENAI_COMPATIBLE_BASE_URL: `${fakeUrl}/compatible/v1`,
      },
    },
  ];
}

// The specs that start app servers of their own (and kill, restart or cut them) and time replies against them: a
// project that uses one worker at a time, so with two workers at most one of them runs, beside the other worker's
// pages, and never two server starts at once.
const SERVER_SPECS = [
  "crash-recovery",
  "database-outage",
  "live-rooms",
  "npm-start",
  "resume",
  "scale-out",
  "workers",
].map((name) => `**/${name}.spec.ts`);

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  workers: WORKERS,
  projects: [
    { name: "servers", testMatch: SERVER_SPECS, workers: 1 },
    { name: "pages", testIgnore: SERVER_SPECS },
  ],
  // In CI a test that fails is run once more: one that then passes is reported "(flaky)" by name above the totals
  // (scripts/test.mjs) and counts as passed, so one rare stall on a loaded machine does not fail the run unnoticed.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"], ["json", { outputFile: "test-results/playwright.json" }]] : "list",
  use: {
    baseURL: `http://127.0.0.1:${own.appPort}`,
    // The app refuses state-changing requests without this origin (CSRF guard); a browser sends it by itself,
    // Playwright's API client (page.request) does not. Specs that test cross-origin requests clear it.
    extraHTTPHeaders: { origin: `http://127.0.0.1:${own.appPort}` },
    browserName: "chromium",
    // A trace records every action's DOM and screenshots, the passing tests' too, at about a tenth of the suite's CPU.
    // A failure keeps a screenshot and its page snapshot (error-context.md); E2E_TRACE=1 records traces as well.
    trace: process.env.E2E_TRACE === "1" ? "retain-on-failure" : "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: Array.from({ length: WORKERS }, (_, index) => servers(workerSet(index))).flat(),
});
