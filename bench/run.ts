// `npm run bench`: the performance targets in one run — a burst of 200 streaming turns at once on the built app
// with one worker per core (first, on a fresh machine state; bench/served-burst.ts), the same burst on the route
// handler in-process (bench/concurrency.ts), the pipeline over 1 000 / 2 000 / 10 000 / 100 000 stored messages, the same
// build with default settings, the AI SDK and LangChain peers on the same messages, the turn overhead (CPU and
// time to the first token, at 100 / 1 000 / 10 000 stored messages), the gateway (/v1: its added time to the first
// token over a direct call, and calls per second with 64 clients) and the scale-out behind nginx. Prints a
// table, writes it with the run's date and machine to bench/RESULTS.md, and writes bench-results.json at the
// repository root.
//
// Knobs (environment): BENCH_LANGCHAIN_RUNS (default 1; 0 skips it: it takes tens of seconds),
// BENCH_TURNS (default 20), BENCH_SKIP_TURN=1, BENCH_CONCURRENT_TURNS (default 200, both bursts),
// BENCH_SKIP_SERVED_BURST=1, BENCH_TURN_SETUP_CONCURRENCY=<n,n,…> (the served burst once per value; needs a build),
// BENCH_SKIP_RELAY=1 (the served burst's bare streamText relay, bench/relay-server.mjs), BENCH_SERVER_NODE_FLAGS=<flags>
// (node or V8 flags for every process of both served servers),
// BENCH_SKIP_CONCURRENCY=1 (the in-process burst), BENCH_CPU_PROF=<dir> (the in-process burst's child writes a
// `--cpu-prof` profile there), BENCH_CPU_PROF_SERVER=<dir> (each process of the served burst's server writes a CPU
// profile there when it stops; build with NEXT_SERVER_MINIFY=0 for readable names), BENCH_TURN_PROFILE_FILE=<file>
// (the turn's CPU profile and its turns' windows, saved), BENCH_HEAP_SNAPSHOT=<file> (the in-process burst writes
// a heap snapshot there BENCH_HEAP_SNAPSHOT_AT_MS after it starts, default 4 000; its figures then suffer the pause),
// BENCH_SEMI_SPACE_MB (default 256; 0 keeps node's default; the concurrency run is in a child without it),
// BENCH_GATEWAY_CALLS (default 200), BENCH_GATEWAY_RPS_CALLS (default 320), BENCH_SKIP_GATEWAY=1,
// BENCH_SKIP_EXPERIMENT=1 (bench/experiment.ts), BENCH_SCALEOUT_TURNS (default 100), BENCH_SKIP_SCALEOUT=1 (bench/scale-out.ts: needs a build and nginx).
// `npm run bench` re-runs itself in a node with --expose-gc (a full collection before every timed run, outside the
// timed region) and a larger young generation (--max-semi-space-size=256): a 100 000-message build allocates a
// few hundred MB that all stays alive until the build ends, and with node's default or 64 MB semi-spaces
// the scavenger copies and promotes it several times over (100 000 then costs 16–18× 10 000 instead of ~10×).

import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { type ConcurrencyResult, concurrencySkipped, measureConcurrency } from "./concurrency";
import { generateConversation } from "./conversation-generator";
import { type ExperimentBenchResult, experimentSkipped, measureExperiment } from "./experiment";
import { type GatewayResult, gatewaySkipped, measureGateway } from "./gateway";
import { measureAiSdk, measureLangChain, type PeerFigures, toLangChainMessages, toUIMessages } from "./peers";
import {
  type DefaultSettingsFigure,
  measureDefaultSettings,
  measurePipeline,
  type PipelineFigure,
} from "./pipeline";
import { buildResults, printTable, writeResults, writeResultsMarkdown } from "./report";
import { measureScaleOut, type ScaleOutResult, scaleOutSkipped } from "./scale-out";
import { measureServedBurst, type ServedBurstResult, servedBurstSkipped } from "./served-burst";
import { gcBetweenRuns } from "./stats";
import { measureTurnOverhead, type TurnOverheadResult, turnOverheadSkipped } from "./turn-overhead";

const SIZES = [1_000, 2_000, 10_000, 100_000];

