import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import type { TestUser } from "@/tests/api-client";
import { type BenchProviders, startBenchProviders } from "./bench-providers";
import {
  checkStreams,
  checkTurns,
  failedTurn,
  lastSeqs,
  readTurn,
  replyText,
  type Seed,
  type StreamsChecked,
  scriptedReply,
  seedBurst,
  type TurnRead,
  type TurnsChecked,
} from "./concurrency";
import { localPostgresCpuMs, type ProcessUsage, processTreeUsage, residentKinds } from "./process-usage";
import {
  AUTH_SECRET,
  type HeapFigures,
  type Server,
  serverRssMb,
  startRelayServer,
  startServer,
} from "./served-server";
import { ms, round } from "./stats";

const ROOT = path.resolve(import.meta.dirname, "..");
const SAMPLE_EVERY_MS = 20;
/** The last replies' final writes land just after their streams end: CPU and "after" figures wait this long. */
const SETTLE_MS = 1_000;
const IDLE_MS = 10_000;
/** Warm-up turns run this many at once, twice: enough connections that every worker compiles the route first. */
const WARM_UP_TURNS = 8;
/** BENCH_ACCEPT_ENCODING=identity: the clients ask for the stream uncompressed (to see what compression costs). */
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING;
/**
 * BENCH_SERVED_BURST_COLLECT_BETWEEN=1: a full collection between the bursts, to tell what a burst's turns leave
 * behind per turn from what stays per conversation (the second burst then starts from a collected heap).
 */
const COLLECT_BETWEEN = process.env.BENCH_SERVED_BURST_COLLECT_BETWEEN === "1";
/** BENCH_SKIP_RELAY=1: no burst on the bare streamText relay (bench/relay-server.mjs) after the app's. */
const SKIP_RELAY = process.env.BENCH_SKIP_RELAY === "1";

/** A burst's figures on any server: what its streams came to, its time, memory and CPU. */
export interface BurstFigures extends StreamsChecked {
  turns: number;
  wallMs: number;
  /** The server's processes together, from /proc. */
  rssBeforeMb: number;
  peakRssMb: number;
  /** Once the streams have ended and their writes landed. */
  rssAfterMb: number;
  /** Anonymous resident memory (heaps, buffers) of the processes once the streams have ended, MB. */
  rssAnonAfterMb: number;
  cpuMsPerTurn: number;
  /**
   * The local Postgres server's CPU over the burst ÷ turns (backends, background workers): it runs on the same
   * cores. Null for a server with no database, or a database on another host.
   */
  databaseCpuMsPerTurn: number | null;
  /** Each worker's share of the burst's server CPU (ms): how evenly the kernel spread the connections. */
  workerCpuMs: number[];
  /** The heap before the burst, its peak during it (100 ms samples), and once it ended. */
  heapBefore: HeapFigures | null;
  heapPeak: HeapFigures | null;
  heapAfter: HeapFigures | null;
}

/** The app's burst: its figures, and what its stored rows came to. */
export type ServedBurstFigures = BurstFigures & TurnsChecked;

export interface ServedBurstRun {
  /** TURN_SETUP_CONCURRENCY for this server; null: the app's default. */
  setupConcurrency: number | null;
  /** The heap left after a full collection once warmed up, before the first burst (the server's live set). */
  liveHeapBefore: HeapFigures | null;
  first: ServedBurstFigures;
  /** With BENCH_SERVED_BURST_COLLECT_BETWEEN=1: the live heap between the bursts (else null). */
  liveHeapBetween: HeapFigures | null;
  second: ServedBurstFigures;
  /** After IDLE_MS with nothing to do, following the second burst. */
  rssAfterIdleMb: number;
  /** The same, each process: the primary first, then the workers. */
  rssAfterIdleByProcessMb: number[];
  heapAfterIdle: HeapFigures | null;
  /** After the idle spell and a full collection: what the server still holds. */
  liveHeapAfter: HeapFigures | null;
  rssAfterCollectionMb: number;
}

