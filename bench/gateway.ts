// The gateway part of the benchmark (/v1/chat/completions), on Postgres, in a child node of its own (the app keeps
// one database handle per process): the real route handler called in-process with a key's bearer secret, the fake
// providers in a process of their own, and every call a streaming one with a 20-message history (a system message,
// then users and the persona in turn, the last a new user message).
// - overhead: the time to the first text of a gateway call, minus the same for a direct streaming call with the
//   same 20 messages to the same fake provider (raw chat-completions SSE, read by the same reader); gateway and
//   direct calls alternate, and p50 / p99 are taken over each pair's difference (CALLS pairs after WARMUP_PAIRS).
// - rps_one_core: CLIENTS clients at once, each making gateway calls one after another until RPS_CALLS have
//   been made; completed calls (a full stream ending in [DONE], no error) per second of one core: per second of
//   the app process's CPU time (user + system; the clients' light reading included, Postgres and the fake provider
//   not: they run in processes of their own), as the scale-out's turns per second per core. The same calls per
//   second of wall time, on this shared machine, are in the detail.
// Each call continues a conversation of the key whose transcript is its 19 earlier messages, as a client that
// sends its growing history back does: those conversations are stored beforehand, as the gateway stores a new
// one (lib/gateway/conversations.ts), and titled, so a measured call is the steady state (find the conversation by
// its transcript, store the new message, run the turn, remember the new transcript), not a conversation's start
// (whose first reply also has the conversation's title generated).

import type { Persona } from "@/db/schema";
import type { KeyCaller } from "@/lib/gateway/api-keys";
import { type AppBench, setUpAppBench, statementsSettled } from "./app-setup";
import { forkedBench } from "./forked-bench";
import { median, percentile, round } from "./stats";

export interface GatewayResult {
  skipped: string | null;
  historyMessages: number;
  /** Measured pairs (a gateway call and a direct call each). */
  calls: number;
  overheadP50: number | null;
  overheadP99: number | null;
  gatewayFirstTokenP50: number | null;
  gatewayFirstTokenP99: number | null;
  directFirstTokenP50: number | null;
  directFirstTokenP99: number | null;
  /** The gateway's own x-glassbox-overhead-ms (its arrival to the provider request), median. */
  serverOverheadP50: number | null;
  clients: number;
  rpsCalls: number;
  completed: number | null;
  failed: number | null;
  rpsWallMs: number | null;
  /** Completed calls per second of the app process's CPU time. */
  rpsOneCore: number | null;
  /** Completed calls per second of wall time. */
  rpsWall: number | null;
  /** The app process's CPU (user + system, the clients' reading included) per completed call. */
  cpuMsPerCall: number | null;
  failures: string[];
}

const HISTORY_MESSAGES = 20;
/**
 * Pairs run before the measured ones: the figure is a running server's. A cold process is slower for its first
 * tens of calls: each of the pool's connections plans a statement with its values for its first five runs (Postgres's
 * plan cache) and V8 optimises the hot code only after many.
 */
const WARMUP_PAIRS = 50;
const CLIENTS = 64;
const CALLS_PER_CLIENT = 5;
const GATEWAY_URL = "http://localhost:3000/v1/chat/completions";
const bench = forkedBench(import.meta.url, "BENCH_GATEWAY_CHILD", "the gateway bench");
const REPLY = {
  kind: "text" as const,
  text: "Sure: take tram 28 early in the morning.",
  chunks: 4,
  chunkDelayMs: 1,
};

export function gatewaySkipped(
  reason: string,
  calls = 200,
  rpsCalls = CLIENTS * CALLS_PER_CLIENT,
): GatewayResult {
  return {
    skipped: reason,
    historyMessages: HISTORY_MESSAGES,
    calls,
    overheadP50: null,
    overheadP99: null,
    gatewayFirstTokenP50: null,
    gatewayFirstTokenP99: null,
    directFirstTokenP50: null,
    directFirstTokenP99: null,
    serverOverheadP50: null,
    clients: CLIENTS,
    rpsCalls,
    completed: null,
    failed: null,
    rpsWallMs: null,
    rpsOneCore: null,
    rpsWall: null,
    cpuMsPerCall: null,
    failures: [],
  };
}

