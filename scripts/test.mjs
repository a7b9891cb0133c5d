#!/usr/bin/env node
// `npm test`: every suite. Lint (Biome) and the type checks, run beside Vitest (unit + integration, real Postgres
// when DATABASE_URL is set, else PGlite), then a production build and Playwright end-to-end tests in Chromium.
// Prints each phase's wall time, then ends with one line: `N passed, N failed`.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";

const startedAt = Date.now();
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
/** Each phase's wall time, printed at the end: `[name, milliseconds, note]`. */
const phases = [];

/**
 * Runs `command` and resolves with its exit status. `buffered` collects its output and prints it in one piece when
 * it ends, so a step that runs beside another does not interleave its lines with that one's.
 */
function run(command, args, { extraEnv = {}, buffered = false } = {}) {
  const title = `$ ${path.basename(command)} ${args.join(" ")}`;
  if (!buffered) console.log(`\n${title}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...env, ...extraEnv },
    });
    const chunks = [];
    child.stdout?.on("data", (chunk) => chunks.push(chunk));
    child.stderr?.on("data", (chunk) => chunks.push(chunk));
    child.on("error", (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on("close", (code) => {
      if (buffered) process.stdout.write(`\n${title}\n${Buffer.concat(chunks).toString()}`);
      resolve(code ?? 1);
    });
  });
}

/** Runs `step`, recording its wall time as phase `name`. */
async function timed(name, step, note = "") {
  const start = Date.now();
  try {
    return await step();
  } finally {
    phases.push([name, Date.now() - start, note]);
  }
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

function formatDuration(ms) {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
}

// Lint and format (Biome) and type errors anywhere, tests included, fail the run (the build checks only the app's
// own files). Each counts as one test. They run one after another beside Vitest, which waits on sockets and the
// database often enough to leave a core to them. TEST_SKIP_STATIC_CHECKS=1 leaves them out: they do not depend on
// the database, so a second run of the same tree on the other database (.ci/run) would only repeat them.
async function staticChecks() {
  for (const [command, args] of [
    [bin("biome"), ["check", "."]],
    [bin("tsc"), ["--noEmit", "-p", "."]],
    // The pipeline again, with noUncheckedIndexedAccess (tsconfig.context.json).
    [bin("tsc"), ["--noEmit", "-p", "tsconfig.context.json"]],
  ]) {
    if ((await run(command, args, { buffered: true })) === 0) passed += 1;
    else failed += 1;
  }
}
const staticPhase =
  !only && process.env.TEST_SKIP_STATIC_CHECKS !== "1"
    ? timed("static checks", staticChecks, "(beside vitest)")
    : Promise.resolve();

if (only !== "e2e") {
  const vitestJson = path.join(resultsDir, "vitest.json");
  rmSync(vitestJson, { force: true });
  const status = await timed("vitest", () =>
    run(bin("vitest"), [
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${vitestJson}`,
      ...filters,
    ]),
  );
  const report = readJson(vitestJson);
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
  }
  if (status !== 0 && (!report || report.numFailedTests === 0)) broken = true;
}

await staticPhase;

/**
 * `next build`, unless TEST_REUSE_BUILD=1 and a build is there: .ci/run's second run (the other database) tests the
 * build its first run made of the same tree, since the build does not depend on the database.
 */
async function build() {
  const distDir = path.join(root, process.env.NEXT_DIST_DIR ?? ".next");
  if (process.env.TEST_REUSE_BUILD === "1" && existsSync(path.join(distDir, "BUILD_ID"))) {
    console.log(`\nReusing the build in ${path.relative(root, distDir)} (TEST_REUSE_BUILD=1).`);
    return 0;
  }
  return run(bin("next"), ["build"]);
}

if (only !== "unit") {
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(chromium)) {
    console.error(
      `Chromium not found at ${chromium}: install Debian's chromium package or set CHROMIUM_PATH.`,
    );
    broken = true;
  } else if ((await timed("build", build)) !== 0) {
    broken = true;
  } else {
    // Playwright workers, each with its own app server, fake providers and database (playwright.config.ts). Two by
    // default, one per core; the specs that start servers of their own run one at a time (the "servers" project).
    const workers = Number(process.env.E2E_WORKERS ?? 2);
    const e2eEnv = { E2E_WORKERS: String(workers) };
    let cleanup = async () => {};
    if (process.env.DATABASE_URL) {
      const name = `glassbox_e2e_${Date.now()}_${process.pid}`;
      const names = Array.from({ length: workers }, (_, index) => (index === 0 ? name : `${name}_w${index}`));
      const admin = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
      for (const each of names) await admin.unsafe(`CREATE DATABASE "${each}"`);
      await admin.end();
      const url = new URL(process.env.DATABASE_URL);
      url.pathname = `/${name}`;
      e2eEnv.E2E_DATABASE_URL = url.toString();
      cleanup = async () => {
        const again = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
        for (const each of names)
          await again.unsafe(`DROP DATABASE IF EXISTS "${each}" WITH (FORCE)`).catch(() => {});
        await again.end();
      };
    } else {
      const dir = mkdtempSync(path.join(tmpdir(), "glassbox-e2e-pglite-"));
      e2eEnv.E2E_PGLITE_DIR = dir;
      cleanup = async () => {
        for (let index = 0; index < workers; index++)
          rmSync(index === 0 ? dir : `${dir}-w${index}`, { recursive: true, force: true });
      };
    }
    const playwrightJson = path.join(resultsDir, "playwright.json");
    rmSync(playwrightJson, { force: true });
    const status = await timed("playwright", () =>
      run(bin("playwright"), ["test", "--reporter=list,json", ...filters], {
        extraEnv: { ...e2eEnv, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson },
      }),
    );
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

console.log("\nWall time:");
for (const [name, ms, note] of phases)
  console.log(`  ${name.padEnd(14)} ${formatDuration(ms)} ${note}`.trimEnd());
console.log(`  ${"total".padEnd(14)} ${formatDuration(Date.now() - startedAt)}`);

if (broken) failed = Math.max(failed, 1);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
