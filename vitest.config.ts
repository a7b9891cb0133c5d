import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // The marker that keeps server modules out of the browser bundle throws outside React's server build;
      // tests import those modules directly, so it is the package's own empty module here.
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    environment: "node",
    include: [
      "lib/**/*.test.ts",
      "db/**/*.test.ts",
      "tests/**/*.test.ts",
      "e2e/fake-providers/**/*.test.ts",
      "app/**/*.test.ts",
    ],
    exclude: ["e2e/**/*.spec.ts", "node_modules/**"],
    globalSetup: ["tests/global-setup.ts"],
    // Each worker has a database of its own (tests/global-setup.ts), PGlite's included, so files run in parallel.
    // A worker's files share its process and module cache (importing the app once per worker, not once per file):
    // each file ends by putting the process back as a new one would be (tests/fresh-process-state.ts).
    isolate: false,
    setupFiles: ["tests/worker-database.ts", "tests/fresh-process-state.ts"],
    fileParallelism: true,
    // Two workers: many files wait on sockets, child processes and the database more than they compute, and more
    // than two on two cores starves the tests that time a stream. GLASSBOX_TEST_WORKERS sets it.
    maxWorkers: Number(process.env.GLASSBOX_TEST_WORKERS ?? 2),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // postgres.js 3.4.9 sends its array-types query on every new connection and never handles that query's
    // failure: a connection refused while an outage test has the database cut (tests/fixtures/cuttable-proxy.ts)
    // rejects it with no one to catch it. A driver bug, not the app's: that one rejection is ignored, any other
    // unhandled error still fails the run.
    onUnhandledError: (error) => !isDriverTypesQueryRefused(error),
  },
});

function isDriverTypesQueryRefused(error: unknown): boolean {
  const { code, query } = error as { code?: unknown; query?: unknown };
  return code === "ECONNREFUSED" && typeof query === "string" && query.includes("from pg_catalog.pg_type a");
}
