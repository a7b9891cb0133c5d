// The in-process burst (`burst200.detail.in_process_*`; `burst200.*` itself is bench/served-burst.ts's, on the built
// app), on Postgres: N users (200 by default, BENCH_CONCURRENT_TURNS), each with a stored conversation, start a
// turn through the real POST /api/chat route handler at the same moment; the fake provider, in a process of its own
// as a real one is elsewhere, streams each reply at REPLY_PACE (50 pieces, 20 ms apart).
// - errors: turns answered with a non-200, whose stream broke, carried an error event or no finish event, or whose
//   streamed text is not the reply the provider sent.
// - lost: scripted replies not stored exactly once, `complete`, with the full text, after the user's message and
//   in reply to it (checked in the rows once every stream has ended).
// - added gap: the time between consecutive text chunks as the client reads them, minus the provider's own delay
//   between them; p99 over every gap of every turn. The clients share the process with the app, so their own
//   delays count as the app's: an upper bound.
// - memory: the process's RSS (and heap used) sampled every 20 ms from just before the turns start until the last
//   stream ends; the peak in MB. One full collection before the turns start. The users and conversations are stored
//   by another child, which exits first: the burst's process holds nothing of that set-up; the clients and tsx
//   still count.
// It runs in a child node without the pipeline's --max-semi-space-size=256 (which lets the young generation grow to
// hundreds of MB): node's default heap sizing, as the server runs, a fresh heap, and its own database handle (the
// app keeps one per process).

import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { writeHeapSnapshot } from "node:v8";
import type { TestUser } from "@/tests/api-client";
import { type AppBench, type BenchDatabase, setUpAppBench } from "./app-setup";
import { childExecArgv, forkedBench } from "./forked-bench";
import { collectGarbage, median, percentile, round } from "./stats";

/** The burst's figures (TurnsChecked's, null when skipped) and the process's own. */
export interface ConcurrencyResult extends Omit<TurnsChecked, "errors" | "lost"> {
  skipped: string | null;
  turns: number;
  storedMessages: number;
  chunksPerReply: number;
  chunkDelayMs: number;
  errors: number | null;
  lost: number | null;
  /** From the moment the turns start to the end of the last stream. */
  wallMs: number | null;
  rssBeforeMb: number | null;
  peakRssMb: number | null;
  heapUsedBeforeMb: number | null;
  peakHeapUsedMb: number | null;
  providerRequests: number | null;
  /** SQL statements the app sent per turn, from the start of the burst until every stream ended (and 300 ms). */
  statementsPerTurn: number | null;
  /** The process's CPU time (user + system) over the burst per turn: the clients' too, not the fake provider's. */
  cpuMsPerTurn: number | null;
}

/** Stored messages per conversation: more than the default fetch window (80), so each turn loads a full one. */
export const STORED_MESSAGES = 200;
/** How the fake provider streams each reply: the pieces, and the delay between them. */
export const REPLY_PACE = { chunks: 50, chunkDelayMs: 20 };
const SAMPLE_EVERY_MS = 20;
/** A turn that has not ended by then counts as an error (its reader is cancelled). */
const TURN_DEADLINE_MS = 60_000;
/** The burst's child reads the seeding child's users and conversations from this file. */
const SEED_FILE = "BENCH_CONCURRENCY_SEED_FILE";
const bench = forkedBench(import.meta.url, "BENCH_CONCURRENCY_CHILD", "the concurrency bench");

export function concurrencySkipped(reason: string, turns: number): ConcurrencyResult {
  return {
    skipped: reason,
    turns,
    storedMessages: STORED_MESSAGES,
    chunksPerReply: REPLY_PACE.chunks,
    chunkDelayMs: REPLY_PACE.chunkDelayMs,
    errors: null,
    lost: null,
    failures: [],
    gapsMeasured: 0,
    addedGapP50: null,
    addedGapP99: null,
    addedGapMax: null,
    firstTokenMedian: null,
    firstTokenMax: null,
    wallMs: null,
    rssBeforeMb: null,
    peakRssMb: null,
    heapUsedBeforeMb: null,
    peakHeapUsedMb: null,
    providerRequests: null,
    statementsPerTurn: null,
    cpuMsPerTurn: null,
  };
}

