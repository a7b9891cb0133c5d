// The benchmark's output: a readable table on stdout and in `bench/RESULTS.md` (committed: the figures the docs
// leave out), and `bench-results.json` at the repository root (nested objects, so dotted paths such as
// `pipeline.ms_10000` resolve). The targets are the README's.

import { writeFileSync } from "node:fs";
import path from "node:path";
import type { ConcurrencyResult } from "./concurrency";
import { type ExperimentBenchResult, experimentJson, experimentRows } from "./experiment";
import { type GatewayResult, gatewayJson, gatewayRows } from "./gateway";
import type { PeerFigures } from "./peers";
import type { DefaultSettingsFigure, PipelineFigure } from "./pipeline";
import { type ScaleOutResult, scaleOutJson, scaleOutRows } from "./scale-out";
import {
  type BurstFigures,
  relayJson,
  type ServedBurstFigures,
  type ServedBurstResult,
  servedBurstRows,
  servedPhasesJson,
  servedRunJson,
} from "./served-burst";
import { ms, round, type Sample } from "./stats";
import type { TurnFigures, TurnOverheadResult } from "./turn-overhead";

export interface BenchInputs {
  environment: Record<string, unknown>;
  pipeline: PipelineFigure[];
  defaults: DefaultSettingsFigure[];
  peers: PeerFigures;
  turn: TurnOverheadResult;
  /** The in-process burst (the route handler called in a child node). */
  concurrency: ConcurrencyResult;
  /** The burst on the built app as deployed: the source of `burst200.*`. */
  servedBurst: ServedBurstResult;
  gateway: GatewayResult;
  experiment: ExperimentBenchResult;
  scaleOut: ScaleOutResult;
}

interface Target {
  value: number | null;
  target: string;
  met: boolean | null;
  /** The same figure for the baseline measured beside it in the same run (direct streamText, the bare relay). */
  baseline?: { name: string; value: number | null };
}

function figure(figures: readonly PipelineFigure[], messages: number): PipelineFigure {
  const found = figures.find((entry) => entry.messages === messages);
  if (!found) throw new Error(`no pipeline figure for ${messages} messages`);
  return found;
}

function sampleJson(sample: Sample | null) {
  return sample === null
    ? null
    : { median: round(sample.median), min: round(sample.min), max: round(sample.max), runs: sample.runs };
}

function check(
  value: number | null,
  target: string,
  met: (value: number) => boolean,
  baseline?: { name: string; value: number | null | undefined },
): Target {
  return {
    value: value === null ? null : round(value),
    target,
    met: value === null ? null : met(value),
    ...(baseline
      ? { baseline: { name: baseline.name, value: baseline.value == null ? null : round(baseline.value) } }
      : {}),
  };
}

