// Issue 11 on the wire: a provider that sends nothing, or only headers and the stream's opening events, fails the
// attempt with `provider_timeout` and the fallback answers; a stall between chunks keeps the text the user saw (interrupted, no retry); a retry-after beyond the cap
// fails over at once; turns of a dead instance are recovered by their heartbeat.

import { hostname } from "node:os";
import { eq, inArray } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { afterEach, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { messages as messagesTable, turns as turnsTable } from "@/db/schema";
import { splitIntoPieces } from "@/e2e/fake-providers/text-pieces";
import { instanceId, sweepAbandonedTurns } from "@/lib/chat/turn-control/turn-recovery";
import { registerRunningTurn } from "@/lib/chat/turn-control/turn-stops";
import { closedByClientAt } from "../fixtures/fake-provider-env";
import { fakeProvidersAndUsersForFile } from "../fixtures/file-setup";
import { conversationWithPersona, createConversation, insertPersona } from "../fixtures/personas";
import {
  fetchTurns,
  runTurn,
  storedMessages,
  storePersonaReply,
  storeUserMessage,
  textOf,
} from "../fixtures/turns";

const { env, ada } = fakeProvidersAndUsersForFile("Ada");
const savedEnv: Record<string, string | undefined> = {};

/** Sets environment variables for one test; afterEach puts them back. */
function setEnv(values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) {
    if (!(name in savedEnv)) savedEnv[name] = process.env[name];
    process.env[name] = value;
  }
}

afterEach(() => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
    delete savedEnv[name];
  }
});

async function conversationOnGptWithGeminiFallback(): Promise<string> {
  const persona = await insertPersona({
    modelId: "openai:gpt-4.1-mini",
    fallbackModelIds: ["google:gemini-2.5-flash"],
  });
  return createConversation(ada, persona);
}

/** The first model timed out on each of its three tries (each request closed by us); the fallback answered. */
async function expectThreeTimeoutsThenGemini(conversationId: string) {
  expect(
    env.providers.requests.map((request) => [request.protocol, request.closedByClientAt !== null]),
  ).toEqual([
    ["openai-chat", true],
    ["openai-chat", true],
    ["openai-chat", true],
    ["gemini", false],
  ]);
  const { turns } = await fetchTurns(ada, conversationId);
  expect(turns[0].status).toBe("ok");
  expect(
    turns[0].attempts.map((attempt) => [attempt.modelId, attempt.status, attempt.error?.code ?? null]),
  ).toEqual([
    ["openai:gpt-4.1-mini", "error", "provider_timeout"],
    ["openai:gpt-4.1-mini", "error", "provider_timeout"],
    ["openai:gpt-4.1-mini", "error", "provider_timeout"],
    ["google:gemini-2.5-flash", "ok", null],
  ]);
  return turns[0].attempts;
}

/** Ada's turn with `text`, and how long it took. */
async function timedTurn(conversationId: string, text: string) {
  const started = Date.now();
  const result = await runTurn(ada, conversationId, text);
  return { ...result, tookMs: Date.now() - started };
}

/** Each stored message's status and text, in order. */
async function statusesAndTexts(conversationId: string) {
  return (await storedMessages(conversationId)).map((message) => [message.status, textOf(message)]);
}