export interface ServedBurstResult {
  skipped: string | null;
  turns: number;
  workers: number;
  idleMs: number;
  runs: ServedBurstRun[];
  /**
   * The same burst on a bare streamText relay with as many workers, after the app's runs, against the same fake
   * provider: the floor each figure is read beside. Null when skipped (relaySkipped says why).
   */
  relay: BurstFigures | null;
  relaySkipped: string | null;
}

export function servedBurstSkipped(reason: string, turns: number): ServedBurstResult {
  return {
    skipped: reason,
    turns,
    workers: availableParallelism(),
    idleMs: IDLE_MS,
    runs: [],
    relay: null,
    relaySkipped: reason,
  };
}

/** What is missing for the measurement, or null. */
async function missingPrerequisite(redisUrl: string): Promise<string | null> {
  if (!process.env.DATABASE_URL) return "skipped (no DATABASE_URL)";
  if (!existsSync(path.join(ROOT, process.env.NEXT_DIST_DIR ?? ".next", "BUILD_ID")))
    return "skipped (no build: run `next build` first)";
  const { redisReachable } = await import("@/tests/fixtures/redis");
  return (await redisReachable(redisUrl)) ? null : `skipped (no Redis at ${redisUrl})`;
}

/** The TURN_SETUP_CONCURRENCY values to measure (BENCH_TURN_SETUP_CONCURRENCY), null for the app's default. */
function setupConcurrencies(): (number | null)[] {
  const listed = (process.env.BENCH_TURN_SETUP_CONCURRENCY ?? "").split(",").filter((value) => value.trim());
  if (listed.length === 0) return [null];
  return listed.map((value) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1)
      throw new Error(`BENCH_TURN_SETUP_CONCURRENCY: "${value}" is not a whole number ≥ 1`);
    return number;
  });
}

export async function measureServedBurst({
  turns = 200,
}: {
  turns?: number;
} = {}): Promise<ServedBurstResult> {
  const redisUrl = process.env.REDIS_URL || "redis://127.0.0.1:6379";
  const missing = await missingPrerequisite(redisUrl);
  if (missing) return servedBurstSkipped(missing, turns);
  const baseUrl = process.env.DATABASE_URL as string;
  const concurrencies = setupConcurrencies();
  const seed = await seedBurst(turns, WARM_UP_TURNS, { AUTH_SECRET });
  const { createDatabase } = await import("@/db/client");
  const { dropDatabase } = await import("@/tests/database");
  const handle = createDatabase({ url: seed.database.url });
  let providers: BenchProviders | null = null;
  try {
    await handle.ready;
    providers = await startBenchProviders("child-process");
    const runs: ServedBurstRun[] = [];
    for (const setupConcurrency of concurrencies) {
      const server = await startServer({
        databaseUrl: seed.database.url,
        redisUrl,
        providersUrl: providers.url,
        setupConcurrency,
      });
      try {
        const context = { server, seed, providers, db: handle.db, databaseUrl: seed.database.url };
        await warmUp(context);
        const liveHeapBefore = (await server.heap({ collect: true }))?.now ?? null;
        const first = await appBurst(context, `${setupConcurrency ?? "d"}.1`);
        const liveHeapBetween = COLLECT_BETWEEN
          ? ((await server.heap({ collect: true }))?.now ?? null)
          : null;
        const second = await appBurst(context, `${setupConcurrency ?? "d"}.2`);
        await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
        const idle = processTreeUsage(server.process.pid);
        const heapAfterIdle = (await server.heap())?.now ?? null;
        const liveHeapAfter = (await server.heap({ collect: true }))?.now ?? null;
        runs.push({
          setupConcurrency,
          liveHeapBefore,
          liveHeapBetween,
          first,
          second,
          rssAfterIdleMb: round(
            idle.reduce((sum, usage) => sum + usage.rssMb, 0),
            1,
          ),
          rssAfterIdleByProcessMb: idle.map((usage) => round(usage.rssMb, 1)),
          heapAfterIdle,
          liveHeapAfter,
          rssAfterCollectionMb: round(serverRssMb(server), 1),
        });
      } finally {
        await server.stop();
      }
    }
    const relay = SKIP_RELAY ? null : await relayBurst(seed, providers);
    return {
      skipped: null,
      turns,
      workers: availableParallelism(),
      idleMs: IDLE_MS,
      runs,
      relay,
      relaySkipped: SKIP_RELAY ? "skipped (BENCH_SKIP_RELAY=1)" : null,
    };
  } finally {
    await providers?.close();
    await handle.close();
    await dropDatabase(baseUrl, seed.database.name);
  }
}

