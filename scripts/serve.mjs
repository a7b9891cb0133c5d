#!/usr/bin/env node
// Serve the built app on PORT (default 3000; HOST when set) with WEB_CONCURRENCY `next start` worker processes
// sharing that port (node:cluster). A Node process runs JavaScript on one core, so one process leaves the other
// cores of the machine idle; workers let one instance use them (docs/deploy.md, "Workers").
//
// - WEB_CONCURRENCY: a number of workers, or "auto" for one per core; 1 (one `next start`) when unset.
// - HEAP_GROWTH_PERCENT: how far each worker's heap may grow past its live objects (heapGrowthFlags).
// - More than one worker needs what several instances need: Postgres (DATABASE_URL; the embedded database belongs
//   to one process) and Redis (REDIS_URL: a stop and the rate limits must reach every worker).
// - Each worker is an instance of its own to the app (its INSTANCE_WORKER joins its instance id): a worker that
//   dies is started again under the same number, which marks the turns it was running interrupted at once.
// - SIGTERM or SIGINT is passed to every worker, each drains itself (lib/shutdown.ts), and this process exits when
//   they all have.
import { spawnSync } from "node:child_process";
import cluster from "node:cluster";
import { createRequire } from "node:module";
import os from "node:os";

const require = createRequire(import.meta.url);

/** The number of workers WEB_CONCURRENCY asks for; exits with a message naming the problem when it is not one. */
function workerCount(value = process.env.WEB_CONCURRENCY) {
  if (value === undefined || value.trim() === "") return 1;
  if (value.trim() === "auto") return os.availableParallelism();
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 64) {
    console.error(`WEB_CONCURRENCY must be a whole number from 1 to 64, or "auto" (got "${value}")`);
    process.exit(2);
  }
  return count;
}

/**
 * How far past its live objects a worker's V8 heap may grow before its next full collection (HEAP_GROWTH_PERCENT,
 * 50 when unset; 0 leaves it to V8). Left to itself, V8 lets a heap that allocates fast grow to several times its
 * live objects, and an idle process never collects it back: a burst of turns leaves each worker that much larger
 * until the next one (docs/deploy.md, "Workers"). Exits with a message naming the problem when it is not a number.
 */
function heapGrowthFlags(value = process.env.HEAP_GROWTH_PERCENT) {
  if (value === undefined || value.trim() === "") return ["--heap-growing-percent=50"];
  const percent = Number(value);
  if (!Number.isInteger(percent) || percent < 0 || percent > 1000) {
    console.error(`HEAP_GROWTH_PERCENT must be a whole number from 0 to 1000 (got "${value}")`);
    process.exit(2);
  }
  return percent === 0 ? [] : [`--heap-growing-percent=${percent}`];
}

/**
 * `flags`, when this node accepts them: a V8 flag a later node no longer knows would stop every worker as it
 * starts ("bad option"), so one that does not run here is left out, with a warning.
 */
function acceptedFlags(flags) {
  if (flags.length === 0) return flags;
  const probe = spawnSync(process.execPath, [...flags, "-e", ""], {
    stdio: "ignore",
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  if (probe.status === 0) return flags;
  console.error(`this node does not accept ${flags.join(" ")}: the workers start without it`);
  return [];
}

function serve() {
  const workers = workerCount();
  const heapFlags = acceptedFlags(heapGrowthFlags());
  if (workers > 1) {
    const missing = ["DATABASE_URL", "REDIS_URL"].filter((name) => !process.env[name]);
    if (missing.length > 0) {
      console.error(
        `WEB_CONCURRENCY=${workers} needs ${missing.join(" and ")}: workers share the database, and a stop or a ` +
          "rate limit must reach every worker (docs/deploy.md)",
      );
      process.exit(2);
    }
  }
  const port = process.env.PORT ?? "3000";
  // Each worker accepts on the shared socket itself. In the default round-robin mode the primary accepts and hands
  // each connection on, and after a worker was killed a new connection could hang there unanswered (seen in
  // e2e/workers.spec.ts, nearly every run).
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  cluster.setupPrimary({
    exec: require.resolve("next/dist/bin/next"),
    args: ["start", "-p", port, ...(process.env.HOST ? ["-H", process.env.HOST] : [])],
    execArgv: [...process.execArgv, ...heapFlags],
  });

  let stopping = false;
  /** Each running worker's number, and whether it has listened yet, by cluster id. */
  const running = new Map();
  const start = (index) => {
    const worker = cluster.fork(workers > 1 ? { INSTANCE_WORKER: String(index) } : {});
    running.set(worker.id, { index, listened: false });
  };
  cluster.on("listening", (worker) => {
    const entry = running.get(worker.id);
    if (entry) entry.listened = true;
  });
  cluster.on("exit", (worker, code, signal) => {
    const { index, listened } = running.get(worker.id);
    running.delete(worker.id);
    if (stopping) {
      // A worker that could not drain cleanly makes the instance's exit code say so.
      if (typeof code === "number" && code !== 0) process.exitCode = code;
      if (running.size === 0) process.exit();
      return;
    }
    // A worker that dies as it starts (no build, the port taken) would die again: the instance fails instead.
    if (!listened) {
      console.error(`worker ${index} exited (${signal ?? code}) as it started; stopping`);
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGTERM");
      process.exitCode = typeof code === "number" && code !== 0 ? code : 1;
      if (running.size === 0) process.exit();
      return;
    }
    // One worker down is an outage for the requests it held, not for the instance: start it again.
    console.error(`worker ${index} exited (${signal ?? code}); starting it again`);
    start(index);
  });
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    });
  }
  for (let index = 0; index < workers; index++) start(index);
}

if (cluster.isPrimary) serve();