/** The first sizes get a longer warm-up: they are measured first, while the engine is still compiling the stages. */
function runsFor(size: number): { runs: number; warmup: number } {
  return size >= 100_000 ? { runs: 7, warmup: 2 } : { runs: 15, warmup: 20 };
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function main(): Promise<void> {
  const root = path.resolve(import.meta.dirname, "..");
  const startedAt = performance.now();
  const loadBefore = os.loadavg();

  // The burst runs first, on a machine nothing else in this run has warmed or loaded yet: after the 100 000-message
  // pipeline sizes (a parent holding a large heap, Postgres busy with the turn bench's seeding) it read up to twice
  // as slow, for reasons outside the turn.
  const concurrentTurns = Number(process.env.BENCH_CONCURRENT_TURNS ?? 200);
  let servedBurst: ServedBurstResult;
  if (process.env.BENCH_SKIP_SERVED_BURST === "1") {
    servedBurst = servedBurstSkipped("skipped (BENCH_SKIP_SERVED_BURST=1)", concurrentTurns);
  } else {
    log(`burst: ${concurrentTurns} streaming turns at once on the built app, twice (Postgres, Redis)`);
    servedBurst = await measureServedBurst({ turns: concurrentTurns });
  }
  let concurrency: ConcurrencyResult;
  if (process.env.BENCH_SKIP_CONCURRENCY === "1") {
    concurrency = concurrencySkipped("skipped (BENCH_SKIP_CONCURRENCY=1)", concurrentTurns);
  } else {
    log(
      `concurrency: ${concurrentTurns} streaming turns at once on the route handler in-process, on Postgres`,
    );
    concurrency = await measureConcurrency({ turns: concurrentTurns });
  }

  const pipeline: PipelineFigure[] = [];
  const defaults: DefaultSettingsFigure[] = [];
  let aiSdk: PeerFigures["aiSdk"] | null = null;
  let langChain: PeerFigures["langChain"] = null;
  let langChainSkipped: string | null = null;
  const langChainRuns = Number(process.env.BENCH_LANGCHAIN_RUNS ?? 1);

  for (const size of SIZES) {
    log(`generating ${size} messages`);
    let conversation: ReturnType<typeof generateConversation> | null = generateConversation({
      messageCount: size,
    });
    log(`pipeline at ${size}`);
    pipeline.push(measurePipeline(conversation, runsFor(size)));
    if (size === 1_000 || size === 10_000 || size === 100_000) {
      defaults.push(measureDefaultSettings(conversation, { runs: 15, warmup: 5 }));
    }
    if (size === 10_000) {
      log("AI SDK peer at 10000");
      aiSdk = await measureAiSdk(toUIMessages(conversation), { runs: 15, warmup: 5 });
    }
    if (size === 2_000) {
      if (langChainRuns > 0) {
        log(`LangChain peer at 2000 (${langChainRuns} run(s); this takes a while)`);
        const messages = toLangChainMessages(conversation);
        const result = await measureLangChain(messages, { runs: langChainRuns });
        langChain = { ...result, messagesIn: messages.length };
      } else langChainSkipped = "skipped (BENCH_LANGCHAIN_RUNS=0)";
    }
    conversation = null;
  }
  if (aiSdk === null) throw new Error("the AI SDK peer was not measured");

  let turn: TurnOverheadResult;
  if (process.env.BENCH_SKIP_TURN === "1") {
    turn = turnOverheadSkipped("skipped (BENCH_SKIP_TURN=1)");
  } else {
    log("turn overhead on Postgres");
    turn = await measureTurnOverhead({ turns: Number(process.env.BENCH_TURNS ?? 20) });
  }

  let gateway: GatewayResult;
  if (process.env.BENCH_SKIP_GATEWAY === "1") gateway = gatewaySkipped("skipped (BENCH_SKIP_GATEWAY=1)");
  else {
    log("gateway: /v1 streaming calls against direct ones, then 64 clients at once (Postgres)");
    gateway = await measureGateway({
      calls: Number(process.env.BENCH_GATEWAY_CALLS ?? 200),
      rpsCalls: Number(process.env.BENCH_GATEWAY_RPS_CALLS ?? 320),
    });
  }

  let experiment: ExperimentBenchResult;
  if (process.env.BENCH_SKIP_EXPERIMENT === "1")
    experiment = experimentSkipped("skipped (BENCH_SKIP_EXPERIMENT=1)");
  else {
    log("lab: a dry experiment over 1000 conversations of 200 messages (Postgres)");
    experiment = await measureExperiment();
  }

  let scaleOut: ScaleOutResult;
  if (process.env.BENCH_SKIP_SCALEOUT === "1") scaleOut = scaleOutSkipped("skipped (BENCH_SKIP_SCALEOUT=1)");
  else {
    log("scale-out: one instance, then nginx over two (built app, Postgres, Redis)");
    scaleOut = await measureScaleOut();
  }

  const environment = {
    node: process.version,
    cpus: os.cpus().length,
    execArgv: process.execArgv,
    nodeOptions: process.env.NODE_OPTIONS ?? "",
    gcBetweenRuns,
    loadAverageBefore: loadBefore.map((value) => Number(value.toFixed(2))),
    loadAverageAfter: os.loadavg().map((value) => Number(value.toFixed(2))),
    durationSeconds: Math.round((performance.now() - startedAt) / 1000),
    note: "2 shared cores: other processes run alongside; compare medians with their min–max spread.",
  };
  const inputs = {
    environment,
    pipeline,
    defaults,
    peers: { aiSdk, langChain, langChainSkipped },
    turn,
    concurrency,
    servedBurst,
    gateway,
    experiment,
    scaleOut,
  };
  const results = buildResults(inputs);
  printTable(inputs, results);
  const file = writeResults(results, root);
  const markdown = writeResultsMarkdown(inputs, results, root);
  log(
    `wrote ${path.relative(root, file)} and ${path.relative(root, markdown)} in ${environment.durationSeconds} s (load average ${environment.loadAverageBefore.join(" ")} → ${environment.loadAverageAfter.join(" ")})`,
  );
}

/**
 * `npm run bench` starts plain `tsx bench/run.ts`: re-run this file once in a child node with the GC flags (the
 * tsx loader flags are in execArgv), unless they are already on.
 */
function relaunchWithFlags(): boolean {
  if (process.env.BENCH_CHILD === "1" || gcBetweenRuns) return false;
  const semiSpace = Number(process.env.BENCH_SEMI_SPACE_MB ?? 256);
  const flags = ["--expose-gc", ...(semiSpace > 0 ? [`--max-semi-space-size=${semiSpace}`] : [])];
  const child = spawnSync(process.execPath, [...process.execArgv, ...flags, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, BENCH_CHILD: "1" },
  });
  process.exit(child.status ?? 1);
}

if (!relaunchWithFlags()) {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
