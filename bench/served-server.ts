// The built app as `npm start` runs it with one worker per core (scripts/serve.mjs), for the served burst
// (bench/served-burst.ts), and the bare streamText relay it is measured against (bench/relay-server.mjs), run the
// same way: started, asked for its processes' V8 heap (bench/memory-probe.cjs) and RSS, stopped.

import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { processTreeUsage } from "./process-usage";
import { round } from "./stats";

const ROOT = path.resolve(import.meta.dirname, "..");
/** BENCH_CPU_PROF_SERVER=<dir>: each server process writes a CPU profile there as it stops (cpu-profile-probe.cjs). */
const PROFILE_DIR = process.env.BENCH_CPU_PROF_SERVER;
/**
 * BENCH_SERVER_NODE_FLAGS="<flags>": node or V8 flags for every server process (say `--max-semi-space-size=32`), to
 * measure a runtime setting against the default in the same conditions.
 */
const EXTRA_NODE_FLAGS = process.env.BENCH_SERVER_NODE_FLAGS?.trim();
/** The server's AUTH_SECRET, which the seeded users' session cookies are signed with. */
export const AUTH_SECRET = "bench-secret-bench-secret-bench-secret";

/** The V8 heap of the server's processes, summed (MB), from bench/memory-probe.cjs. */
export interface HeapFigures {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  /** Used size of each V8 heap space (new_space, old_space, code_space, large_object_space, …); not for peaks. */
  spacesMb?: Record<string, number>;
}

/** The heap now, and its peaks since the last reading. */
export interface HeapReading {
  now: HeapFigures;
  peak: HeapFigures;
}

export interface Server {
  origin: string;
  process: ChildProcess;
  /**
   * The V8 heap of every server process, summed (null when a process did not answer in time); after a full
   * collection in each when `collect`.
   */
  heap(options?: { collect?: boolean }): Promise<HeapReading | null>;
  stop(): Promise<void>;
}

/** `node scripts/serve.mjs` as `npm start` runs it, with one worker per core; resolves once it answers /api/ready. */
export function startServer(options: {
  databaseUrl: string;
  redisUrl: string;
  providersUrl: string;
  setupConcurrency: number | null;
}): Promise<Server> {
  return startProcesses(
    path.join(ROOT, "scripts/serve.mjs"),
    Number(process.env.BENCH_SERVED_BURST_PORT ?? 3790),
    {
      // As scripts/start.mjs sets them for `npm start`.
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_MANUAL_SIG_HANDLE: "1",
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next",
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      AUTH_SECRET,
      GLASSBOX_TEST: "1",
      LOG_LEVEL: "warn",
      CHAT_RATE_LIMIT_PER_MINUTE: "1000000",
      TITLE_MODEL_ID: "offline:echo",
      OPENAI_API_KEY: "bench-key",
      OPENAI_BASE_URL: `${options.providersUrl}/v1`,
      ...(options.setupConcurrency === null
        ? {}
        : { TURN_SETUP_CONCURRENCY: String(options.setupConcurrency) }),
    },
  );
}

/** The bare streamText relay (bench/relay-server.mjs) with as many workers; resolves once it answers /api/ready. */
export function startRelayServer(options: { providersUrl: string }): Promise<Server> {
  return startProcesses(
    path.join(ROOT, "bench/relay-server.mjs"),
    Number(process.env.BENCH_SERVED_BURST_PORT ?? 3790) + 1,
    { OPENAI_API_KEY: "bench-key", OPENAI_BASE_URL: `${options.providersUrl}/v1` },
  );
}