/** Runs the measurement in a child node (see the top of this file) and returns its result. */
export async function measureGateway({
  calls = 200,
  rpsCalls = CLIENTS * CALLS_PER_CLIENT,
}: {
  calls?: number;
  rpsCalls?: number;
} = {}): Promise<GatewayResult> {
  if (!process.env.DATABASE_URL)
    return gatewaySkipped(
      "DATABASE_URL is not set: the gateway is measured on Postgres only",
      calls,
      rpsCalls,
    );
  return bench.measure<GatewayResult>(JSON.stringify({ calls, rpsCalls }));
}

type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

/** The 20 messages of call `index`: its first user message names it, so each transcript is its own. */
function historyOf(index: number): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: "system", content: "The user is planning a week in Lisbon in May; keep answers short." },
  ];
  for (let turn = 1; messages.length < HISTORY_MESSAGES; turn++) {
    messages.push({
      role: "user",
      content: `[${index}] Question ${turn}: which neighbourhood is best for the evening, and how do we get there from the centre by tram?`,
    });
    if (messages.length < HISTORY_MESSAGES - 1)
      messages.push({
        role: "assistant",
        content: `Answer ${turn}: Alfama at dusk is lovely; tram 28 from Martim Moniz takes about twenty minutes, and a day pass pays off after four rides.`,
      });
  }
  return messages;
}

interface Setup {
  app: AppBench;
  secret: string;
  slug: string;
  /** The stored conversations, in the order the calls take them. */
  conversationIds: string[];
  /** Calls made so far: each takes the next stored conversation. */
  next: number;
}

/** A user, a persona, a key, and `count` conversations of the key, each holding a call's 19 earlier messages. */
async function setUp(app: AppBench, count: number): Promise<Setup> {
  const { createApiKey, authenticateKey } = await import("@/lib/gateway/api-keys");
  const { listPersonasWithSlugs } = await import("@/db/persona-queries");
  const user = await app.signUp("Ada");
  const { id: personaId } = await app.createPersona();
  const { secret } = await createApiKey({ db: app.db, userId: user.id, name: "bench", personaIds: null });
  const persona = (await listPersonasWithSlugs({ db: app.db })).find((row) => row.id === personaId);
  if (!persona?.slug) throw new Error("the bench persona has no slug");
  const caller = await authenticateKey(app.db, gatewayRequest(secret, persona.slug, []));
  const batch = 8;
  const conversationIds: string[] = [];
  for (let start = 0; start < count; start += batch) {
    const indexes = Array.from({ length: Math.min(batch, count - start) }, (_, offset) => start + offset);
    conversationIds.push(
      ...(await Promise.all(indexes.map((index) => storeEarlierMessages(app, caller, persona, index)))),
    );
  }
  return { app, secret, slug: persona.slug, conversationIds, next: 0 };
}

/** What the gateway has after a call whose reply was the 19th message: the conversation and its transcript. */
async function storeEarlierMessages(
  app: AppBench,
  caller: KeyCaller,
  persona: Persona,
  index: number,
): Promise<string> {
  const { readChatCall } = await import("@/lib/gateway/chat-request");
  const { conversationForCall, transcriptHash } = await import("@/lib/gateway/conversations");
  const { saveTranscript } = await import("@/db/api-key-queries");
  const { updateConversation } = await import("@/db/conversation-queries");
  const call = await readChatCall(gatewayRequest("", persona.slug as string, historyOf(index)));
  const { conversationId } = await conversationForCall({
    db: app.db,
    key: caller.key,
    user: caller.user,
    persona,
    call,
    headerValue: null,
  });
  await saveTranscript({
    db: app.db,
    apiKeyId: caller.key.id,
    conversationId,
    transcriptHash: transcriptHash(persona.id, call.systemText, call.history),
    messageId: null,
  });
  // Titled, as a conversation is after its first reply: a measured call is not the one that names it.
  await updateConversation({ db: app.db, conversationId, changes: { title: `Lisbon by tram, ${index}` } });
  return conversationId;
}

function gatewayRequest(secret: string, model: string, messages: ChatMessage[]): Request {
  return new Request(GATEWAY_URL, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify({ model, stream: true, stream_options: { include_usage: true }, messages }),
  });
}

