// A provider that answers with headers and the stream's opening events, then sends nothing more: no word reached
// the user, so the attempt fails within its timeout (provider_timeout, the request aborted) and, after the retries,
// the fallback model answers. The provider that sends nothing at all, not even headers, and the stall after some
// words (the reply is interrupted, never retried) are in reply-resilience.test.ts.
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { signUp, type TestUser } from "../api-client";
import { type FakeProviderEnv, startFakeProviderEnv } from "../fixtures/fake-provider-env";
import { createConversation, insertPersona } from "../fixtures/personas";
import { fetchTurns, runTurn, storedMessages, textOf } from "../fixtures/turns";

let env: FakeProviderEnv;
let ada: TestUser;
const saved = {
  first: process.env.PROVIDER_FIRST_CHUNK_TIMEOUT_MS,
  chunk: process.env.PROVIDER_CHUNK_TIMEOUT_MS,
};

beforeAll(async () => {
  env = await startFakeProviderEnv();
  ada = await signUp("Ada");
});

afterEach(() => {
  for (const [name, value] of [
    ["PROVIDER_FIRST_CHUNK_TIMEOUT_MS", saved.first],
    ["PROVIDER_CHUNK_TIMEOUT_MS", saved.chunk],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

afterAll(async () => {
  await env.close();
});

test("headers, then silence: each try fails within its timeout and the fallback answers", async () => {
  process.env.PROVIDER_FIRST_CHUNK_TIMEOUT_MS = "400";
  process.env.PROVIDER_CHUNK_TIMEOUT_MS = "400";
  const persona = await insertPersona({
    modelId: "openai:gpt-4.1-mini",
    fallbackModelIds: ["google:gemini-2.5-flash"],
  });
  const conversationId = await createConversation(ada, persona);
  env.providers.script(
    { kind: "text", text: "Never said.", firstTokenDelayMs: 60_000, protocol: "openai-chat", times: 3 },
    { kind: "text", text: "The fallback answers.", protocol: "gemini" },
  );

  const started = Date.now();
  const { text } = await runTurn(ada, conversationId, "Hello?");
  expect(text).toBe("The fallback answers.");
  expect(Date.now() - started).toBeLessThan(6_000);

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
  for (const attempt of turns[0].attempts.slice(0, 3)) {
    expect(attempt.timings.doneMs as number).toBeGreaterThanOrEqual(400);
    expect(attempt.timings.doneMs as number).toBeLessThan(1_500);
  }
  const messages = await storedMessages(conversationId);
  expect(messages.map((message) => [message.status, textOf(message)])).toEqual([
    ["complete", "Hello?"],
    ["complete", "The fallback answers."],
  ]);
});