interface BurstContext {
  server: Server;
  seed: Seed;
  providers: BenchProviders;
  /** The database the server uses, whose CPU the burst counts; null for one that uses none. */
  databaseUrl: string | null;
}

/** The app's burst (`burst`), and its replies checked where they are stored. */
async function appBurst(context: BurstContext & { db: Parameters<typeof lastSeqs>[0] }, label: string) {
  const { db, seed } = context;
  const seqBefore = await lastSeqs(db, seed.conversationIds);
  return burst(context, label, ({ texts, results }) =>
    checkTurns(db, { conversationIds: seed.conversationIds, seqBefore, texts, results }),
  );
}

/** The relay's burst after the same warm-up: it stores nothing, so only its streams are checked. */
async function relayBurst(seed: Seed, providers: BenchProviders): Promise<BurstFigures> {
  const server = await startRelayServer({ providersUrl: providers.url });
  try {
    const context = { server, seed, providers, databaseUrl: null };
    await warmUp(context);
    return await burst(context, "relay", async (streams) => checkStreams(streams));
  } finally {
    await server.stop();
  }
}

/** One streaming turn over HTTP, read to its end; times from `start`. */
async function httpTurn(
  origin: string,
  user: TestUser,
  conversationId: string,
  text: string,
  start: number,
): Promise<TurnRead> {
  try {
    const response = await fetch(`${origin}/api/chat`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        cookie: user.cookie,
        origin,
        // fetch's own (gzip, deflate, br), as a browser's: Next compresses the reply's stream unless told not to.
        ...(ACCEPT_ENCODING ? { "accept-encoding": ACCEPT_ENCODING } : {}),
      },
      body: JSON.stringify({
        id: conversationId,
        message: { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text }] },
      }),
    });
    return await readTurn(response, start);
  } catch (error) {
    return failedTurn(`the request failed: ${String(error)}`);
  }
}

/** Two rounds of WARM_UP_TURNS turns at once, each on a conversation of its own: every worker runs the route. */
async function warmUp({ server, seed, providers }: BurstContext): Promise<void> {
  for (let round = 0; round < 2; round++) {
    await providers.script(
      ...seed.warmUpConversationIds.map((_, index) => ({
        kind: "text" as const,
        text: `Warm-up ${round}.${index}.`,
        chunks: 5,
        chunkDelayMs: 20,
      })),
    );
    const results = await Promise.all(
      seed.warmUpConversationIds.map((conversationId, index) =>
        httpTurn(
          server.origin,
          seed.users[index % seed.users.length],
          conversationId,
          `Warm-up ${index}`,
          performance.now(),
        ),
      ),
    );
    const failed = results.find((result) => result.failure);
    if (failed) throw new Error(`a warm-up turn failed: ${failed.failure}`);
  }
}