export function buildResults(inputs: BenchInputs) {
  const { pipeline, defaults, peers, turn, servedBurst } = inputs;
  const ms = (messages: number) => figure(pipeline, messages).total.median;
  const glassbox10k = ms(10_000);
  const glassbox2k = ms(2_000);
  const defaultMedians = defaults.map((entry) => entry.total.median);
  const ratios = {
    scaling_100000_over_10000: round(ms(100_000) / glassbox10k),
    /** AI SDK time over Glassbox time at 10 000 messages: ≥ 1 means Glassbox is no slower. */
    aisdk_over_glassbox: round(peers.aiSdk.sample.median / glassbox10k),
    /** The same the other way round, as the target states it (target ≤ 1.0). */
    glassbox_over_aisdk: round(glassbox10k / peers.aiSdk.sample.median),
    langchain_over_glassbox_2000: peers.langChain
      ? round(peers.langChain.sample.median / glassbox2k, 0)
      : null,
    default_settings_max_over_min: round(Math.max(...defaultMedians) / Math.min(...defaultMedians)),
  };
  const targets = {
    ...targetChecks(glassbox10k, ratios, turn, servedBurst.runs[0]?.first ?? null, servedBurst.relay),
    ...gatewayTargets(inputs.gateway),
    "experiment.dry_1000_s": check(inputs.experiment.seconds, "≤ 20 s", (value) => value <= 20),
  };

  return {
    generatedAt: new Date().toISOString(),
    environment: inputs.environment,
    pipeline: pipelineJson(pipeline),
    default_settings: {
      ...Object.fromEntries(
        defaults.map((entry) => [`ms_${entry.storedMessages}`, round(entry.total.median)]),
      ),
      loaded_messages: defaults[0]?.loadedMessages ?? null,
      detail: Object.fromEntries(
        defaults.map((entry) => [`stored_${entry.storedMessages}`, sampleJson(entry.total)]),
      ),
    },
    peers: {
      aisdk_ms_10000: round(peers.aiSdk.sample.median),
      langchain_ms_2000: peers.langChain ? round(peers.langChain.sample.median) : null,
      detail: {
        aisdk_10000: { ...sampleJson(peers.aiSdk.sample), model_messages: peers.aiSdk.modelMessages },
        langchain_2000: peers.langChain
          ? {
              ...sampleJson(peers.langChain.sample),
              messages_in: peers.langChain.messagesIn,
              messages_kept: peers.langChain.kept,
            }
          : { skipped: peers.langChainSkipped },
      },
    },
    turn: turnJson(turn),
    burst200: burstJson(servedBurst, inputs.concurrency),
    gateway: gatewayJson(inputs.gateway),
    experiment: experimentJson(inputs.experiment),
    scaleout: scaleOutJson(inputs.scaleOut),
    ratios,
    targets,
  };
}

/** Each target with the measured value and whether it was met (null when the part was skipped). */
function targetChecks(
  glassbox10k: number,
  ratios: {
    scaling_100000_over_10000: number;
    glassbox_over_aisdk: number;
    langchain_over_glassbox_2000: number | null;
    default_settings_max_over_min: number;
  },
  turn: TurnOverheadResult,
  burst: ServedBurstFigures | null,
  relay: BurstFigures | null,
): Record<string, Target> {
  const bareRelay = (value: number | null | undefined) => ({ name: "bare streamText relay", value });
  return {
    "pipeline.ms_10000": check(glassbox10k, "≤ 15 ms", (value) => value <= 15),
    "ratios.scaling_100000_over_10000": check(
      ratios.scaling_100000_over_10000,
      "≤ 12",
      (value) => value <= 12,
    ),
    "ratios.glassbox_over_aisdk": check(ratios.glassbox_over_aisdk, "≤ 1.0", (value) => value <= 1),
    "ratios.langchain_over_glassbox_2000": check(
      ratios.langchain_over_glassbox_2000,
      "≥ 100",
      (value) => value >= 100,
    ),
    "default_settings (flat with history length)": check(
      ratios.default_settings_max_over_min,
      "max/min of the medians ≤ 1.5 (noise), no growth",
      (value) => value <= 1.5,
    ),
    "turn.cpu_ms": check(turn.main?.routeCpu.median ?? null, "≤ 8 ms", (value) => value <= 8, {
      name: "direct streamText",
      value: turn.main?.directCpu.median,
    }),
    "turn.pre_provider_ms": check(turn.main?.preProvider.median ?? null, "≤ 6 ms", (value) => value <= 6),
    "turn.ttft_ratio_direct": check(turn.main?.ttftRatio ?? null, "≤ 1.5", (value) => value <= 1.5),
    "turn.statements_per_turn": check(turn.main?.statementsPerTurn ?? null, "≤ 10", (value) => value <= 10),
    "burst200.ttft_median_ms": check(
      burst?.firstTokenMedian ?? null,
      "≤ 1 000 ms",
      (value) => value <= 1_000,
      bareRelay(relay?.firstTokenMedian),
    ),
    "burst200.ttft_max_ms": check(
      burst?.firstTokenMax ?? null,
      "≤ 2 000 ms",
      (value) => value <= 2_000,
      bareRelay(relay?.firstTokenMax),
    ),
    "burst200.p99_gap_ms": check(
      burst?.addedGapP99 ?? null,
      "≤ 50 ms",
      (value) => value <= 50,
      bareRelay(relay?.addedGapP99),
    ),
    "burst200.peak_rss_mb": check(
      burst?.peakRssMb ?? null,
      "≤ 600 MB",
      (value) => value <= 600,
      bareRelay(relay?.peakRssMb),
    ),
    "burst200.detail.cpu_ms_per_turn": check(
      burst?.cpuMsPerTurn ?? null,
      "≤ 25 ms",
      (value) => value <= 25,
      bareRelay(relay?.cpuMsPerTurn),
    ),
    "burst200.errors": check(burst?.errors ?? null, "0", (value) => value === 0),
    "burst200.lost": check(burst?.lost ?? null, "0", (value) => value === 0),
  };
}

