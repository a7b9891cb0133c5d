#!/usr/bin/env node
// `npm test`: every suite. Lint (Biome), the type check, Vitest (unit + integration, real Postgres when
// DATABASE_URL is set, else PGlite), then a production build and Playwright end-to-end tests in Chromium. Ends with one line: `N passed, N failed`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const resultsDir = path.resolve(root, process.env.TEST_RESULTS_DIR ?? "test-results");
mkdirSync(resultsDir, { recursive: true });
// Every attempt the suites record has its wire map checked against its body (lib/chat/attempts/record-attempt.ts): a
// violation is written here, and each one fails the run.
const wireViolations = path.join(resultsDir, "wire-violations.jsonl");
rmSync(wireViolations, { force: true });
const env = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  GLASSBOX_TEST: "1",
  GLASSBOX_WIRE_CHECK_FILE: wireViolations,
};
// Optional: "unit" or "e2e" to run one part, then file filters passed on to that runner.
const only = process.argv[2];
const filters = process.argv.slice(3);

let passed = 0;
let failed = 0;
let broken = false;

function run(command, args, extraEnv = {}) {
  console.log(`\n$ ${path.basename(command)} ${args.join(" ")}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...env, ...extraEnv } });
  return result.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

// TEST_SKIP_STATIC_CHECKS=1 leaves out lint and the type checks: they do not depend on the database, so a second
// run of the same tree on the other database (.ci/run) would only repeat them.
if (!only && process.env.TEST_SKIP_STATIC_CHECKS !== "1") {
  // Lint and format (Biome) and type errors anywhere, tests included, fail the run (the build checks only the
  // app's own files). Each counts as one test.
  for (const [command, args] of [
    [bin("biome"), ["check", "."]],
    [bin("tsc"), ["--noEmit", "-p", "."]],
    // The pipeline again, with noUncheckedIndexedAccess (tsconfig.context.json).
    [bin("tsc"), ["--noEmit", "-p", "tsconfig.context.json"]],
  ]) {
    if (run(command, args) === 0) passed += 1;
    else failed += 1;
  }
}

if (only !== "e2e") {
  const vitestJson = path.join(resultsDir, "vitest.json");
  rmSync(vitestJson, { force: true });
  const status = run(bin("vitest"), [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${vitestJson}`,
    ...filters,
  ]);
  const report = readJson(vitestJson);
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
  }
  if (status !== 0 && (!report || report.numFailedTests === 0)) broken = true;
}

if (only !== "unit") {
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(chromium)) {
    console.error(
      `Chromium not found at ${chromium}: install Debian's chromium package or set CHROMIUM_PATH.`,
    );
    broken = true;
  } else if (run(bin("next"), ["build"]) !== 0) {
    broken = true;
  } else {
    const e2eEnv = {};
    let cleanup = () => {};
    if (process.env.DATABASE_URL) {
      const name = `glassbox_e2e_${Date.now()}_${process.pid}`;
      const admin = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
      await admin.unsafe(`CREATE DATABASE "${name}"`);
      await admin.end();
      const url = new URL(process.env.DATABASE_URL);
      url.pathname = `/${name}`;
      e2eEnv.E2E_DATABASE_URL = url.toString();
      cleanup = async () => {
        const again = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
        await again.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
        await again.end();
      };
    } else {
      const dir = mkdtempSync(path.join(tmpdir(), "glassbox-e2e-pglite-"));
      e2eEnv.E2E_PGLITE_DIR = dir;
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    }
    const playwrightJson = path.join(resultsDir, "playwright.json");
    rmSync(playwrightJson, { force: true });
    const status = run(bin("playwright"), ["test", "--reporter=list,json", ...filters], {
      ...e2eEnv,
      PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
    });
    await cleanup();
    const report = readJson(playwrightJson);
    if (report) {
      passed += report.stats.expected + (report.stats.flaky ?? 0);
      failed += report.stats.unexpected;
    }
    if (status !== 0 && (!report || report.stats.unexpected === 0)) broken = true;
  }
}

if (existsSync(wireViolations)) {
  const violations = readFileSync(wireViolations, "utf8").split("\n").filter(Boolean);
  console.error(`\n${violations.length} recorded attempt(s) whose wire map violates its invariants:`);
  for (const violation of violations) console.error(`  ${violation}`);
  failed += violations.length;
}

if (broken) failed = Math.max(failed, 1);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