/** Every user starts a turn at once; the figures once every stream has ended and its writes landed. */
async function burst<Checked extends StreamsChecked>(
  { server, seed, providers, databaseUrl }: BurstContext,
  label: string,
  check: (streams: { texts: string[]; results: TurnRead[] }) => Promise<Checked>,
): Promise<BurstFigures & Checked> {
  const { users, conversationIds } = seed;
  const texts = users.map((_, index) => replyText(`${label}.${index}`));
  await providers.script(...texts.map(scriptedReply));
  const heapBefore = (await server.heap())?.now ?? null;
  const usageBefore = processTreeUsage(server.process.pid);
  const databaseCpuBefore = databaseUrl ? localPostgresCpuMs(databaseUrl) : null;
  const sampler = sampleRss(server);
  const start = performance.now();
  const results = await Promise.all(
    users.map((user, index) =>
      httpTurn(server.origin, user, conversationIds[index], `Question ${index}: trams or taxis?`, start),
    ),
  );
  const wallMs = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const peakRssMb = sampler.stop();
  const usageAfter = processTreeUsage(server.process.pid);
  const databaseCpuAfter = databaseUrl ? localPostgresCpuMs(databaseUrl) : null;
  const heapAfter = await server.heap();
  const cpuMs = usageAfter.map((usage) => usage.cpuMs - cpuOf(usageBefore, usage.pid));
  const checked = await check({ texts, results });
  const sum = (usages: ProcessUsage[]) => usages.reduce((total, usage) => total + usage.rssMb, 0);
  return {
    ...checked,
    turns: users.length,
    wallMs: Math.round(wallMs),
    rssBeforeMb: round(sum(usageBefore), 1),
    peakRssMb: round(peakRssMb, 1),
    rssAfterMb: round(sum(usageAfter), 1),
    rssAnonAfterMb: round(
      usageAfter.reduce((total, usage) => total + residentKinds(usage.pid).anonMb, 0),
      1,
    ),
    cpuMsPerTurn: round(cpuMs.reduce((total, ms) => total + ms, 0) / users.length, 1),
    databaseCpuMsPerTurn:
      databaseCpuBefore === null || databaseCpuAfter === null
        ? null
        : round((databaseCpuAfter - databaseCpuBefore) / users.length, 1),
    workerCpuMs: cpuMs.slice(1),
    heapBefore,
    heapPeak: heapAfter?.peak ?? null,
    heapAfter: heapAfter?.now ?? null,
  };
}

function cpuOf(usages: ProcessUsage[], pid: number): number {
  return usages.find((usage) => usage.pid === pid)?.cpuMs ?? 0;
}

/** The server's summed RSS every SAMPLE_EVERY_MS until stop(), which returns the peak (MB). */
function sampleRss(server: Server) {
  let peak = serverRssMb(server);
  const timer = setInterval(() => {
    peak = Math.max(peak, serverRssMb(server));
  }, SAMPLE_EVERY_MS);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, serverRssMb(server));
    },
  };
}

/** One run's figures as keyed JSON (bench-results.json's `burst200.detail.by_setup_concurrency`). */
export function servedRunJson(run: ServedBurstRun) {
  return {
    ttft_median_ms: run.first.firstTokenMedian,
    ttft_max_ms: run.first.firstTokenMax,
    p99_gap_ms: run.first.addedGapP99,
    peak_rss_mb: run.first.peakRssMb,
    cpu_ms_per_turn: run.first.cpuMsPerTurn,
    database_cpu_ms_per_turn: run.first.databaseCpuMsPerTurn,
    errors: run.first.errors + run.second.errors,
    lost: run.first.lost + run.second.lost,
    /** The first burst's peak over what the server held before it, per open stream. */
    rss_per_stream_mb: round((run.first.peakRssMb - run.first.rssBeforeMb) / run.first.turns, 2),
    heap_per_stream_mb:
      run.first.heapPeak && run.first.heapBefore
        ? round((run.first.heapPeak.heapUsedMb - run.first.heapBefore.heapUsedMb) / run.first.turns, 2)
        : null,
    second_burst_ttft_median_ms: run.second.firstTokenMedian,
    second_burst_ttft_max_ms: run.second.firstTokenMax,
    second_burst_p99_gap_ms: run.second.addedGapP99,
    second_burst_peak_rss_mb: run.second.peakRssMb,
    rss_after_idle_mb: run.rssAfterIdleMb,
  };
}