interface StreamRead {
  /** performance.now() of the first text, or 0. */
  firstTextAt: number;
  /** Why the stream does not count as a completed call, or null. */
  failure: string | null;
}

/** Reads chat-completion chunks to the end: when the first text came, and whether it ended in [DONE]. */
async function readChunks(response: Response): Promise<StreamRead> {
  if (!response.ok || !response.body)
    return { firstTextAt: 0, failure: `${response.status} ${(await response.text()).slice(0, 200)}` };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let firstTextAt = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    if (firstTextAt === 0 && /"content":"[^"]/.test(buffered)) firstTextAt = performance.now();
  }
  let failure: string | null = null;
  if (firstTextAt === 0) failure = `no text: ${buffered.slice(0, 200)}`;
  else if (buffered.includes('"error"')) failure = `an error event: ${buffered.slice(-200)}`;
  else if (!buffered.trimEnd().endsWith("data: [DONE]")) failure = "the stream did not end with [DONE]";
  return { firstTextAt, failure };
}

type RouteHandler = (request: Request) => Promise<Response>;

/** One gateway call on the next stored conversation: its time to the first text, its own overhead header. */
async function gatewayCall(setup: Setup, handler: RouteHandler) {
  const index = setup.next++;
  const request = gatewayRequest(setup.secret, setup.slug, historyOf(index));
  const start = performance.now();
  const response = await handler(request);
  const read = await readChunks(response);
  const continued = response.headers.get("x-glassbox-conversation-id") === setup.conversationIds[index];
  return {
    ...read,
    // A call that started a conversation of its own measured the wrong thing.
    failure: read.failure ?? (continued ? null : "the call did not continue its stored conversation"),
    firstTokenMs: read.firstTextAt - start,
    serverOverheadMs: Number(response.headers.get("x-glassbox-overhead-ms") ?? Number.NaN),
  };
}

