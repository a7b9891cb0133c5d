// The turn-overhead part of the benchmark, on Postgres: a fresh database with a 1 000-message conversation stored
// directly, the fake providers in a process of their own (bench-providers.ts), and the real POST /api/chat route
// handler called in-process.
// - pre_provider_ms: from the handler call to the moment the fake server has the request (its `receivedAt`, epoch
//   ms with a fraction, read against this process's performance.timeOrigin: sub-millisecond).
// - ttft_added_ms: time to the first text chunk through the route, minus the same for a direct `streamText` call
//   (the app's own model-call code without its request capture) with the same messages to the same fake server;
//   ttft_ratio_direct: the route's median over the direct call's.
// - cpu_ms: the process's CPU time (`process.cpuUsage`, user + system, every thread) from the handler call to the
//   first text chunk: the app's and the reading client's (the direct call's CPU, in the detail, is the SDK's
//   share of the same work: its request, its stream, the client). CPU time hardly moves with the load of other
//   processes on the machine, wall-clock figures do.
// - by history length: the same figures for conversations of 100, 1 000 and 10 000 stored messages.
// - cpu_breakdown: where the route's CPU to the first token goes, by part of the system (turn-profile.ts), from
//   profiled turns run after the measured ones (the profiler slows the process, so it never runs during those).
// - read_cpu_ms: the CPU of two of the turn's reads alone, through the app's query functions, each the median of
//   200 calls: the turn's snapshot (the conversation, its persona and all else read before the build, one
//   prepared statement) and the history window (the
//   newest 81 messages): what one statement costs the app's process, whatever the turn does around it.
// Route turns and direct calls alternate, so both see the same machine load.

import type { BuildInput } from "@/lib/domain/types";
import { type AppBench, setUpAppBench, statementsSettled } from "./app-setup";
import { median, round, type Sample, summarise } from "./stats";
import { type CpuBreakdown, profileTurnCpu } from "./turn-profile";

export interface TurnFigures {
  storedMessages: number;
  turns: number;
  preProvider: Sample;
  routeFirstToken: Sample;
  directFirstToken: Sample;
  /** CPU ms of the process from the handler call to the first text chunk through the route. */
  routeCpu: Sample;
  /** The same for the direct call (the fake provider's and the client's share). */
  directCpu: Sample;
  ttftAdded: number;
  ttftRatio: number;
  /** Provider requests per turn (1 means no summary or retry ran on the side). */
  requestsPerTurn: number;
  /** SQL statements the turn sent before its provider request arrived, and until its stream ended (medians). */
  statementsBeforeProvider: number;
  statementsPerTurn: number;
}

export interface TurnOverheadResult {
  skipped: string | null;
  /** At STORED_MESSAGES (1 000), the headline figures. */
  main: TurnFigures | null;
  /** At each of HISTORY_LENGTHS. */
  byHistory: TurnFigures[];
  /** Where the route's CPU to the first token goes, at STORED_MESSAGES. */
  cpuBreakdown: CpuBreakdown | null;
  /** What one read costs the app's process, at STORED_MESSAGES. */
  readCpu: ReadCpu | null;
}

export interface ReadCpu {
  /** The turn's snapshot (db/turn-snapshot-queries.ts): one prepared statement. */
  snapshot: Sample;
  /** The default history window: the newest 81 messages. */
  historyWindow: Sample;
}

const STORED_MESSAGES = 1_000;
/** How the cost grows with the stored history; the headline size is measured with `turns`, the others with fewer. */
const HISTORY_LENGTHS = [100, 1_000, 10_000];

export function turnOverheadSkipped(reason: string): TurnOverheadResult {
  return { skipped: reason, main: null, byHistory: [], cpuBreakdown: null, readCpu: null };
}