/** `entry` with one worker per core on `port`, the probes preloaded in each process, and `env` on top. */
async function startProcesses(entry: string, port: number, env: Record<string, string>): Promise<Server> {
  const origin = `http://127.0.0.1:${port}`;
  const memoryDir = mkdtempSync(path.join(tmpdir(), "glassbox-burst-memory-"));
  const log = path.join(memoryDir, "server.log");
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: [
        `--require ${path.join(ROOT, "bench/memory-probe.cjs")}`,
        ...(PROFILE_DIR ? [`--require ${path.join(ROOT, "bench/cpu-profile-probe.cjs")}`] : []),
        ...(EXTRA_NODE_FLAGS ? [EXTRA_NODE_FLAGS] : []),
      ].join(" "),
      GLASSBOX_BENCH_MEMORY_DIR: memoryDir,
      ...(PROFILE_DIR ? { GLASSBOX_BENCH_PROFILE_DIR: PROFILE_DIR } : {}),
      WEB_CONCURRENCY: String(availableParallelism()),
      PORT: String(port),
      HOST: "127.0.0.1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so that a kill reaches its workers too.
    detached: true,
  });
  const output = createWriteStream(log);
  child.stdout?.pipe(output);
  child.stderr?.pipe(output);
  const pids = () => processTreeUsage(child.pid).map((usage) => usage.pid);
  const server: Server = {
    origin,
    process: child,
    heap: ({ collect = false } = {}) => readHeap(pids(), memoryDir, collect),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        // A profiled server drains and exits by itself, so that each worker writes its profile.
        process.kill(
          PROFILE_DIR ? (child.pid as number) : -(child.pid as number),
          PROFILE_DIR ? "SIGTERM" : "SIGKILL",
        );
        await exited;
      }
      rmSync(memoryDir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the server exited (${child.exitCode}): ${readFileSync(log, "utf8").slice(-2_000)}`);
    if (
      await fetch(`${origin}/api/ready`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return server;
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error("the server did not answer /api/ready within 120 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Asks each process for its heap (SIGUSR2 to bench/memory-probe.cjs) and sums the answers. */
async function readHeap(pids: number[], memoryDir: string, collect: boolean): Promise<HeapReading | null> {
  const files = pids.map((pid) => path.join(memoryDir, `${pid}.json`));
  for (const file of files) rmSync(file, { force: true });
  const collectFile = path.join(memoryDir, "collect");
  if (collect) writeFileSync(collectFile, "");
  try {
    for (const pid of pids) process.kill(pid, "SIGUSR2");
    const deadline = Date.now() + 5_000;
    while (!files.every((file) => existsSync(file))) {
      if (Date.now() > deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    rmSync(collectFile, { force: true });
  }
  const now = emptyHeap();
  const peak = emptyHeap();
  now.spacesMb = {};
  for (const file of files) {
    const reading = JSON.parse(readFileSync(file, "utf8")) as {
      now: NodeMemoryUsage;
      peaks: NodeMemoryUsage;
      spaces: Record<string, number>;
    };
    add(now, reading.now);
    add(peak, reading.peaks);
    for (const [space, bytes] of Object.entries(reading.spaces))
      now.spacesMb[space] = round((now.spacesMb[space] ?? 0) + bytes / 2 ** 20, 1);
  }
  return { now, peak };
}

type NodeMemoryUsage = Record<"rss" | "heapUsed" | "heapTotal" | "external" | "arrayBuffers", number>;

function emptyHeap(): HeapFigures {
  return { rssMb: 0, heapUsedMb: 0, heapTotalMb: 0, externalMb: 0, arrayBuffersMb: 0 };
}

function add(into: HeapFigures, usage: NodeMemoryUsage): void {
  const mb = (bytes: number) => bytes / 2 ** 20;
  into.rssMb = round(into.rssMb + mb(usage.rss), 1);
  into.heapUsedMb = round(into.heapUsedMb + mb(usage.heapUsed), 1);
  into.heapTotalMb = round(into.heapTotalMb + mb(usage.heapTotal), 1);
  into.externalMb = round(into.externalMb + mb(usage.external), 1);
  into.arrayBuffersMb = round(into.arrayBuffersMb + mb(usage.arrayBuffers), 1);
}

export function serverRssMb(server: Server): number {
  return processTreeUsage(server.process.pid).reduce((sum, usage) => sum + usage.rssMb, 0);
}