describe("provider timeouts", () => {
  test("a provider that sends nothing: provider_timeout on each try, then the fallback answers", async () => {
    setEnv({ PROVIDER_FIRST_CHUNK_TIMEOUT_MS: "300" });
    const conversationId = await conversationOnGptWithGeminiFallback();
    env.providers.script(
      { kind: "hang", protocol: "openai-chat", times: 3 },
      { kind: "text", text: "Gemini answers.", protocol: "gemini" },
    );

    const { text, tookMs } = await timedTurn(conversationId, "Anyone there?");
    expect(text).toBe("Gemini answers.");
    expect(tookMs).toBeLessThan(5_000);

    for (const request of env.providers.requests.slice(0, 3)) {
      // Closed by the client within the timeout's reach (the timer starts before the request leaves, so how long
      // the server held it is only bounded above; the attempt's own clock bounds it below).
      expect((request.closedByClientAt as number) - request.receivedAt).toBeLessThan(2_000);
    }
    const attempts = await expectThreeTimeoutsThenGemini(conversationId);
    expect(attempts[0].error?.message).toContain("the first chunk may take 300 ms");
    for (const attempt of attempts.slice(0, 3)) {
      expect(attempt.timings.doneMs as number).toBeGreaterThanOrEqual(300);
    }
    expect(await statusesAndTexts(conversationId)).toEqual([
      ["complete", "Anyone there?"],
      ["complete", "Gemini answers."],
    ]);
  });

  test("headers, then silence: each try fails within its timeout and the fallback answers", async () => {
    // The stream's opening events arrive, then nothing more: no word reached the user, so the attempt is retried.
    setEnv({ PROVIDER_FIRST_CHUNK_TIMEOUT_MS: "400", PROVIDER_CHUNK_TIMEOUT_MS: "400" });
    const conversationId = await conversationOnGptWithGeminiFallback();
    env.providers.script(
      { kind: "text", text: "Never said.", firstTokenDelayMs: 60_000, protocol: "openai-chat", times: 3 },
      { kind: "text", text: "The fallback answers.", protocol: "gemini" },
    );

    const started = Date.now();
    const { text } = await runTurn(ada, conversationId, "Hello?");
    expect(text).toBe("The fallback answers.");
    expect(Date.now() - started).toBeLessThan(6_000);

    const attempts = await expectThreeTimeoutsThenGemini(conversationId);
    for (const attempt of attempts.slice(0, 3)) {
      expect(attempt.timings.doneMs as number).toBeGreaterThanOrEqual(400);
      expect(attempt.timings.doneMs as number).toBeLessThan(1_500);
    }
    expect(await statusesAndTexts(conversationId)).toEqual([
      ["complete", "Hello?"],
      ["complete", "The fallback answers."],
    ]);
  });

  test("a stall between chunks: the reply is interrupted with the text so far, and not retried", async () => {
    setEnv({ PROVIDER_CHUNK_TIMEOUT_MS: "250" });
    const conversationId = await conversationOnGptWithGeminiFallback();
    const text = "First words then a long silence follows here.";
    env.providers.script({ kind: "text", text, chunks: 4, chunkDelayMs: 3_000 });

    const started = Date.now();
    const { text: streamed, chunks } = await runTurn(ada, conversationId, "Talk slowly.");
    expect(Date.now() - started).toBeLessThan(2_500);
    const firstPiece = splitIntoPieces(text, 4)[0];
    expect(streamed).toBe(firstPiece);
    expect(chunks.filter((chunk) => chunk.type === "error")).toHaveLength(1);

    expect(env.providers.requests).toHaveLength(1);
    expect(await closedByClientAt(env.providers.requests[0])).not.toBeNull();
    const { turns } = await fetchTurns(ada, conversationId);
    expect(turns[0].status).toBe("interrupted");
    expect(turns[0].attempts.map((attempt) => [attempt.status, attempt.error?.code])).toEqual([
      ["error", "provider_timeout"],
    ]);
    expect(await statusesAndTexts(conversationId)).toEqual([
      ["complete", "Talk slowly."],
      ["interrupted", firstPiece],
    ]);
  });

  test("a 429 asking for an hour fails over at once to the fallback", async () => {
    const conversationId = await conversationOnGptWithGeminiFallback();
    env.providers.script(
      { kind: "error", status: 429, retryAfterSeconds: 3600, message: "Slow down", protocol: "openai-chat" },
      { kind: "text", text: "Gemini steps in.", protocol: "gemini" },
    );
    const { text, tookMs } = await timedTurn(conversationId, "Quick question.");
    expect(text).toBe("Gemini steps in.");
    expect(tookMs).toBeLessThan(2_000);
    expect(env.providers.requests.map((request) => request.protocol)).toEqual(["openai-chat", "gemini"]);
    const { turns } = await fetchTurns(ada, conversationId);
    expect(
      turns[0].attempts.map((attempt) => [attempt.modelId, attempt.status, attempt.error?.code ?? null]),
    ).toEqual([
      ["openai:gpt-4.1-mini", "error", "rate_limited"],
      ["google:gemini-2.5-flash", "ok", null],
    ]);
  });

  test("a 429 asking for an hour with no fallback: the turn fails at once and says the wait is too long", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    env.providers.script({ kind: "error", status: 429, retryAfterSeconds: 3600, message: "Slow down" });
    const started = Date.now();
    const { chunks } = await runTurn(ada, conversationId, "Quick question.");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(env.providers.requests).toHaveLength(1);
    expect(chunks.filter((chunk) => chunk.type === "error")).toEqual([
      {
        type: "error",
        errorText:
          "openai:gpt-4.1-mini is rate limited and asked to wait 3600 s, longer than the 20 s a model call waits: try again later.",
      },
    ]);
    const { turns } = await fetchTurns(ada, conversationId);
    expect(turns[0].status).toBe("error");
    expect(turns[0].attempts.map((attempt) => attempt.error?.code)).toEqual(["rate_limited"]);
    expect((await storedMessages(conversationId)).map((message) => message.status)).toEqual([
      "complete",
      "error",
    ]);
  });
});