export async function measureTurnOverhead({
  turns = 20,
  warmup = 3,
  historyTurns = 8,
  profiledTurns = 30,
}: {
  turns?: number;
  warmup?: number;
  historyTurns?: number;
  profiledTurns?: number;
} = {}): Promise<TurnOverheadResult> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl)
    return turnOverheadSkipped("DATABASE_URL is not set: the turn overhead is measured on Postgres only");
  const app = await setUpAppBench(baseUrl);
  try {
    const benches = new Map<number, TurnBench>();
    for (const size of HISTORY_LENGTHS) benches.set(size, await setUpTurnBench(app, size));
    const byHistory: TurnFigures[] = [];
    for (const size of HISTORY_LENGTHS) {
      const bench = benches.get(size) as TurnBench;
      byHistory.push(
        await measureTurns(bench, size, {
          turns: size === STORED_MESSAGES ? turns : historyTurns,
          warmup,
        }),
      );
    }
    const main = byHistory.find((figures) => figures.storedMessages === STORED_MESSAGES) ?? null;
    const headline = benches.get(STORED_MESSAGES) as TurnBench;
    const cpuBreakdown = await profileTurnCpu(() => headline.routeTurn("Where does the time go?"), {
      turns: profiledTurns,
    });
    return { skipped: null, main, byHistory, cpuBreakdown, readCpu: await headline.readCpu() };
  } finally {
    await app.close();
  }
}

async function measureTurns(
  bench: TurnBench,
  storedMessages: number,
  { turns, warmup }: { turns: number; warmup: number },
): Promise<TurnFigures> {
  for (let index = 0; index < warmup; index++) {
    await bench.routeTurn(`Warm-up ${index}: is the castle open?`);
    await bench.directTurn();
  }
  const preProvider: number[] = [];
  const routeFirstToken: number[] = [];
  const directFirstToken: number[] = [];
  const routeCpu: number[] = [];
  const directCpu: number[] = [];
  const requestCounts: number[] = [];
  const statementsBeforeProvider: number[] = [];
  const statementsPerTurn: number[] = [];
  for (let index = 0; index < turns; index++) {
    const turn = await bench.routeTurn(`Question ${index}: what about the castle?`);
    preProvider.push(turn.preProviderMs);
    routeFirstToken.push(turn.firstTokenMs);
    routeCpu.push(turn.cpuMs);
    requestCounts.push(turn.requests);
    statementsBeforeProvider.push(turn.statementsBeforeProvider);
    statementsPerTurn.push(turn.statements);
    const direct = await bench.directTurn();
    directFirstToken.push(direct.firstTokenMs);
    directCpu.push(direct.cpuMs);
  }
  return {
    storedMessages,
    turns,
    preProvider: summarise(preProvider),
    routeFirstToken: summarise(routeFirstToken),
    directFirstToken: summarise(directFirstToken),
    routeCpu: summarise(routeCpu),
    directCpu: summarise(directCpu),
    ttftAdded: round(median(routeFirstToken) - median(directFirstToken)),
    ttftRatio: round(median(routeFirstToken) / median(directFirstToken)),
    requestsPerTurn: median(requestCounts),
    statementsBeforeProvider: median(statementsBeforeProvider),
    statementsPerTurn: median(statementsPerTurn),
  };
}

interface FirstToken {
  firstTokenMs: number;
  cpuMs: number;
}

export interface TurnBench {
  /** One turn through POST /api/chat, read to the end. */
  routeTurn(text: string): Promise<
    FirstToken & {
      /** performance.now() of the handler call and of the first text chunk. */
      startedAt: number;
      firstTokenAt: number;
      preProviderMs: number;
      requests: number;
      statementsBeforeProvider: number;
      statements: number;
    }
  >;
  /** One direct streamText call with the same request; the time to its first text delta. */
  directTurn(): Promise<FirstToken>;
  /** The CPU of two of the turn's reads alone. */
  readCpu(): Promise<ReadCpu>;
}

/** CPU ms (user + system) since `start`. */
function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1_000;
}

