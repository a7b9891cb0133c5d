// The scale-out figure (docs/deploy.md): the same burst of streaming turns sent straight to one instance, then
// through nginx over two (deploy/nginx.conf, e2e/cluster.ts), each instance a `next start` of the built app on one
// Postgres database and one Redis. For each: errors, replies lost or incomplete (checked in the database), the
// first token's median and max. From the instances' own CPU time and resident memory (/proc) during the bursts:
// turns per second per core, and memory per open stream.
//
// Needs a build (`next build`), Postgres (DATABASE_URL), Redis (REDIS_URL or the local one) and nginx. Knobs:
// BENCH_SCALEOUT_TURNS (default 100), BENCH_SCALEOUT_PORT (nginx; the instances take the next two, default 3560),
// BENCH_SKIP_SCALEOUT=1. Run alone: `tsx --conditions=react-server bench/scale-out.ts`.

import { existsSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { type Cluster, type Instance, nginxAvailable, startCluster } from "@/e2e/cluster";
import { processUsage } from "./process-usage";
import { median, round } from "./stats";

const ROOT = path.resolve(import.meta.dirname, "..");
const CHUNKS = 20;
const CHUNK_DELAY_MS = 100;
const REPLY = Array.from({ length: CHUNKS }, (_, index) => `word${index} `).join("");

export interface BurstFigures {
  instances: number;
  turns: number;
  errors: number;
  lost: number;
  firstTokenMedianMs: number | null;
  firstTokenMaxMs: number | null;
  wallMs: number;
  /** The instances' CPU time (user + system) over the burst, per turn. */
  cpuMsPerTurn: number | null;
  /** The instances' resident memory at the burst's peak over what they held before it, per open stream. */
  rssPerStreamMb: number | null;
  failures: string[];
}

export interface ScaleOutResult {
  skipped: string | null;
  one: BurstFigures | null;
  two: BurstFigures | null;
  /** One instance running WEB_CONCURRENCY=2 workers (scripts/serve.mjs), sent the same burst straight. */
  oneWithWorkers: BurstFigures | null;
}

export function scaleOutSkipped(reason: string): ScaleOutResult {
  return { skipped: reason, one: null, two: null, oneWithWorkers: null };
}

/** The workers of the one-instance-with-workers figure: one per core of this machine. */
const WORKERS = 2;

/** What went wrong before measuring, or null when everything the figure needs is here. */
async function missingPrerequisite(redisUrl: string): Promise<string | null> {
  if (!process.env.DATABASE_URL) return "skipped (no DATABASE_URL)";
  if (!nginxAvailable()) return "skipped (nginx is not installed)";
  if (!existsSync(path.join(ROOT, process.env.NEXT_DIST_DIR ?? ".next", "BUILD_ID"))) {
    return "skipped (no build: run `next build` first)";
  }
  const { redisReachable } = await import("@/tests/fixtures/redis");
  return (await redisReachable(redisUrl)) ? null : `skipped (no Redis at ${redisUrl})`;
}

interface Session {
  cookie: string;
  origin: string;
}

async function signUp(base: string, name: string): Promise<Session> {
  const account = { email: `${name}-${Date.now()}@bench.test`, password: "a long enough password" };
  const post = (path: string, body: unknown) =>
    fetch(`${base}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify(body),
    });
  const signedUp = await post("/sign-up/email", { name, ...account });
  if (!signedUp.ok) throw new Error(`sign-up failed: ${signedUp.status} ${await signedUp.text()}`);
  // Sign-up starts no session (lib/auth.ts): the sign-in does.
  const response = await post("/sign-in/email", account);
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  return { cookie, origin: base };
}

async function newConversation(session: Session, base: string): Promise<string> {
  const response = await fetch(`${base}/api/conversations`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: session.cookie, origin: base },
    body: "{}",
  });
  if (response.status !== 201) throw new Error(`conversation: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** One turn: the time to its first text chunk, and whether its stream finished with the whole reply. */
async function turn(session: Session, base: string, conversationId: string, index: number) {
  const sent = performance.now();
  const response = await fetch(`${base}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: session.cookie, origin: base },
    body: JSON.stringify({
      id: conversationId,
      message: { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text: `Turn ${index}` }] },
    }),
  });
  if (response.status !== 200 || !response.body) {
    return { firstTokenMs: null, ok: false, problem: `turn ${index}: ${response.status}` };
  }
  let firstTokenMs: number | null = null;
  let text = "";
  let finished = false;
  let buffered = "";
  for await (const piece of response.body.pipeThrough(new TextDecoderStream())) {
    buffered += piece;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
      const chunk = JSON.parse(line.slice(6)) as { type: string; delta?: string };
      if (chunk.type === "text-delta") {
        firstTokenMs ??= performance.now() - sent;
        text += chunk.delta ?? "";
      }
      if (chunk.type === "finish") finished = true;
    }
  }
  const ok = finished && text === REPLY;
  return {
    firstTokenMs,
    ok,
    problem: ok ? null : `turn ${index}: finished ${finished}, ${text.length} chars`,
  };
}

async function burst(
  sql: postgres.Sql,
  base: string,
  measured: Instance[],
  turns: number,
): Promise<BurstFigures> {
  const session = await signUp(base, `burst${measured.length}`);
  const ids = await Promise.all(Array.from({ length: turns }, () => newConversation(session, base)));
  const pids = () => measured.map((instance) => instance.process?.pid);
  const before = pids().map(processUsage);
  let peakRssMb = 0;
  const sampler = setInterval(() => {
    peakRssMb = Math.max(
      peakRssMb,
      pids()
        .map(processUsage)
        .reduce((sum, usage) => sum + usage.rssMb, 0),
    );
  }, 50);
  const started = performance.now();
  const results = await Promise.all(ids.map((id, index) => turn(session, base, id, index)));
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  const after = pids().map(processUsage);
  const cpuMs = after.reduce((sum, usage, index) => sum + usage.cpuMs - before[index].cpuMs, 0);
  const rssBefore = before.reduce((sum, usage) => sum + usage.rssMb, 0);

  // Lost: a reply not stored complete with its whole text, or stored more than once.
  const stored = await sql<{ conversationId: string; replies: number; complete: number }[]>`
    select "conversationId", count(*)::int as replies,
      count(*) filter (where status = 'complete' and parts -> 0 ->> 'text' = ${REPLY})::int as complete
    from messages where "authorType" = 'persona' and "conversationId" in ${sql(ids)} group by "conversationId"`;
  const intact = stored.filter((row) => row.replies === 1 && row.complete === 1).length;
  const firstTokens = results.flatMap((result) =>
    result.firstTokenMs === null ? [] : [result.firstTokenMs],
  );
  return {
    instances: measured.length,
    turns,
    errors: results.filter((result) => !result.ok).length,
    lost: turns - intact,
    firstTokenMedianMs: firstTokens.length ? round(median(firstTokens), 1) : null,
    firstTokenMaxMs: firstTokens.length ? round(Math.max(...firstTokens), 1) : null,
    wallMs: Math.round(wallMs),
    cpuMsPerTurn: cpuMs > 0 ? round(cpuMs / turns, 1) : null,
    rssPerStreamMb: peakRssMb > 0 ? round((peakRssMb - rssBefore) / turns, 2) : null,
    failures: results.flatMap((result) => (result.problem ? [result.problem] : [])).slice(0, 5),
  };
}

export async function measureScaleOut(options: { turns?: number } = {}): Promise<ScaleOutResult> {
  const turns = options.turns ?? Number(process.env.BENCH_SCALEOUT_TURNS ?? 100);
  const redisUrl = process.env.REDIS_URL || "redis://127.0.0.1:6379";
  const missing = await missingPrerequisite(redisUrl);
  if (missing) return scaleOutSkipped(missing);
  const baseUrl = process.env.DATABASE_URL as string;
  const { createFreshDatabase, dropDatabase } = await import("@/tests/database");
  const { startFakeProviders } = await import("@/e2e/fake-providers/server");
  const database = await createFreshDatabase(baseUrl, "bench_scaleout");
  const providers = await startFakeProviders({ port: 0 });
  const sql = postgres(database.url, { max: 2, onnotice: () => {} });
  const port = Number(process.env.BENCH_SCALEOUT_PORT ?? 3560);
  const clusterOptions = {
    databaseUrl: database.url,
    redisUrl,
    env: {
      GLASSBOX_TEST: "1",
      LOG_LEVEL: "warn",
      CHAT_RATE_LIMIT_PER_MINUTE: "1000000",
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
      TITLE_MODEL_ID: "offline:echo",
      OPENAI_API_KEY: "bench-key",
      OPENAI_BASE_URL: `${providers.url}/v1`,
    },
  };
  // A few turns first on each instance (twice as many for the one with workers, which take turns in accepting
  // connections), so no burst pays for compiling the route.
  const warmUpTurns = 3;
  providers.script({
    kind: "text",
    text: REPLY,
    chunks: CHUNKS,
    chunkDelayMs: CHUNK_DELAY_MS,
    times: turns * 3 + warmUpTurns * (2 + WORKERS),
  });
  let cluster: Cluster | null = null;
  try {
    cluster = await startCluster({ ...clusterOptions, nginxPort: port, instancePorts: [port + 1, port + 2] });
    const [first] = cluster.instances;
    for (const instance of cluster.instances) await burst(sql, instance.origin, [instance], warmUpTurns);
    const one = await burst(sql, first.origin, [first], turns);
    const two = await burst(sql, cluster.url, cluster.instances, turns);
    await cluster.close();
    cluster = null;
    // The same burst to one instance of WORKERS worker processes (nginx is started too, and not used).
    cluster = await startCluster({
      ...clusterOptions,
      nginxPort: port + 3,
      instancePorts: [port + 4],
      workersPerInstance: WORKERS,
    });
    const [withWorkers] = cluster.instances;
    await burst(sql, withWorkers.origin, [withWorkers], warmUpTurns * WORKERS);
    const oneWithWorkers = await burst(sql, withWorkers.origin, [withWorkers], turns);
    return { skipped: null, one, two, oneWithWorkers };
  } finally {
    await cluster?.close();
    await sql.end();
    await providers.close();
    await dropDatabase(baseUrl, database.name);
  }
}

/** The `scaleout` section of bench-results.json. */
export function scaleOutJson(result: ScaleOutResult) {
  const figures = (burstFigures: BurstFigures | null) =>
    burstFigures && {
      errors: burstFigures.errors,
      lost: burstFigures.lost,
      ttft_median_ms: burstFigures.firstTokenMedianMs,
      ttft_max_ms: burstFigures.firstTokenMaxMs,
      wall_ms: burstFigures.wallMs,
      cpu_ms_per_turn: burstFigures.cpuMsPerTurn,
      failures: burstFigures.failures,
    };
  const cpuMs = result.one?.cpuMsPerTurn ?? null;
  return {
    skipped: result.skipped,
    turns: result.one?.turns ?? null,
    one_instance: figures(result.one),
    two_instances_nginx: figures(result.two),
    one_instance_two_workers: figures(result.oneWithWorkers),
    /** Memory per open stream of the instance with workers, all its processes together. */
    two_workers_rss_per_stream_mb: result.oneWithWorkers?.rssPerStreamMb ?? null,
    /** One core's worth of the server's CPU time, in turns: from the one-instance burst. */
    turns_per_second_per_core: cpuMs ? round(1000 / cpuMs, 1) : null,
    rss_per_stream_mb: result.one?.rssPerStreamMb ?? null,
  };
}

/** The table's rows: label, value, range, note. */
export function scaleOutRows(result: ScaleOutResult): [string, string, string, string][] {
  if (result.skipped || !result.one || !result.two || !result.oneWithWorkers)
    return [["scale-out", "—", "", result.skipped ?? ""]];
  const row = (label: string, figures: BurstFigures): [string, string, string, string] => [
    `scale-out: ${figures.turns} turns, ${label}`,
    String(figures.firstTokenMedianMs),
    `max ${figures.firstTokenMaxMs}`,
    `errors ${figures.errors}, lost ${figures.lost}; ${figures.wallMs} ms in all; ${figures.cpuMsPerTurn} ms CPU per turn`,
  ];
  const json = scaleOutJson(result);
  return [
    row("one instance, first token", result.one),
    row("nginx over two, first token", result.two),
    row(`one instance of ${WORKERS} workers, first token`, result.oneWithWorkers),
    [
      "scale-out: turns per second per core",
      String(json.turns_per_second_per_core),
      "",
      `${json.rss_per_stream_mb} MB of RSS per open stream`,
    ],
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  measureScaleOut()
    .then((result) => {
      console.log(JSON.stringify(scaleOutJson(result), null, 2));
      process.exit(0);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