function gatewayTargets(gateway: GatewayResult): Record<string, Target> {
  return {
    "gateway.overhead_p50_ms": check(gateway.overheadP50, "≤ 5 ms", (value) => value <= 5),
    "gateway.overhead_p99_ms": check(gateway.overheadP99, "≤ 15 ms", (value) => value <= 15),
  };
}

function pipelineJson(pipeline: readonly PipelineFigure[]) {
  const ms = (messages: number) => figure(pipeline, messages).total.median;
  return {
    ms_1000: round(ms(1_000)),
    ms_2000: round(ms(2_000)),
    ms_10000: round(ms(10_000)),
    ms_100000: round(ms(100_000)),
    detail: Object.fromEntries(
      pipeline.map((entry) => [
        `messages_${entry.messages}`,
        {
          total: sampleJson(entry.total),
          phase_a: sampleJson(entry.phaseA),
          phase_b: sampleJson(entry.phaseB),
          items_built: entry.itemsBuilt,
          items_sent: entry.itemsSent,
          tokens_sent: entry.tokensSent,
          usable_tokens: entry.usableTokens,
          turns_dropped_by_budget: entry.droppedTurns,
          fetch_limit: entry.messages,
          settings_built_without_schema: entry.bypassedSchema,
        },
      ]),
    ),
  };
}

function turnJson(turn: TurnOverheadResult) {
  return {
    cpu_ms: turn.main ? round(turn.main.routeCpu.median) : null,
    pre_provider_ms: turn.main ? round(turn.main.preProvider.median) : null,
    ttft_ratio_direct: turn.main?.ttftRatio ?? null,
    ttft_added_ms: turn.main?.ttftAdded ?? null,
    statements_before_provider: turn.main?.statementsBeforeProvider ?? null,
    statements_per_turn: turn.main?.statementsPerTurn ?? null,
    detail: {
      skipped: turn.skipped,
      ...(turn.main ? turnFiguresJson(turn.main) : {}),
      by_history: Object.fromEntries(
        turn.byHistory.map((figures) => [`stored_${figures.storedMessages}`, turnFiguresJson(figures)]),
      ),
      cpu_breakdown: cpuBreakdownJson(turn),
      read_cpu_ms: turn.readCpu
        ? {
            snapshot: sampleJson(turn.readCpu.snapshot),
            history_window_81: sampleJson(turn.readCpu.historyWindow),
          }
        : null,
    },
  };
}

/**
 * `burst200`: the served burst's first run (the built app, its workers, over HTTP), its second burst and idle
 * spell, every TURN_SETUP_CONCURRENCY measured, and the in-process burst's figures beside them (`in_process_*`:
 * the route handler alone, no HTTP server, with its statements per turn).
 */
