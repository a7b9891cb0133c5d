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
    // Embedded PGlite is one process's database: without DATABASE_URL, test files take turns instead of sharing it.
    fileParallelism: Boolean(process.env.DATABASE_URL),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
