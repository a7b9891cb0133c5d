// The database goes away while the app is running, through a TCP proxy between the app and Postgres: cut while
// idle (after requests were served), a signed-in route answers 503 with retry-after and the same process answers
// again once it is back; cut while a reply streams, the reply still ends (the words keep coming from the provider)
// and every row gets a final status: written by the turn itself when the database is back in time, else by the
// recovery sweep. Never a turn left `running`, a reply left `streaming`, a user message stored twice. Needs Postgres.
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import * as conversationsRoute from "@/app/api/conversations/route";
import { getDb } from "@/db/client";
import { turns as turnsTable } from "@/db/schema";
import { sweepAbandonedTurns } from "@/lib/chat/turn-control/turn-recovery";
import { call, expectError } from "../api-client";
import { databaseBehindProxy } from "../fixtures/cuttable-proxy";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { createConversation, insertPersona } from "../fixtures/personas";
import { postChat, runTurn, storedMessages, streamedText, textOf } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const baseUrl = process.env.GLASSBOX_BASE_DATABASE_URL;

describe.skipIf(!baseUrl)("a database outage while the app runs", () => {
  const outage = databaseBehindProxy(baseUrl as string, "outage_running");
  // Started, and Ada signed up, once the database behind the proxy is there.
  const env = fakeProvidersForFile({ resetBeforeEach: false });
  const ada = signedUpForFile("Ada");

  test("cut while idle: 503 with retry-after within seconds, then the same process answers again", async () => {
    const conversationId = await createConversation(ada);
    const before = await call(conversationsRoute.GET, "/api/conversations", { user: ada });
    expect(before.status).toBe(200);
    const listed = await before.text();
    expect(listed).toContain(conversationId);

    await outage.proxy.cut();
    const started = Date.now();
    const during = await call(conversationsRoute.GET, "/api/conversations", { user: ada });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(Number(during.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await expectError(during, 503, "service_unavailable")).toMatch(/database/i);

    await outage.proxy.open();
    const after = await call(conversationsRoute.GET, "/api/conversations", { user: ada });
    expect(after.status).toBe(200);
    expect(await after.text()).toBe(listed);
  });

  test("a short cut while a reply streams: the reply completes and is stored whole once the database is back", async () => {
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini" });
    const conversationId = await createConversation(ada, persona);
    const text = "One two three four five six seven eight.";
    env.providers.script({ kind: "text", text, chunks: 8, chunkDelayMs: 300 });

    const reading = readChunksWhile(await postChat(ada, conversationId, "Count slowly."), {
      onFirstText: async () => {
        await turnStored(conversationId);
        await outage.proxy.cut();
        await sleep(1_000);
        await outage.proxy.open();
      },
    });
    const chunks = await reading;
    expect(streamedText(chunks)).toBe(text);
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "stop",
      messageMetadata: { status: "complete" },
    });

    const messages = await storedMessages(conversationId);
    expect(messages.map((message) => [message.status, textOf(message)])).toEqual([
      ["complete", "Count slowly."],
      ["complete", text],
    ]);
    expect(await turnStatuses(conversationId)).toEqual(["ok"]);
  });

  // A cut that outlasts the reply's final writes hits a bug of postgres.js 3.4.9 (the newest release): a write
  // scheduled on a connection the cut just closed throws an uncaught TypeError ("Cannot read properties of null
  // (reading 'write')", porsager/postgres#1154 and #1208), and the pool can stay stuck. The app's own handling
  // held in every run where the driver did not hit it, but the driver makes the test fail at random, so it runs
  // only on request (DATABASE_CUT_PAST_END=1) until a fixed driver is released.
  test.runIf(process.env.DATABASE_CUT_PAST_END === "1")(
    "cut until after the reply ends: the client gets a clear end; the recovery sweep finishes the rows; the next turn works",
    async () => {
      const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini" });
      const conversationId = await createConversation(ada, persona);
      const text = "Words that arrive while the database is away.";
      env.providers.script({ kind: "text", text, chunks: 4, chunkDelayMs: 200 });

      const started = Date.now();
      const chunks = await readChunksWhile(await postChat(ada, conversationId, "Talk while it is down."), {
        onFirstText: async () => {
          await turnStored(conversationId);
          await outage.proxy.cut();
        },
      });
      // The stream ends on its own, with an error the client shows: the final writes gave up after their retries.
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(streamedText(chunks)).toBe(text);
      expect(chunks.at(-1)).toEqual({ type: "error", errorText: "The reply failed on the server." });

      await outage.proxy.open();
      const db = await getDb();
      // The instance's periodic sweep (every 30 s) does this; called here so the test does not wait for it.
      expect(await sweepAbandonedTurns(db)).toBe(1);
      expect(await turnStatuses(conversationId)).toEqual(["interrupted"]);
      const messages = await storedMessages(conversationId);
      expect(messages.map((message) => [message.authorType, message.status])).toEqual([
        ["user", "complete"],
        ["persona", "interrupted"],
      ]);
      expect(text.startsWith(textOf(messages[1]))).toBe(true);

      env.providers.script({ kind: "text", text: "Back again." });
      const next = await runTurn(ada, conversationId, "Are you back?");
      expect(next.text).toBe("Back again.");
      const after = await storedMessages(conversationId);
      expect(after.map((message) => [message.status, textOf(message)]).slice(2)).toEqual([
        ["complete", "Are you back?"],
        ["complete", "Back again."],
      ]);
      expect(after.filter((message) => textOf(message) === "Talk while it is down.")).toHaveLength(1);
      expect(await turnStatuses(conversationId)).toEqual(["interrupted", "ok"]);
    },
  );
});

/** Reads a UI message stream chunk by chunk, calling `onFirstText` (not awaited by the reading) at the first word. */
async function readChunksWhile(
  response: Response,
  { onFirstText }: { onFirstText: () => Promise<void> },
): Promise<Array<Record<string, unknown>>> {
  expect(response.status).toBe(200);
  const chunks: Array<Record<string, unknown>> = [];
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let hook: Promise<void> | null = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
      const chunk = JSON.parse(line.slice(6)) as Record<string, unknown>;
      chunks.push(chunk);
      if (chunk.type === "text-delta" && hook === null) hook = onFirstText();
    }
  }
  await hook;
  return chunks;
}

/**
 * Waits until the turn's rows are stored: the first words reach the client while they may still be being written
 * (docs/architecture.md, "A turn, step by step"), and this test is about a cut while the reply streams after that.
 */
async function turnStored(conversationId: string): Promise<void> {
  for (let tries = 0; (await turnStatuses(conversationId)).length === 0; tries++) {
    if (tries > 100) throw new Error("the turn's row was never stored");
    await sleep(20);
  }
}

async function turnStatuses(conversationId: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ status: turnsTable.status })
    .from(turnsTable)
    .where(eq(turnsTable.conversationId, conversationId))
    .orderBy(turnsTable.createdAt);
  return rows.map((row) => row.status);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