/** One direct streaming call with the same 20 messages to the fake provider. */
async function directCall(app: AppBench, index: number) {
  const start = performance.now();
  const response = await fetch(`${app.providers.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: "Bearer bench-key", "content-type": "application/json" },
    body: JSON.stringify({
      model: "gpt-4o",
      stream: true,
      stream_options: { include_usage: true },
      messages: historyOf(index),
    }),
  });
  const read = await readChunks(response);
  if (read.failure) throw new Error(`direct call failed: ${read.failure}`);
  return read.firstTextAt - start;
}

/** Until the app's statements stop (30 ms without one, 1 s at most): a call's last writes. */
async function settled(app: AppBench): Promise<void> {
  await statementsSettled(app, { quietMs: 30, maxMs: 1_000 });
}

async function measureOverhead(setup: Setup, handler: RouteHandler, calls: number) {
  const differences: number[] = [];
  const gateway: number[] = [];
  const direct: number[] = [];
  const serverOverhead: number[] = [];
  for (let index = 0; index < WARMUP_PAIRS + calls; index++) {
    await setup.app.providers.script(REPLY);
    const call = await gatewayCall(setup, handler);
    if (call.failure) throw new Error(`gateway call failed: ${call.failure}`);
    await settled(setup.app);
    await setup.app.providers.script(REPLY);
    const directMs = await directCall(setup.app, index);
    if (index < WARMUP_PAIRS) continue;
    gateway.push(call.firstTokenMs);
    direct.push(directMs);
    differences.push(call.firstTokenMs - directMs);
    serverOverhead.push(call.serverOverheadMs);
  }
  await setup.app.providers.takeRequests();
  return {
    overheadP50: round(percentile(differences, 50)),
    overheadP99: round(percentile(differences, 99)),
    gatewayFirstTokenP50: round(percentile(gateway, 50)),
    gatewayFirstTokenP99: round(percentile(gateway, 99)),
    directFirstTokenP50: round(percentile(direct, 50)),
    directFirstTokenP99: round(percentile(direct, 99)),
    serverOverheadP50: round(median(serverOverhead)),
  };
}

/** CLIENTS clients at once, each calling until `total` calls have been started. */
async function measureThroughput(setup: Setup, handler: RouteHandler, total: number) {
  await setup.app.providers.script(...Array.from({ length: total }, () => REPLY));
  const failures: string[] = [];
  let started = 0;
  let completed = 0;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (started < total) {
        started++;
        try {
          const call = await gatewayCall(setup, handler);
          if (call.failure) failures.push(call.failure);
          else completed++;
        } catch (error) {
          failures.push(`the route threw: ${String(error)}`);
        }
      }
    }),
  );
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1_000;
  await settled(setup.app);
  return {
    completed,
    failed: failures.length,
    failures: failures.slice(0, 3),
    rpsWallMs: round(wallMs),
    rpsOneCore: round(completed / (cpuMs / 1_000)),
    rpsWall: round(completed / (wallMs / 1_000)),
    cpuMsPerCall: completed > 0 ? round(cpuMs / completed) : null,
  };
}

/** bench-results.json's `gateway`: the keys the targets name, then the detail. */
export function gatewayJson(result: GatewayResult) {
  return {
    overhead_p50_ms: result.overheadP50,
    overhead_p99_ms: result.overheadP99,
    rps_one_core: result.rpsOneCore,
    detail: {
      skipped: result.skipped,
      history_messages: result.historyMessages,
      pairs: result.calls,
      gateway_first_token_ms: { p50: result.gatewayFirstTokenP50, p99: result.gatewayFirstTokenP99 },
      direct_first_token_ms: { p50: result.directFirstTokenP50, p99: result.directFirstTokenP99 },
      server_overhead_header_p50_ms: result.serverOverheadP50,
      clients: result.clients,
      rps_calls: result.rpsCalls,
      completed: result.completed,
      failed: result.failed,
      wall_ms: result.rpsWallMs,
      rps_wall: result.rpsWall,
      cpu_ms_per_call: result.cpuMsPerCall,
      failures: result.failures,
    },
  };
}

/** The table's rows: label, value, range, note. */
export function gatewayRows(result: GatewayResult): [string, string, string, string][] {
  if (result.skipped !== null) return [["gateway", "—", "", result.skipped]];
  const ms = (value: number | null) => (value === null ? "—" : value.toFixed(2));
  return [
    [
      "gateway: first token added, p50",
      ms(result.overheadP50),
      `p99 ${ms(result.overheadP99)}`,
      `${result.calls} streaming calls, ${result.historyMessages}-message history; gateway ${ms(result.gatewayFirstTokenP50)} (p99 ${ms(result.gatewayFirstTokenP99)}) vs direct ${ms(result.directFirstTokenP50)} (p99 ${ms(result.directFirstTokenP99)})`,
    ],
    [
      "gateway: time before the provider (header)",
      ms(result.serverOverheadP50),
      "",
      "x-glassbox-overhead-ms, median",
    ],
    [
      `gateway: ${result.clients} clients, calls per core-second`,
      ms(result.rpsOneCore),
      `${ms(result.rpsWall)} per wall second`,
      `${result.completed} of ${result.rpsCalls} completed, ${result.failed} failed, in ${ms(result.rpsWallMs)} ms; ${ms(result.cpuMsPerCall)} ms CPU per call${result.failures[0] ? `; ${result.failures[0]}` : ""}`,
    ],
  ];
}

/** In the child: set up, measure the overhead, then the throughput; the database is dropped at the end. */
async function runGatewayBench(
  baseUrl: string,
  { calls, rpsCalls }: { calls: number; rpsCalls: number },
): Promise<GatewayResult> {
  const app = await setUpAppBench(baseUrl);
  try {
    const setup = await setUp(app, WARMUP_PAIRS + calls + rpsCalls);
    const { POST } = await import("@/app/v1/chat/completions/route");
    const overhead = await measureOverhead(setup, POST, calls);
    const throughput = await measureThroughput(setup, POST, rpsCalls);
    return { ...gatewaySkipped("", calls, rpsCalls), skipped: null, ...overhead, ...throughput };
  } finally {
    await app.close();
  }
}

const childCounts = bench.childRequest;
if (childCounts) bench.answer(runGatewayBench(process.env.DATABASE_URL ?? "", JSON.parse(childCounts)));
