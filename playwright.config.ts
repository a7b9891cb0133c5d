import { defineConfig } from "@playwright/test";

// End-to-end tests drive Debian's Chromium against `next start` (built first by scripts/test.mjs) and the fake
// provider servers. The database comes from E2E_DATABASE_URL (a fresh Postgres database) or a PGlite directory.
const APP_PORT = Number(process.env.E2E_APP_PORT ?? 3100);
const FAKE_PORT = Number(process.env.E2E_FAKE_PORT ?? 4010);
const fakeUrl = `http://127.0.0.1:${FAKE_PORT}`;

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"], ["json", { outputFile: "test-results/playwright.json" }]] : "list",
  use: {
    baseURL: `http://127.0.0.1:${APP_PORT}`,
    // The app refuses state-changing requests without this origin (CSRF guard); a browser sends it by itself,
    // Playwright's API client (page.request) does not. Specs that test cross-origin requests clear it.
    extraHTTPHeaders: { origin: `http://127.0.0.1:${APP_PORT}` },
    browserName: "chromium",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
  webServer: [
    {
      command: `node_modules/.bin/tsx e2e/fake-providers/main.ts --port ${FAKE_PORT}`,
      url: `${fakeUrl}/__health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `node_modules/.bin/next start -p ${APP_PORT} -H 127.0.0.1`,
      url: `http://127.0.0.1:${APP_PORT}/sign-in`,
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
        ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
        ...(process.env.E2E_PGLITE_DIR ? { PGLITE_DIR: process.env.E2E_PGLITE_DIR } : {}),
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
  ],
});