describe("turn recovery", () => {
  async function abandonedTurn({
    instanceId,
    heartbeatAt,
    replyText,
  }: {
    instanceId: string;
    heartbeatAt: Date | null;
    replyText: string;
  }) {
    const db = await getDb();
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini" });
    const conversationId = await createConversation(ada, persona);
    const question = await storeUserMessage(ada, conversationId, "Are you still there?");
    const reply = await storePersonaReply(persona, conversationId, replyText, {
      status: "streaming",
      replyToMessageId: question.id,
    });
    const turnId = uuidv7();
    await db.insert(turnsTable).values({
      id: turnId,
      conversationId,
      userMessageId: question.id,
      assistantMessageId: reply.id,
      status: "running",
      settingsVersion: 1,
      instanceId,
      heartbeatAt,
    });
    return { turnId, replyId: reply.id };
  }

  async function states(turnIds: string[], replyIds: string[]) {
    const db = await getDb();
    const turnRows = await db
      .select({ id: turnsTable.id, status: turnsTable.status })
      .from(turnsTable)
      .where(inArray(turnsTable.id, turnIds));
    const replyRows = await db.select().from(messagesTable).where(inArray(messagesTable.id, replyIds));
    return {
      turns: turnIds.map((id) => turnRows.find((row) => row.id === id)?.status),
      replies: replyIds.map((id) => {
        const row = replyRows.find((candidate) => candidate.id === id);
        return row ? [row.status, textOf(row)] : null;
      }),
    };
  }

  test("a stale heartbeat, or this instance's earlier life: interrupted with the text kept; live turns untouched", async () => {
    // A unique id for this instance: the database is shared with other test files running turns right now.
    const here = `reply-resilience-${uuidv7()}`;
    setEnv({ INSTANCE_ID: here });
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

    const stale = await abandonedTurn({
      instanceId: "dead-host:3000",
      heartbeatAt: minutesAgo(5),
      replyText: "Half a rep",
    });
    const earlierLife = await abandonedTurn({
      instanceId: here,
      heartbeatAt: new Date(),
      replyText: "Before the crash",
    });
    const live = await abandonedTurn({
      instanceId: "live-host:3000",
      heartbeatAt: new Date(),
      replyText: "Still going",
    });
    const runningHere = await abandonedTurn({
      instanceId: here,
      heartbeatAt: new Date(),
      replyText: "Mine, now",
    });
    const unregister = registerRunningTurn(runningHere.turnId, crypto.randomUUID(), () => {});

    try {
      const recovered = await sweepAbandonedTurns(await getDb());
      expect(recovered).toBeGreaterThanOrEqual(2);
      const all = [stale, earlierLife, live, runningHere];
      expect(
        await states(
          all.map((entry) => entry.turnId),
          all.map((entry) => entry.replyId),
        ),
      ).toEqual({
        turns: ["interrupted", "interrupted", "running", "running"],
        replies: [
          ["interrupted", "Half a rep"],
          ["interrupted", "Before the crash"],
          ["streaming", "Still going"],
          ["streaming", "Mine, now"],
        ],
      });
      // A second sweep finds nothing more of these.
      await sweepAbandonedTurns(await getDb());
      expect((await states([live.turnId], [live.replyId])).turns).toEqual(["running"]);
    } finally {
      unregister();
      const db = await getDb();
      await db
        .update(turnsTable)
        .set({ status: "interrupted" })
        .where(inArray(turnsTable.id, [live.turnId, runningHere.turnId]));
    }
    // The recovered conversation takes new turns.
    const db = await getDb();
    const [row] = await db.select().from(turnsTable).where(eq(turnsTable.id, stale.turnId));
    env.providers.script({ kind: "text", text: "Back again." });
    const { text } = await runTurn(ada, row.conversationId, "Hello again.");
    expect(text).toBe("Back again.");
  });
  test.each([
    { INSTANCE_ID: "web-1", INSTANCE_WORKER: "", PORT: "3000", expected: "web-1" },
    { INSTANCE_ID: "web-1", INSTANCE_WORKER: "0", PORT: "3000", expected: "web-1/worker-0" },
    { INSTANCE_ID: "web-1", INSTANCE_WORKER: "1", PORT: "3000", expected: "web-1/worker-1" },
    { INSTANCE_ID: "", INSTANCE_WORKER: "", PORT: "3100", expected: `${hostname()}:3100` },
    { INSTANCE_ID: "", INSTANCE_WORKER: "1", PORT: "3100", expected: `${hostname()}:3100/worker-1` },
  ])(
    "instance id with INSTANCE_ID=$INSTANCE_ID, INSTANCE_WORKER=$INSTANCE_WORKER, PORT=$PORT: $expected",
    ({ expected, ...values }) => {
      setEnv(values);
      expect(instanceId()).toBe(expected);
    },
  );

  test("the workers of one instance: a worker recovers its own earlier life at once, never a sibling's live turns", async () => {
    // scripts/serve.mjs starts each worker with its number; a worker that died is started again under the same one.
    const here = `reply-resilience-${uuidv7()}`;
    setEnv({ INSTANCE_ID: here, INSTANCE_WORKER: "0" });
    const ownEarlierLife = await abandonedTurn({
      instanceId: `${here}/worker-0`,
      heartbeatAt: new Date(),
      replyText: "Worker 0 before it died",
    });
    const sibling = await abandonedTurn({
      instanceId: `${here}/worker-1`,
      heartbeatAt: new Date(),
      replyText: "Worker 1, streaming",
    });
    try {
      await sweepAbandonedTurns(await getDb());
      expect(
        await states([ownEarlierLife.turnId, sibling.turnId], [ownEarlierLife.replyId, sibling.replyId]),
      ).toEqual({
        turns: ["interrupted", "running"],
        replies: [
          ["interrupted", "Worker 0 before it died"],
          ["streaming", "Worker 1, streaming"],
        ],
      });
    } finally {
      await (await getDb())
        .update(turnsTable)
        .set({ status: "interrupted" })
        .where(eq(turnsTable.id, sibling.turnId));
    }
  });
});