/** Every phase of a run as keyed JSON. */
export function servedPhasesJson(run: ServedBurstRun) {
  const phase = (figures: ServedBurstFigures) => ({
    rss_before_mb: figures.rssBeforeMb,
    peak_rss_mb: figures.peakRssMb,
    rss_after_mb: figures.rssAfterMb,
    rss_anon_after_mb: figures.rssAnonAfterMb,
    heap_before: figures.heapBefore,
    heap_peak: figures.heapPeak,
    heap_after: figures.heapAfter,
    wall_ms: figures.wallMs,
    worker_cpu_ms: figures.workerCpuMs,
    p50_added_gap_ms: figures.addedGapP50,
    max_added_gap_ms: figures.addedGapMax,
    gaps_measured: figures.gapsMeasured,
    failures: figures.failures,
  });
  return {
    live_heap_before: run.liveHeapBefore,
    first: phase(run.first),
    live_heap_between: run.liveHeapBetween,
    second: phase(run.second),
    rss_after_idle_by_process_mb: run.rssAfterIdleByProcessMb,
    heap_after_idle: run.heapAfterIdle,
    live_heap_after: run.liveHeapAfter,
    rss_after_collection_mb: run.rssAfterCollectionMb,
  };
}

/** The table's rows (bench/report.ts): label, value, range, note. */
export function servedBurstRows(served: ServedBurstResult): [string, string, string, string][] {
  const rows: [string, string, string, string][] = [];
  const row = (label: string, value: string, range: string, note: string) => {
    rows.push([label, value, range, note]);
  };
  if (served.skipped || served.runs.length === 0) {
    row("burst (built app)", "—", "", served.skipped ?? "");
    return rows;
  }
  const mb = (figure: number | null | undefined) =>
    figure === null || figure === undefined ? "—" : String(figure);
  const heapLine = (figures: ServedBurstFigures) =>
    `heap used ${mb(figures.heapBefore?.heapUsedMb)} → peak ${mb(figures.heapPeak?.heapUsedMb)} → ${mb(figures.heapAfter?.heapUsedMb)} MB`;
  for (const [index, run] of served.runs.entries()) {
    const setup = `TURN_SETUP_CONCURRENCY ${run.setupConcurrency ?? "default"}`;
    const { first, second } = run;
    if (index > 0) {
      row(
        `burst, ${setup}: first token`,
        ms(first.firstTokenMedian),
        `max ${ms(first.firstTokenMax)}`,
        `gap p99 ${ms(first.addedGapP99)}; peak RSS ${first.peakRssMb} MB; ${ms(first.cpuMsPerTurn)} ms CPU per turn; errors ${first.errors}, lost ${first.lost}`,
      );
      continue;
    }
    row(
      `burst: ${first.turns} turns, ${served.workers} workers, first token`,
      ms(first.firstTokenMedian),
      `max ${ms(first.firstTokenMax)}`,
      `the built app (scripts/serve.mjs) over HTTP, ${setup}; all streams ended in ${first.wallMs} ms`,
    );
    row(
      "burst: added gap p99",
      ms(first.addedGapP99),
      `p50 ${ms(first.addedGapP50)}, max ${ms(first.addedGapMax)}`,
      `${first.gapsMeasured} gaps; the clients' own delays count too`,
    );
    row(
      "burst: errors / lost",
      `${first.errors} / ${first.lost}`,
      "",
      first.failures[0] ?? "every reply stored complete, full text",
    );
    const perStream = servedRunJson(run);
    row(
      "burst: server peak RSS (MB)",
      String(first.peakRssMb),
      `${first.rssBeforeMb} before, ${first.rssAfterMb} after`,
      `all the server's processes, /proc every 20 ms; ${heapLine(first)}`,
    );
    row(
      "burst: memory per open stream (MB)",
      String(perStream.rss_per_stream_mb),
      `heap used ${mb(perStream.heap_per_stream_mb)}`,
      "the peak over what the server held before the burst, ÷ turns",
    );
    row(
      "burst: server CPU per turn",
      ms(first.cpuMsPerTurn),
      `workers ${first.workerCpuMs.join(" / ")} ms`,
      "the server's processes only (user + system) ÷ turns",
    );
    row(
      "burst: Postgres CPU per turn",
      first.databaseCpuMsPerTurn === null ? "—" : ms(first.databaseCpuMsPerTurn),
      "",
      first.databaseCpuMsPerTurn === null
        ? "not measured: the database is not on this machine"
        : "the local Postgres server's processes (user + system) over the burst ÷ turns, on the same cores",
    );
    row(
      "second burst: first token",
      ms(second.firstTokenMedian),
      `max ${ms(second.firstTokenMax)}`,
      `gap p99 ${ms(second.addedGapP99)}; errors ${second.errors}, lost ${second.lost}; ${ms(second.cpuMsPerTurn)} ms CPU per turn`,
    );
    row(
      "second burst: server peak RSS (MB)",
      String(second.peakRssMb),
      `${second.rssBeforeMb} before, ${second.rssAfterMb} after`,
      heapLine(second),
    );
    row(
      `server RSS after ${served.idleMs / 1000} s idle (MB)`,
      String(run.rssAfterIdleMb),
      `by process ${run.rssAfterIdleByProcessMb.join(" / ")}`,
      `heap used ${mb(run.heapAfterIdle?.heapUsedMb)} of ${mb(run.heapAfterIdle?.heapTotalMb)} MB`,
    );
    row(
      "server live heap, before → after (MB)",
      `${mb(run.liveHeapBefore?.heapUsedMb)} → ${mb(run.liveHeapAfter?.heapUsedMb)}`,
      `RSS ${run.rssAfterCollectionMb} after`,
      "heap used after a full collection in each process, before the first burst and after the idle spell: what the server retains",
    );
  }
  if (served.relay) {
    const { relay } = served;
    row(
      "burst, bare streamText relay: first token",
      ms(relay.firstTokenMedian),
      `max ${ms(relay.firstTokenMax)}`,
      `bench/relay-server.mjs, ${served.workers} workers, the same clients and provider; all streams ended in ${relay.wallMs} ms`,
    );
    row(
      "burst, bare streamText relay: gap p99",
      ms(relay.addedGapP99),
      `p50 ${ms(relay.addedGapP50)}, max ${ms(relay.addedGapMax)}`,
      `errors ${relay.errors}${relay.failures[0] ? ` (${relay.failures[0]})` : ""}`,
    );
    row(
      "burst, bare streamText relay: peak RSS (MB)",
      String(relay.peakRssMb),
      `${relay.rssBeforeMb} before, ${relay.rssAfterMb} after`,
      "all the relay's processes",
    );
    row(
      "burst, bare streamText relay: CPU per turn",
      ms(relay.cpuMsPerTurn),
      `workers ${relay.workerCpuMs.join(" / ")} ms`,
      "the relay's processes only (user + system) ÷ turns",
    );
  } else if (served.relaySkipped) row("burst, bare streamText relay", "—", "", served.relaySkipped);
  return rows;
}