function burstJson(served: ServedBurstResult, concurrency: ConcurrencyResult) {
  const [run] = served.runs;
  const main = run ? servedRunJson(run) : null;
  return {
    turns: served.turns,
    ttft_median_ms: main?.ttft_median_ms ?? null,
    ttft_max_ms: main?.ttft_max_ms ?? null,
    p99_gap_ms: main?.p99_gap_ms ?? null,
    peak_rss_mb: main?.peak_rss_mb ?? null,
    errors: run ? run.first.errors : null,
    lost: run ? run.first.lost : null,
    detail: {
      skipped: served.skipped,
      workers: served.workers,
      setup_concurrency: run ? (run.setupConcurrency ?? "default") : null,
      stored_messages_per_conversation: concurrency.storedMessages,
      chunks_per_reply: concurrency.chunksPerReply,
      provider_chunk_delay_ms: concurrency.chunkDelayMs,
      cpu_ms_per_turn: main?.cpu_ms_per_turn ?? null,
      database_cpu_ms_per_turn: main?.database_cpu_ms_per_turn ?? null,
      second_burst_peak_rss_mb: main?.second_burst_peak_rss_mb ?? null,
      second_burst_errors: run ? run.second.errors : null,
      second_burst_lost: run ? run.second.lost : null,
      rss_after_idle_mb: main?.rss_after_idle_mb ?? null,
      idle_ms: served.idleMs,
      phases: run ? servedPhasesJson(run) : null,
      by_setup_concurrency: Object.fromEntries(
        served.runs.map((each) => [String(each.setupConcurrency ?? "default"), servedRunJson(each)]),
      ),
      bare_relay: relayJson(served.relay),
      bare_relay_skipped: served.relaySkipped,
      in_process_skipped: concurrency.skipped,
      in_process_ttft_median_ms: concurrency.firstTokenMedian,
      in_process_ttft_max_ms: concurrency.firstTokenMax,
      in_process_p99_gap_ms: concurrency.addedGapP99,
      in_process_peak_rss_mb: concurrency.peakRssMb,
      in_process_peak_heap_used_mb: concurrency.peakHeapUsedMb,
      in_process_cpu_ms_per_turn: concurrency.cpuMsPerTurn,
      in_process_statements_per_turn: concurrency.statementsPerTurn,
      in_process_errors: concurrency.errors,
      in_process_lost: concurrency.lost,
      in_process_wall_ms: concurrency.wallMs,
      in_process_failures: concurrency.failures,
    },
  };
}

/** Each part's share of the route's CPU to the first token, and that share of the unprofiled median in ms. */
function cpuBreakdownParts(turn: TurnOverheadResult): { part: string; share: number; ms: number }[] {
  const cpu = turn.main?.routeCpu.median;
  if (!turn.cpuBreakdown || cpu === undefined) return [];
  return turn.cpuBreakdown.parts.map(({ part, share }) => ({ part, share, ms: share * cpu }));
}

function cpuBreakdownJson(turn: TurnOverheadResult) {
  if (!turn.cpuBreakdown) return null;
  return {
    profiled_turns: turn.cpuBreakdown.turns,
    profiled_cpu_ms: round(turn.cpuBreakdown.profiledCpuMs),
    parts: Object.fromEntries(
      cpuBreakdownParts(turn).map(({ part, share, ms }) => [
        part,
        { share: round(share, 3), ms_of_unprofiled_median: round(ms) },
      ]),
    ),
  };
}

function turnFiguresJson(figures: TurnFigures) {
  return {
    stored_messages: figures.storedMessages,
    turns: figures.turns,
    cpu_ms: sampleJson(figures.routeCpu),
    direct_cpu_ms: sampleJson(figures.directCpu),
    pre_provider_ms: sampleJson(figures.preProvider),
    route_first_token_ms: sampleJson(figures.routeFirstToken),
    direct_first_token_ms: sampleJson(figures.directFirstToken),
    ttft_added_ms: figures.ttftAdded,
    ttft_ratio_direct: figures.ttftRatio,
    provider_requests_per_turn: figures.requestsPerTurn,
    statements_before_provider: figures.statementsBeforeProvider,
    statements_per_turn: figures.statementsPerTurn,
  };
}

export type BenchResults = ReturnType<typeof buildResults>;

