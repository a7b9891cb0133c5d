#!/usr/bin/env node
// `npm start`: build when the sources are newer than the last build, make sure there is an auth secret, then
// serve on PORT (default 3000) with scripts/serve.mjs. With no DATABASE_URL the embedded database lives in .data/.
//
// Signals (docs/deploy.md#graceful-shutdown): package.json's `start` is `exec node scripts/start.mjs`, so npm's
// shell becomes this process and npm's SIGTERM/SIGINT reach it (without the exec, npm signals only its shell,
// which dies, and npm exits at once while the server runs on undrained). This process passes them on to the child
// it runs (the build, then scripts/serve.mjs) and exits with that child's code once it has exited.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { constants } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const dataDir = path.join(root, ".data");
const nextBin = path.join(root, "node_modules", ".bin", "next");
process.env.NEXT_TELEMETRY_DISABLED = "1";
// The app drains itself on SIGTERM (lib/shutdown.ts): Next's own handler would exit in the middle of it.
process.env.NEXT_MANUAL_SIG_HANDLE = "1";

/** The child running now: a signal to this process goes on to it. */
let child = null;
/** The signal this process was told to stop with, if any: after a build, serving does not begin. */
let stopSignal = null;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopSignal ??= signal;
    child?.kill(signal);
  });
}

/** Runs a command with this process's output; resolves with the exit code it would be fair to exit with. */
function run(command, args) {
  return new Promise((resolve) => {
    child = spawn(command, args, { cwd: root, stdio: "inherit", env: process.env });
    child.on("error", (error) => {
      console.error(`could not run ${command}: ${error.message}`);
      resolve(1);
    });
    child.on("exit", (code, signal) => {
      child = null;
      // Killed by a signal: the shell's convention, 128 + its number.
      resolve(code ?? 128 + (constants.signals[signal] ?? 0));
    });
  });
}

function newestSourceTime() {
  let newest = 0;
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  for (const dir of ["app", "components", "lib", "db", "public"]) {
    if (existsSync(path.join(root, dir))) visit(path.join(root, dir));
  }
  for (const file of ["package.json", "next.config.mjs", "postcss.config.mjs", "instrumentation.ts"]) {
    if (existsSync(path.join(root, file))) newest = Math.max(newest, statSync(path.join(root, file)).mtimeMs);
  }
  return newest;
}

// The build goes where next.config.mjs puts it.
const buildId = path.join(root, process.env.NEXT_DIST_DIR ?? ".next", "BUILD_ID");
if (process.env.GLASSBOX_NO_BUILD === "1") {
  // An image built ahead (or a test of the build it just made) serves that build, whatever the files' times say.
  if (!existsSync(buildId)) {
    console.error(`GLASSBOX_NO_BUILD=1 but there is no build (${buildId}): run \`npm run build\` first`);
    process.exit(1);
  }
} else if (!existsSync(buildId) || statSync(buildId).mtimeMs < newestSourceTime()) {
  console.log("Building Glassbox (first run or sources changed)…");
  const status = await run(nextBin, ["build"]);
  if (status !== 0) process.exit(status);
}
if (stopSignal) process.exit(0);

if (!process.env.AUTH_SECRET && !process.env.BETTER_AUTH_SECRET) {
  // A per-install secret, kept beside the embedded database, so sessions survive restarts.
  mkdirSync(dataDir, { recursive: true });
  const secretFile = path.join(dataDir, "auth-secret");
  if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(32).toString("hex"), { mode: 0o600 });
  process.env.AUTH_SECRET = readFileSync(secretFile, "utf8").trim();
}

// scripts/serve.mjs runs `next start`, in WEB_CONCURRENCY worker processes when that is set; it drains them on
// SIGTERM or SIGINT and exits 0 once they all have.
process.exit(await run(process.execPath, [path.join(root, "scripts", "serve.mjs")]));