/** What the seeding child stored, for the burst's child. */
export interface Seed {
  database: BenchDatabase;
  users: TestUser[];
  conversationIds: string[];
  /** Conversations of their own for the warm-up turns (each with one turn at a time). */
  warmUpConversationIds: string[];
}

/**
 * Runs the measurement in child nodes (see the top of this file) and returns its result: one stores the users and
 * conversations and exits, the other runs the burst on them, so the burst's process holds nothing of the set-up.
 */
export async function measureConcurrency({
  turns = 200,
}: {
  turns?: number;
} = {}): Promise<ConcurrencyResult> {
  if (!process.env.DATABASE_URL)
    return concurrencySkipped("DATABASE_URL is not set: concurrency is measured on Postgres only", turns);
  const execArgv = childExecArgv();
  const seed = await seedBurst(turns);
  // A CPU profile of the burst's child (warm-up and burst) for `--cpu-prof`'s readers (Chrome DevTools, speedscope).
  const profileDirectory = process.env.BENCH_CPU_PROF;
  const burstArgv = profileDirectory
    ? [...execArgv, "--cpu-prof", `--cpu-prof-dir=${profileDirectory}`]
    : execArgv;
  return runChild<ConcurrencyResult>(burstArgv, "burst", turns, seed);
}

/**
 * In a child that exits before the burst: a fresh database (kept: the caller drops it) with a persona, `turns`
 * users signed in, each with a stored conversation, and `warmUps` more conversations for warm-up turns.
 */
export function seedBurst(turns: number, warmUps = 1, env: Record<string, string> = {}): Promise<Seed> {
  return runChild<Seed>(childExecArgv(), "seed", turns, undefined, {
    ...env,
    BENCH_WARM_UP_CONVERSATIONS: String(warmUps),
  });
}

/** Fork this file as a child in `role`, hand it the seed (in a file), and resolve with the one message it sends. */
async function runChild<Result>(
  execArgv: string[],
  role: "seed" | "burst",
  turns: number,
  seed?: Seed,
  env: Record<string, string> = {},
) {
  const seedFile = seed ? path.join(await mkdtemp(path.join(tmpdir(), "glassbox-bench-")), "seed.json") : "";
  if (seed) await writeFile(seedFile, JSON.stringify(seed));
  return bench
    .measure<Result>(role, {
      execArgv,
      env: { ...env, [SEED_FILE]: seedFile, BENCH_CONCURRENT_TURNS: String(turns) },
      childName: `the concurrency ${role}`,
    })
    .finally(() => {
      if (seedFile) void rm(path.dirname(seedFile), { recursive: true, force: true });
    });
}

/** In the seeding child: a persona, `turns` users each with a stored conversation, and `warmUps` more to warm up on. */
async function seedConversations(baseUrl: string, turns: number, warmUps: number): Promise<Seed> {
  const app = await setUpAppBench(baseUrl, { database: "keep" });
  try {
    const persona = await app.createPersona();
    const users = await Promise.all(
      Array.from({ length: turns }, (_, index) => app.signUp(`User ${index + 1}`)),
    );
    const conversationIds: string[] = [];
    for (const [index, user] of users.entries())
      conversationIds.push(
        await app.storeConversation({ persona, owner: user, messages: STORED_MESSAGES, idSpace: index + 1 }),
      );
    const warmUpConversationIds: string[] = [];
    for (let index = 0; index < warmUps; index++)
      warmUpConversationIds.push(
        await app.storeConversation({
          persona,
          owner: users[index % users.length],
          messages: STORED_MESSAGES,
          idSpace: turns + 1 + index,
        }),
      );
    return { database: app.database, users, conversationIds, warmUpConversationIds };
  } finally {
    await app.close();
  }
}