export function writeResults(results: BenchResults, root: string): string {
  const file = path.join(root, "bench-results.json");
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

function spread(sample: Sample | null): string {
  return sample === null ? "" : `${sample.min.toFixed(2)}–${sample.max.toFixed(2)} (${sample.runs} runs)`;
}

export function printTable(inputs: BenchInputs, results: BenchResults): void {
  console.log(formatTable(inputs, results));
}

/**
 * `bench/RESULTS.md`: the latest run's table, with when and where it ran. Regenerated by every `npm run bench`, so
 * the docs describe what is measured and this file holds the figures.
 */
export function writeResultsMarkdown(inputs: BenchInputs, results: BenchResults, root: string): string {
  const file = path.join(root, "bench", "RESULTS.md");
  const environment = inputs.environment;
  const text = [
    "# Benchmark results",
    "",
    "Generated by `npm run bench` (`bench/run.ts`); do not edit by hand: the next run overwrites this file.",
    "What each figure means is in the README's benchmark section and `bench/*.ts`; the same figures, keyed, are in",
    "`bench-results.json` (not committed).",
    "",
    `Last run: ${new Date().toISOString()}, ${environment.durationSeconds} s; Node ${environment.node}, ${environment.cpus} CPUs,`,
    `load average ${loadAverage(environment.loadAverageBefore)} before and ${loadAverage(environment.loadAverageAfter)} after.`,
    "Parts a run skipped (see the knobs at the top of `bench/run.ts`) show as skipped in the table.",
    "",
    "```text",
    formatTable(inputs, results).trim(),
    "```",
    "",
  ].join("\n");
  writeFileSync(file, text);
  return file;
}

function loadAverage(value: unknown): string {
  return Array.isArray(value) ? value.join(" ") : String(value);
}

/** One line of the table: the case, its median, its spread and a note. */
type Row = (label: string, median: string, range: string, note?: string) => void;

function turnRows(turn: TurnOverheadResult, row: Row): void {
  if (turn.skipped) row("turn overhead", "—", "", turn.skipped);
  for (const figures of turn.byHistory) {
    const stored = `${figures.storedMessages.toLocaleString("en")} stored`;
    row(
      `turn, ${stored}: server CPU to first token`,
      ms(figures.routeCpu.median),
      spread(figures.routeCpu),
      `direct streamText ${ms(figures.directCpu.median)}`,
    );
    row(
      `turn, ${stored}: time before the provider`,
      ms(figures.preProvider.median),
      spread(figures.preProvider),
      `Postgres; ${figures.statementsBeforeProvider} SQL statements before it, ${figures.statementsPerTurn} in the whole turn`,
    );
    row(
      `turn, ${stored}: first token, route ÷ direct`,
      String(figures.ttftRatio),
      `${ms(figures.routeFirstToken.median)} ÷ ${ms(figures.directFirstToken.median)}`,
      `route median ÷ direct streamText median (+${ms(figures.ttftAdded)})`,
    );
  }
  for (const { part, share, ms: partMs } of cpuBreakdownParts(turn)) {
    row(
      `turn CPU, ${part}`,
      ms(partMs),
      `${(share * 100).toFixed(1)} %`,
      "to the first token, 1 000 stored; share of a CPU profile",
    );
  }
  if (turn.readCpu) {
    row(
      "turn CPU of one read: the snapshot",
      ms(turn.readCpu.snapshot.median),
      spread(turn.readCpu.snapshot),
      "all a turn reads before its history window, one prepared statement",
    );
    row(
      "turn CPU of one read: the history window",
      ms(turn.readCpu.historyWindow.median),
      spread(turn.readCpu.historyWindow),
      "the newest 81 of 1 000 stored messages",
    );
  }
}

function inProcessBurstRows(concurrency: ConcurrencyResult, row: Row): void {
  if (concurrency.skipped) row("in-process burst", "—", "", concurrency.skipped);
  else {
    row(
      `in-process burst: ${concurrency.turns} turns, added gap p99`,
      ms(concurrency.addedGapP99),
      `p50 ${ms(concurrency.addedGapP50)}, max ${ms(concurrency.addedGapMax)}`,
      `${concurrency.gapsMeasured} gaps; ${concurrency.chunksPerReply} chunks ${concurrency.chunkDelayMs} ms apart per reply`,
    );
    row(
      "in-process burst: first token",
      ms(concurrency.firstTokenMedian),
      `max ${ms(concurrency.firstTokenMax)}`,
      `all ${concurrency.turns} streams ended in ${concurrency.wallMs} ms`,
    );
    row(
      "in-process burst: errors / lost",
      `${concurrency.errors} / ${concurrency.lost}`,
      "",
      concurrency.failures.length > 0 ? concurrency.failures[0] : "every reply stored complete, full text",
    );
    row(
      "in-process burst: peak RSS (MB)",
      String(concurrency.peakRssMb),
      `${concurrency.rssBeforeMb} before (after a full GC)`,
      `heap used ${concurrency.heapUsedBeforeMb} → peak ${concurrency.peakHeapUsedMb} MB; sampled every 20 ms`,
    );
    row(
      "in-process burst: CPU per turn",
      ms(concurrency.cpuMsPerTurn),
      `${concurrency.statementsPerTurn} statements per turn`,
      "the process's user + system time over the burst ÷ turns (the clients included; the fake provider runs in a process of its own)",
    );
  }
}

function formatTable(inputs: BenchInputs, results: BenchResults): string {
  const lines: string[] = [];
  const row: Row = (label, median, range, note = "") =>
    lines.push(`${pad(label, 46)} ${pad(median, 10, true)}  ${pad(range, 34)} ${note}`);
  lines.push("");
  lines.push("Glassbox benchmark — medians in ms, min–max over the runs after warm-up");
  lines.push("-".repeat(118));
  row("case", "median", "min–max", "notes");
  lines.push("-".repeat(118));
  for (const entry of inputs.pipeline) {
    row(
      `pipeline A+B, ${entry.messages.toLocaleString("en")} messages`,
      ms(entry.total.median),
      spread(entry.total),
      `A ${ms(entry.phaseA.median)} + B ${ms(entry.phaseB.median)}; ${entry.itemsBuilt} items → ${entry.itemsSent} sent, ${entry.tokensSent}/${entry.usableTokens} tokens${entry.bypassedSchema ? "; fetch limit set without the schema" : ""}`,
    );
  }
  for (const entry of inputs.defaults) {
    row(
      `default settings, ${entry.storedMessages.toLocaleString("en")} stored`,
      ms(entry.total.median),
      spread(entry.total),
      `the loader hands the newest ${entry.loadedMessages}`,
    );
  }
  row(
    "AI SDK convert + prune, 10,000 messages",
    ms(inputs.peers.aiSdk.sample.median),
    spread(inputs.peers.aiSdk.sample),
  );
  if (inputs.peers.langChain)
    row(
      "LangChain trimMessages, 2,000 messages",
      ms(inputs.peers.langChain.sample.median),
      spread(inputs.peers.langChain.sample),
      `${inputs.peers.langChain.messagesIn} LangChain messages in, ${inputs.peers.langChain.kept} kept`,
    );
  else row("LangChain trimMessages, 2,000 messages", "—", "", inputs.peers.langChainSkipped ?? "");
  turnRows(inputs.turn, row);
  for (const [label, value, range, note] of servedBurstRows(inputs.servedBurst))
    row(label, value, range, note);
  inProcessBurstRows(inputs.concurrency, row);
  for (const [label, value, range, note] of gatewayRows(inputs.gateway)) row(label, value, range, note);
  for (const [label, value, range, note] of experimentRows(inputs.experiment)) row(label, value, range, note);
  for (const [label, value, range, note] of scaleOutRows(inputs.scaleOut)) row(label, value, range, note);
  lines.push("-".repeat(118));
  lines.push("Ratios");
  for (const [key, value] of Object.entries(results.ratios)) lines.push(`  ${pad(key, 44)} ${value ?? "—"}`);
  lines.push("Targets");
  for (const [key, target] of Object.entries(results.targets)) {
    const verdict = target.met === null ? "not measured" : target.met ? "met" : "NOT MET";
    const baseline = target.baseline
      ? `; ${target.baseline.name} ${target.baseline.value === null ? "—" : target.baseline.value}`
      : "";
    lines.push(
      `  ${pad(key, 44)} ${pad(target.value === null ? "—" : String(target.value), 10, true)}  ${pad(target.target, 34)} ${verdict}${baseline}`,
    );
  }
  lines.push("");
  return lines.join("\n");
}