/** A user, a persona and a stored conversation of `storedMessages` in the app (see app-setup.ts). */
export async function setUpTurnBench(app: AppBench, storedMessages: number): Promise<TurnBench> {
  const user = await app.signUp("Ada");
  const persona = await app.createPersona();
  const conversationId = await app.storeConversation({
    persona,
    owner: user,
    messages: storedMessages,
    idSpace: storedMessages,
  });
  const direct = await directCall(app.db, conversationId, user.id);
  const reply = {
    kind: "text" as const,
    text: "Sure: take tram 28 early in the morning.",
    chunks: 4,
    chunkDelayMs: 1,
  };

  return {
    async routeTurn(text) {
      await app.providers.script(reply);
      await app.providers.takeRequests();
      const statementsBefore = app.statementsSent();
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      const response = await app.chatTurn(user, conversationId, text);
      if (!response.ok || !response.body)
        throw new Error(`chat turn failed: ${response.status} ${await response.text()}`);
      const first = await firstTextDelta(response.body, cpuStart);
      const statements = (await statementsSettled(app, { quietMs: 100, maxMs: 2_000 })) - statementsBefore;
      const requests = await app.providers.takeRequests();
      if (requests.length === 0) throw new Error("the provider never received the turn's request");
      // The provider's clock is epoch ms, this process's performance.now() counts from its timeOrigin.
      const arrivedAt = requests[0].receivedAt - performance.timeOrigin;
      return {
        startedAt: start,
        firstTokenAt: first.at,
        preProviderMs: arrivedAt - start,
        statementsBeforeProvider: app.statementsSentBefore(arrivedAt) - statementsBefore,
        statements,
        firstTokenMs: first.at - start,
        cpuMs: first.cpuMs,
        requests: requests.length,
      };
    },
    async directTurn() {
      await app.providers.script(reply);
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      const result = direct.stream();
      let first = 0;
      let cpuMs = 0;
      for await (const part of result.fullStream)
        if (part.type === "text-delta" && first === 0) {
          first = performance.now();
          cpuMs = cpuSince(cpuStart);
        }
      return { firstTokenMs: first - start, cpuMs };
    },
    async readCpu() {
      const { readTurnSnapshot } = await import("@/db/turn-snapshot-queries");
      const { listHistoryWindow } = await import("@/db/message-queries");
      return {
        snapshot: await readCpuOf(() => readTurnSnapshot({ db: app.db, conversationId, userId: user.id })),
        historyWindow: await readCpuOf(() =>
          listHistoryWindow({ db: app.db, conversationId, afterSeq: 0, limit: 81 }),
        ),
      };
    },
  };
}

/** CPU ms of one call of `read`, over 200 calls one after another after 30 untimed ones. */
async function readCpuOf(read: () => Promise<unknown>, { calls = 200, warmup = 30 } = {}): Promise<Sample> {
  for (let index = 0; index < warmup; index++) await read();
  const times: number[] = [];
  for (let index = 0; index < calls; index++) {
    const start = process.cpuUsage();
    await read();
    times.push(cpuSince(start));
  }
  return summarise(times);
}

/** Read the UI message stream until its first text delta; the rest is drained (the reply finishes and is stored). */
async function firstTextDelta(
  body: ReadableStream<Uint8Array>,
  cpuStart: NodeJS.CpuUsage,
): Promise<{ at: number; cpuMs: number }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let first = 0;
  let cpuMs = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (first !== 0) continue;
    buffered += decoder.decode(value, { stream: true });
    if (buffered.includes('"type":"text-delta"')) {
      first = performance.now();
      cpuMs = cpuSince(cpuStart);
    }
  }
  if (first === 0) throw new Error(`the reply streamed no text: ${buffered.slice(0, 300)}`);
  return { at: first, cpuMs };
}

type Database = AppBench["db"];

/**
 * The direct call: the app's own model-call code (`streamModelCall`, which calls `streamText`) without the request
 * capture, with the request the pipeline builds for this conversation, to the same fake provider.
 */
async function directCall(db: Database, conversationId: string, userId: string) {
  const { getReadableConversation } = await import("@/db/conversation-queries");
  const { getPersona } = await import("@/db/persona-queries");
  const { getModel } = await import("@/db/model-queries");
  const { listHistoryWindow } = await import("@/db/message-queries");
  const { loadTurnInput } = await import("@/lib/chat/turn/load-turn-input");
  const { toModelDescriptor } = await import("@/lib/chat/turn/stored-rows");
  const { buildContext } = await import("@/lib/context/build-context");
  const { resolveForModel } = await import("@/lib/context/resolve-for-model");
  const { streamModelCall } = await import("@/lib/chat/attempts/model-call");
  const conversation = await getReadableConversation({ db, conversationId, userId });
  const persona = await getPersona({ db, personaId: conversation.personaId });
  const modelRow = await getModel({ db, modelId: persona.modelId });
  if (!modelRow) throw new Error(`model ${persona.modelId} is missing`);
  const [newest] = await listHistoryWindow({ db, conversationId, afterSeq: 0, limit: 1 });
  const turnInput = await loadTurnInput({
    db,
    conversation,
    persona,
    currentMessage: newest,
    requesterId: userId,
  });
  const input: BuildInput = turnInput.buildInput;
  const model = toModelDescriptor(modelRow);
  const resolved = resolveForModel(buildContext(input), model, { enabledToolNames: persona.toolNames });
  return { stream: () => streamModelCall({ model, resolved }) };
}