/** In the burst's child: warm up, run the turns at once, check the rows; the database is dropped at the end. */
async function runConcurrency(baseUrl: string, turns: number, seed: Seed): Promise<ConcurrencyResult> {
  const app = await setUpAppBench(baseUrl, { database: seed.database });
  try {
    const { users, conversationIds } = seed;
    // Warm-up, one turn at a time on a conversation of its own: the route's code is compiled before the burst.
    for (let index = 0; index < 3; index++) {
      await app.providers.script(scriptedReply(`Warm-up ${index}.`));
      const turn = await readTurn(
        await app.chatTurn(users[0], seed.warmUpConversationIds[0], `Warm-up ${index}`),
      );
      if (turn.failure) throw new Error(`warm-up turn failed: ${turn.failure}`);
    }

    const texts = Array.from({ length: turns }, (_, index) => replyText(String(index)));
    await app.providers.script(...texts.map(scriptedReply));
    const requestsBefore = await app.providers.requestCount();
    const seqBefore = await lastSeqs(app.db, conversationIds);
    collectGarbage?.();
    const memory = sampleMemory();
    const statementsBefore = app.statementsSent();
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    const snapshotFile = process.env.BENCH_HEAP_SNAPSHOT;
    // A diagnosis, not a figure: writing the snapshot stops the process for seconds, so the burst's figures suffer.
    const snapshotTimer = snapshotFile
      ? setTimeout(
          () => writeHeapSnapshot(snapshotFile),
          Number(process.env.BENCH_HEAP_SNAPSHOT_AT_MS ?? 4_000),
        )
      : undefined;
    const results = await Promise.all(
      users.map(async (user, index) => {
        try {
          return await readTurn(
            await app.chatTurn(user, conversationIds[index], `Question ${index}: trams or taxis?`),
            start,
          );
        } catch (error) {
          return failedTurn(`the route threw: ${String(error)}`);
        }
      }),
    );
    const wallMs = performance.now() - start;
    clearTimeout(snapshotTimer);
    const peaks = memory.stop();
    // The live events of the last replies are written just after their streams end.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const statementsPerTurn = (app.statementsSent() - statementsBefore) / turns;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMsPerTurn = (cpu.user + cpu.system) / 1_000 / turns;
    const providerRequests = (await app.providers.requestCount()) - requestsBefore;

    const checked = await checkTurns(app.db, { conversationIds, seqBefore, texts, results });
    return {
      ...concurrencySkipped("", turns),
      skipped: null,
      ...checked,
      wallMs: round(wallMs, 0),
      rssBeforeMb: round(peaks.rssBefore / 2 ** 20, 1),
      peakRssMb: round(peaks.rss / 2 ** 20, 1),
      heapUsedBeforeMb: round(peaks.heapUsedBefore / 2 ** 20, 1),
      peakHeapUsedMb: round(peaks.heapUsed / 2 ** 20, 1),
      providerRequests,
      statementsPerTurn: round(statementsPerTurn, 1),
      cpuMsPerTurn: round(cpuMsPerTurn, 1),
    };
  } finally {
    await app.close();
  }
}

/** A distinct reply per turn (so a reply stored in the wrong conversation, or twice, shows), about 600 characters. */
export function replyText(id: string): string {
  return (
    `Reply ${id}: take tram 28 from Martim Moniz before nine, walk down through Alfama to the river, ` +
    "have lunch at the Time Out market, then the 15E tram to Belém for the monastery and the tower. Custard " +
    "tarts at the old bakery are worth the queue. In the evening, the Bairro Alto is lively but loud; the " +
    "viewpoint at São Pedro de Alcântara is quieter at sunset. A 24-hour Carris pass covers trams, buses and " +
    "the funiculars, and costs less than three single tickets. Taxis are cheap for short hops uphill."
  );
}

export function scriptedReply(text: string) {
  return { kind: "text" as const, text, ...REPLY_PACE };
}

