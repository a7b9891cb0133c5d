#!/usr/bin/env node
// `npm start`: build when the sources are newer than the last build, make sure there is an auth secret, then
// serve on PORT (default 3000) with scripts/serve.mjs. With no DATABASE_URL the embedded database lives in .data/.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const dataDir = path.join(root, ".data");
const nextBin = path.join(root, "node_modules", ".bin", "next");
process.env.NEXT_TELEMETRY_DISABLED = "1";
// The app drains itself on SIGTERM (lib/shutdown.ts): Next's own handler would exit in the middle of it.
process.env.NEXT_MANUAL_SIG_HANDLE = "1";

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
  for (const file of ["package.json", "next.config.ts", "postcss.config.mjs", "instrumentation.ts"]) {
    if (existsSync(path.join(root, file))) newest = Math.max(newest, statSync(path.join(root, file)).mtimeMs);
  }
  return newest;
}

const buildId = path.join(root, ".next", "BUILD_ID");
if (!existsSync(buildId) || statSync(buildId).mtimeMs < newestSourceTime()) {
  console.log("Building Glassbox (first run or sources changed)…");
  const build = spawnSync(nextBin, ["build"], { cwd: root, stdio: "inherit", env: process.env });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (!process.env.AUTH_SECRET && !process.env.BETTER_AUTH_SECRET) {
  // A per-install secret, kept beside the embedded database, so sessions survive restarts.
  mkdirSync(dataDir, { recursive: true });
  const secretFile = path.join(dataDir, "auth-secret");
  if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(32).toString("hex"), { mode: 0o600 });
  process.env.AUTH_SECRET = readFileSync(secretFile, "utf8").trim();
}

// scripts/serve.mjs runs `next start`, in WEB_CONCURRENCY worker processes when that is set.
const server = spawn(process.execPath, [path.join(root, "scripts", "serve.mjs")], {
  cwd: root,
  stdio: "inherit",
  env: process.env,
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
