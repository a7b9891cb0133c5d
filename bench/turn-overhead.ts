// The turn-overhead part of the benchmark, on Postgres: a fresh database with a 1 000-message conversation stored
// directly, the fake providers in-process, and the real POST /api/chat route handler called in-process.
// - pre_provider_ms: from the handler call to the moment the fake server has the request (recorded by a hook on
//   its request list, with performance.now(), so sub-millisecond).
// - ttft_added_ms: time to the first text chunk through the route, minus the same for a direct `streamText` call
//   (the app's own model-call code without its request capture) with the same messages to the same fake server.
// Route turns and direct calls alternate, so both see the same machine load.

import type { BuildInput } from "@/lib/context/types";
import { type AppBench, setUpAppBench } from "./app-setup";
import { median, round, type Sample, summarise } from "./stats";

export interface TurnOverheadResult {
  skipped: string | null;
  storedMessages: number;
  turns: number;
  preProvider: Sample | null;
  routeFirstToken: Sample | null;
  directFirstToken: Sample | null;
  ttftAdded: number | null;
  /** Provider requests per turn (1 means no summary or retry ran on the side). */
  requestsPerTurn: number | null;
}

const STORED_MESSAGES = 1_000;

export async function measureTurnOverhead({
  turns = 20,
  warmup = 3,
}: {
  turns?: number;
  warmup?: number;
} = {}): Promise<TurnOverheadResult> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    return {
      skipped: "DATABASE_URL is not set: the turn overhead is measured on Postgres only",
      storedMessages: STORED_MESSAGES,
      turns: 0,
      preProvider: null,
      routeFirstToken: null,
      directFirstToken: null,
      ttftAdded: null,
      requestsPerTurn: null,
    };
  }
  const bench = await setUpTurnBench(baseUrl);
  try {
    for (let index = 0; index < warmup; index++) {
      await bench.routeTurn(`Warm-up ${index}: is the castle open?`);
      await bench.directTurn();
    }
    const preProvider: number[] = [];
    const routeFirstToken: number[] = [];
    const directFirstToken: number[] = [];
    const requestCounts: number[] = [];
    for (let index = 0; index < turns; index++) {
      const turn = await bench.routeTurn(`Question ${index}: what about the castle?`);
      preProvider.push(turn.preProviderMs);
      routeFirstToken.push(turn.firstTokenMs);
      requestCounts.push(turn.requests);
      directFirstToken.push(await bench.directTurn());
    }
    return {
      skipped: null,
      storedMessages: STORED_MESSAGES,
      turns,
      preProvider: summarise(preProvider),
      routeFirstToken: summarise(routeFirstToken),
      directFirstToken: summarise(directFirstToken),
      ttftAdded: round(median(routeFirstToken) - median(directFirstToken)),
      requestsPerTurn: median(requestCounts),
    };
  } finally {
    await bench.close();
  }
}

export interface TurnBench {
  /** One turn through POST /api/chat, read to the end. */
  routeTurn(text: string): Promise<{ preProviderMs: number; firstTokenMs: number; requests: number }>;
  /** One direct streamText call with the same request; the time to its first text delta. */
  directTurn(): Promise<number>;
  close(): Promise<void>;
}

/** The app in-process (see app-setup.ts) with the stored conversation, and a hook on the fake server's requests. */
export async function setUpTurnBench(baseUrl: string): Promise<TurnBench> {
  const app = await setUpAppBench(baseUrl);
  try {
    // When each provider request reached the fake server: a hook on its live request list.
    const arrivals: number[] = [];
    const requests = app.providers.requests;
    const push = requests.push.bind(requests);
    requests.push = (...items) => {
      for (let index = 0; index < items.length; index++) arrivals.push(performance.now());
      return push(...items);
    };

    const user = await app.signUp("Ada");
    const persona = await app.createPersona();
    const conversationId = await app.storeConversation({ persona, owner: user, messages: STORED_MESSAGES });
    const direct = await directCall(app.db, conversationId, user.id);
    const reply = {
      kind: "text" as const,
      text: "Sure: take tram 28 early in the morning.",
      chunks: 4,
      chunkDelayMs: 1,
    };

    return {
      async routeTurn(text) {
        app.providers.script(reply);
        const arrivalsBefore = arrivals.length;
        const requestsBefore = requests.length;
        const start = performance.now();
        const response = await app.chatTurn(user, conversationId, text);
        if (!response.ok || !response.body)
          throw new Error(`chat turn failed: ${response.status} ${await response.text()}`);
        const firstToken = await firstTextDelta(response.body);
        if (arrivals.length === arrivalsBefore)
          throw new Error("the provider never received the turn's request");
        return {
          preProviderMs: arrivals[arrivalsBefore] - start,
          firstTokenMs: firstToken - start,
          requests: requests.length - requestsBefore,
        };
      },
      async directTurn() {
        app.providers.script(reply);
        const start = performance.now();
        const result = direct.stream();
        let first = 0;
        for await (const part of result.fullStream)
          if (part.type === "text-delta" && first === 0) first = performance.now();
        return first - start;
      },
      close: app.close,
    };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** Read the UI message stream until its first text delta; the rest is drained (the reply finishes and is stored). */
async function firstTextDelta(body: ReadableStream<Uint8Array>): Promise<number> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let first = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (first !== 0) continue;
    buffered += decoder.decode(value, { stream: true });
    if (buffered.includes('"type":"text-delta"')) first = performance.now();
  }
  if (first === 0) throw new Error(`the reply streamed no text: ${buffered.slice(0, 300)}`);
  return first;
}

type Database = AppBench["db"];

/**
 * The direct call: the app's own model-call code (`streamModelCall`, which calls `streamText`) without the request
 * capture, with the request the pipeline builds for this conversation, to the same fake provider.
 */
async function directCall(db: Database, conversationId: string, userId: string) {
  const { getReadableConversation, getPersona, getModel, listHistoryWindow } = await import("@/db/queries");
  const { loadTurnInput } = await import("@/lib/chat/load-turn-input");
  const { toModelDescriptor } = await import("@/lib/chat/stored-rows");
  const { buildContext } = await import("@/lib/context/build-context");
  const { resolveForModel } = await import("@/lib/context/resolve-for-model");
  const { streamModelCall } = await import("@/lib/chat/model-call");
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