export interface TurnRead {
  failure: string | null;
  text: string;
  /** When each text chunk was read, in ms from the start of the burst. */
  deltaTimes: number[];
}

export function failedTurn(failure: string): TurnRead {
  return { failure, text: "", deltaTimes: [] };
}

/** Read a UI message stream to its end: the text chunks with the time each was read, and what went wrong. */
export async function readTurn(response: Response, start = performance.now()): Promise<TurnRead> {
  if (!response.ok || !response.body)
    return failedTurn(`status ${response.status}: ${(await response.text()).slice(0, 200)}`);
  const reader = response.body.getReader();
  const deadline = setTimeout(() => void reader.cancel(), TURN_DEADLINE_MS);
  const decoder = new TextDecoder();
  const deltaTimes: number[] = [];
  let text = "";
  let buffered = "";
  let finished = false;
  let errorText: string | null = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const now = performance.now() - start;
      buffered += decoder.decode(value, { stream: true });
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
        const event = JSON.parse(line.slice(6)) as { type: string; delta?: string; errorText?: string };
        if (event.type === "text-delta") {
          deltaTimes.push(now);
          text += event.delta ?? "";
        } else if (event.type === "finish") finished = true;
        else if (event.type === "error") errorText = event.errorText ?? "error event";
      }
    }
  } catch (error) {
    return { failure: `the stream broke: ${String(error)}`, text, deltaTimes };
  } finally {
    clearTimeout(deadline);
  }
  const failure = errorText
    ? `error event: ${errorText}`
    : finished
      ? null
      : `no finish event (deadline ${TURN_DEADLINE_MS} ms)`;
  return { failure, text, deltaTimes };
}

/** Peak RSS and heap used, sampled every SAMPLE_EVERY_MS until stop(). */
function sampleMemory() {
  const before = process.memoryUsage();
  const peaks = {
    rssBefore: before.rss,
    heapUsedBefore: before.heapUsed,
    rss: before.rss,
    heapUsed: before.heapUsed,
  };
  const sample = () => {
    const usage = process.memoryUsage();
    peaks.rss = Math.max(peaks.rss, usage.rss);
    peaks.heapUsed = Math.max(peaks.heapUsed, usage.heapUsed);
  };
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peaks;
    },
  };
}

/** Each conversation's last message seq: the rows a burst adds come after it. */
export async function lastSeqs(db: AppBench["db"], conversationIds: string[]): Promise<Map<string, number>> {
  const { conversations } = await import("@/db/schema");
  const { inArray } = await import("drizzle-orm");
  const rows = await db
    .select({ id: conversations.id, lastSeq: conversations.lastSeq })
    .from(conversations)
    .where(inArray(conversations.id, conversationIds));
  return new Map(rows.map((row) => [row.id, Number(row.lastSeq)]));
}

/** What a burst's turns came to: errors and lost (from the streams and the rows), first tokens and added gaps. */
export interface TurnsChecked {
  errors: number;
  lost: number;
  /** The first few failures, described. */
  failures: string[];
  gapsMeasured: number;
  addedGapP50: number | null;
  addedGapP99: number | null;
  addedGapMax: number | null;
  firstTokenMedian: number | null;
  firstTokenMax: number | null;
}

/** What a burst's streams came to, whatever stored them: errors, first tokens and added gaps. */
export type StreamsChecked = Omit<TurnsChecked, "lost">;

