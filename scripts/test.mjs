#!/usr/bin/env node
// `npm test`: every suite. Vitest (unit + integration, real Postgres when DATABASE_URL is set, else PGlite), with
// lint (Biome), the type checks and the production build beside it on the CPU time it leaves idle; then Playwright
// end-to-end tests in Chromium against that build.
// Prints each phase's wall time, then ends with one line: `N passed, N failed`.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import postgres from "postgres";
import { chromiumPath } from "./chromium-path.mjs";

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
/** What failed, named, so that a run's last lines say which test to look at: `suite › file › test`. */
const failures = [];
/** Each phase's wall time, printed at the end: `[name, milliseconds, note]`. */
const phases = [];

/**
 * Runs `command` and resolves with its exit status. `buffered` collects its output and prints it in one piece when
 * it ends, so a step that runs beside another does not interleave its lines with that one's; `background` runs it
 * only on the CPU time the step it runs beside leaves idle.
 */
function run(command, args, { extraEnv = {}, buffered = false, background = false } = {}) {
  const title = `$ ${path.basename(command)} ${args.join(" ")}`;
  if (!buffered) console.log(`\n${title}`);
  // A background step runs only on CPU time the others leave idle (Linux's SCHED_IDLE, through util-linux's chrt).
  // A nice value would not do: each of a build's many threads would still take its share beside Vitest's.
  const [file, fileArgs] =
    background && existsSync("/usr/bin/chrt") ? ["chrt", ["--idle", "0", command, ...args]] : [command, args];
  return new Promise((resolve) => {
    const child = spawn(file, fileArgs, {
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

/**
 * Vitest's JSON report: each failed test, and each file that failed with no failed test, named by the error its
 * loading or one of its `beforeAll`/`afterAll` hooks threw; then each error nothing handled (`suiteErrors`, from
 * tests/reporters/suite-errors-reporter.ts).
 */
function vitestFailures(report, suiteErrors) {
  const names = suiteErrors
    .filter((error) => error.file === "")
    .map((error) => `vitest › (an error no test handled)${firstLinesOf(error.message)}`);
  for (const file of report.testResults ?? []) {
    const relative = path.relative(root, file.name);
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failedTests)
      names.push(`vitest › ${relative} › ${test.fullName}${firstLinesOf(test.failureMessages?.[0])}`);
    if (file.status !== "failed" || failedTests.length > 0) continue;
    const errors = suiteErrors.filter((error) => error.file === file.name);
    if (errors.length === 0) names.push(`vitest › ${relative} › (the file itself)`);
    for (const error of errors) {
      const where =
        error.suite.length > 0
          ? `${error.suite.join(" ")} (a hook)`
          : "(the file itself: its loading or a hook)";
      names.push(`vitest › ${relative} › ${where}${firstLinesOf(error.message)}`);
    }
  }
  return names;
}

/**
 * The start of a failure's message on the failure's own line (" — " then its first lines, colours taken out), so the
 * summary at the end of a long CI log says why, not only what: a property test's seed and counterexample, say.
 */
function firstLinesOf(message) {
  if (!message) return "";
  const lines = stripVTControlCharacters(String(message))
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const start = lines.slice(0, 4).join(" | ");
  return ` — ${start.length > 1000 ? `${start.slice(0, 1000)}…` : start}`;
}

/** Playwright's JSON report: each test that failed, and each that failed once and then passed on a retry. */
function playwrightFailures(report) {
  const names = [];
  const visit = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === "unexpected" || test.status === "flaky")
          names.push(
            `playwright${test.status === "flaky" ? " (flaky)" : ""} › ${spec.file}:${spec.line} › ${spec.title}` +
              firstLinesOf(test.results?.find((result) => result.error)?.error?.message),
          );
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report.suites ?? []) visit(suite);
  for (const error of report.errors ?? [])
    names.push(`playwright › ${String(error.message ?? "").split("\n")[0]}`);
  return names;
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
    if ((await run(command, args, { buffered: true, background: true })) === 0) passed += 1;
    else {
      failed += 1;
      failures.push(`static check › ${path.basename(command)} ${args.join(" ")}`);
    }
  }
}

/**
 * `next build`, unless TEST_REUSE_BUILD=1 and a build is there: .ci/run's second run (the other database) tests the
 * build its first run made of the same tree, since the build does not depend on the database. When this run's
 * static checks follow, the build skips its own type check (NEXT_SKIP_TYPE_CHECK, next.config.mjs): `tsc -p .` then
 * checks the same files, and the route types the build generates in `.next/types` with them.
 */
async function build() {
  const distDir = path.join(root, process.env.NEXT_DIST_DIR ?? ".next");
  if (process.env.TEST_REUSE_BUILD === "1" && existsSync(path.join(distDir, "BUILD_ID"))) {
    console.log(`\nReusing the build in ${path.relative(root, distDir)} (TEST_REUSE_BUILD=1).`);
    return 0;
  }
  // CI builds a fresh clone once: writing Turbopack's build cache for a next build that never comes would cost it
  // about 20 s (next.config.mjs). A developer's repeated runs keep it.
  return run(bin("next"), ["build"], {
    buffered: only !== "e2e",
    background: only !== "e2e",
    extraEnv: {
      ...(process.env.CI ? { NEXT_BUILD_CACHE: "0" } : {}),
      ...(runsStaticChecks ? { NEXT_SKIP_TYPE_CHECK: "1" } : {}),
    },
  });
}

const runsStaticChecks = !only && process.env.TEST_SKIP_STATIC_CHECKS !== "1";
const chromium = chromiumPath();
const runsE2e = only !== "unit" && existsSync(chromium);
if (only !== "unit" && !runsE2e) {
  console.error(
    `Chromium not found at ${chromium}: install Debian's chromium-headless-shell (or chromium) or set CHROMIUM_PATH.`,
  );
  broken = true;
}

// Beside Vitest, one after another, on the CPU time it leaves idle: the production build the end-to-end tests run
// against, then the static checks. Neither depends on the database, and Vitest waits on sockets, child processes and
// the database often enough to leave CPU time to them. The end-to-end tests wait for the build only: checks still
// running by then go on beside them, still on idle time only.
const builtBesideVitest = runsE2e ? timed("build", build, only ? "" : "(beside vitest)") : Promise.resolve(0);
const checkedBesideVitest = builtBesideVitest.then(() =>
  runsStaticChecks ? timed("static checks", staticChecks, "(beside vitest, then playwright)") : undefined,
);

if (only !== "e2e") {
  const vitestJson = path.join(resultsDir, "vitest.json");
  const suiteErrorsJson = path.join(resultsDir, "vitest-suite-errors.json");
  rmSync(vitestJson, { force: true });
  rmSync(suiteErrorsJson, { force: true });
  const status = await timed("vitest", () =>
    run(
      bin("vitest"),
      [
        "run",
        "--reporter=default",
        "--reporter=json",
        "--reporter=./tests/reporters/suite-errors-reporter.ts",
        `--outputFile.json=${vitestJson}`,
        ...filters,
      ],
      { extraEnv: { GLASSBOX_SUITE_ERRORS_FILE: suiteErrorsJson } },
    ),
  );
  const report = readJson(vitestJson);
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    failures.push(...vitestFailures(report, readJson(suiteErrorsJson) ?? []));
  }
  if (status !== 0 && (!report || report.numFailedTests === 0)) broken = true;
}

const buildStatus = await builtBesideVitest;

if (runsE2e) {
  if (buildStatus !== 0) {
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
      failures.push(...playwrightFailures(report));
    }
    if (status !== 0 && (!report || report.stats.unexpected === 0)) broken = true;
  }
}

await checkedBesideVitest;

if (existsSync(wireViolations)) {
  const violations = readFileSync(wireViolations, "utf8").split("\n").filter(Boolean);
  console.error(`\n${violations.length} recorded attempt(s) whose wire map violates its invariants:`);
  for (const violation of violations) console.error(`  ${violation}`);
  failed += violations.length;
  failures.push(...violations.map((violation) => `wire check › ${violation.slice(0, 200)}`));
}

console.log("\nWall time:");
for (const [name, ms, note] of phases)
  console.log(`  ${name.padEnd(14)} ${formatDuration(ms)} ${note}`.trimEnd());
console.log(`  ${"total".padEnd(14)} ${formatDuration(Date.now() - startedAt)}`);

if (failures.length > 0) {
  console.log("\nFailed:");
  for (const name of failures) console.log(`  FAILED ${name}`);
}
if (broken) failed = Math.max(failed, 1);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