/** The relay's burst as keyed JSON (`burst200.detail.bare_relay`), beside the app's first burst. */
export function relayJson(relay: BurstFigures | null) {
  if (!relay) return null;
  return {
    ttft_median_ms: relay.firstTokenMedian,
    ttft_max_ms: relay.firstTokenMax,
    p99_gap_ms: relay.addedGapP99,
    peak_rss_mb: relay.peakRssMb,
    rss_before_mb: relay.rssBeforeMb,
    cpu_ms_per_turn: relay.cpuMsPerTurn,
    errors: relay.errors,
    wall_ms: relay.wallMs,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  measureServedBurst({ turns: Number(process.env.BENCH_CONCURRENT_TURNS ?? 200) })
    .then((result) => {
      // The table's rows on stderr, the figures as JSON on stdout.
      for (const [label, value, range, note] of servedBurstRows(result))
        console.error(`${label.padEnd(50)} ${value.padStart(12)}  ${range.padEnd(30)} ${note}`);
      console.log(
        JSON.stringify(
          {
            skipped: result.skipped,
            turns: result.turns,
            workers: result.workers,
            bare_relay: relayJson(result.relay),
            runs: result.runs.map((run) => ({
              setup_concurrency: run.setupConcurrency ?? "default",
              ...servedRunJson(run),
              phases: servedPhasesJson(run),
            })),
          },
          null,
          2,
        ),
      );
      process.exit(0);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