/** Checks what each turn read: `texts` are the replies scripted for the burst (one each, in any order). */
export function checkStreams({ texts, results }: { texts: string[]; results: TurnRead[] }): StreamsChecked {
  const failures: string[] = [];
  let errors = 0;
  const gaps: number[] = [];
  const firstTokens: number[] = [];
  for (const [index, turn] of results.entries()) {
    const failure =
      turn.failure ??
      (texts.includes(turn.text) ? null : `streamed text is not a scripted reply: ${turn.text}`);
    if (failure) {
      errors++;
      failures.push(`turn ${index}: ${failure}`);
    }
    for (let chunk = 1; chunk < turn.deltaTimes.length; chunk++)
      gaps.push(turn.deltaTimes[chunk] - turn.deltaTimes[chunk - 1] - REPLY_PACE.chunkDelayMs);
    if (turn.deltaTimes.length > 0) firstTokens.push(turn.deltaTimes[0]);
  }
  return {
    errors,
    failures: failures.slice(0, 5),
    gapsMeasured: gaps.length,
    addedGapP50: gaps.length ? round(percentile(gaps, 50)) : null,
    addedGapP99: gaps.length ? round(percentile(gaps, 99)) : null,
    addedGapMax: gaps.length ? round(Math.max(...gaps)) : null,
    firstTokenMedian: firstTokens.length ? round(median(firstTokens)) : null,
    firstTokenMax: firstTokens.length ? round(Math.max(...firstTokens)) : null,
  };
}

/**
 * Checks a burst's turns once every stream has ended: what each read (checkStreams), and what each stored.
 * `seqBefore` is each conversation's last seq before the burst.
 */
export async function checkTurns(
  db: AppBench["db"],
  {
    conversationIds,
    seqBefore,
    texts,
    results,
  }: { conversationIds: string[]; seqBefore: Map<string, number>; texts: string[]; results: TurnRead[] },
): Promise<TurnsChecked> {
  const streams = checkStreams({ texts, results });
  const stored = await storedReplies(
    db,
    conversationIds,
    seqBefore,
    results.map((turn) => turn.text),
  );
  const lost = texts.filter((text) => stored.complete.filter((found) => found === text).length !== 1).length;
  return { ...streams, lost, failures: [...streams.failures, ...stored.failures].slice(0, 5) };
}

/**
 * The rows each turn added: its user message then the persona's reply to it. Returns the text of every reply
 * stored `complete`, in reply to its user message, with the text its client read; and what is wrong with the others.
 */
async function storedReplies(
  db: AppBench["db"],
  conversationIds: string[],
  seqBefore: Map<string, number>,
  streamedTexts: string[],
): Promise<{ complete: string[]; failures: string[] }> {
  const { messages } = await import("@/db/schema");
  const { and, asc, eq, gt } = await import("drizzle-orm");
  const complete: string[] = [];
  const failures: string[] = [];
  for (const [index, conversationId] of conversationIds.entries()) {
    const rows = await db
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.conversationId, conversationId),
          gt(messages.seq, seqBefore.get(conversationId) ?? 0),
        ),
      )
      .orderBy(asc(messages.seq));
    const [userMessage, reply, ...extra] = rows;
    const replyText = (reply?.parts ?? []).map((part) => (part.type === "text" ? part.text : "")).join("");
    if (userMessage?.authorType !== "user") failures.push(`turn ${index}: user message not stored`);
    else if (reply?.authorType !== "persona" || reply.replyToMessageId !== userMessage.id)
      failures.push(`turn ${index}: no reply stored`);
    else if (reply.status !== "complete") failures.push(`turn ${index}: reply stored as ${reply.status}`);
    else if (replyText !== streamedTexts[index])
      failures.push(`turn ${index}: the stored text differs from the streamed one`);
    else complete.push(replyText);
    if (extra.length > 0) failures.push(`turn ${index}: ${extra.length} unexpected extra message(s)`);
  }
  return { complete, failures };
}

const role = bench.childRequest;
if (role) {
  const baseUrl = process.env.DATABASE_URL ?? "";
  const turns = Number(process.env.BENCH_CONCURRENT_TURNS ?? 200);
  bench.answer(
    role === "seed"
      ? seedConversations(baseUrl, turns, Number(process.env.BENCH_WARM_UP_CONVERSATIONS ?? 1))
      : readFile(process.env[SEED_FILE] ?? "", "utf8").then((text) =>
          runConcurrency(baseUrl, turns, JSON.parse(text) as Seed),
        ),
  );
}
