// The providers on the real wire protocols: a turn through POST /api/chat against the fake provider servers, for
// OpenAI chat completions, OpenAI Responses, Gemini and an OpenAI-compatible server; the recorded request equals,
// byte for byte, what the server received; no key is stored; usage (cached input tokens included) is kept.
import { eq, inArray } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import { getDb } from "@/db/client";
import { attempts, models, turns } from "@/db/schema";
import { seedDatabase } from "@/db/seed";
import type { Protocol } from "@/e2e/fake-providers/server";
import { parseEnvironment } from "@/lib/config/env";
import { OFFLINE_MODEL_ID } from "@/lib/domain/model-catalog";
import { call } from "../api-client";
import {
  COMPATIBLE_PATH_PREFIX,
  COMPATIBLE_TEST_KEY,
  fakeProvidersForFile,
  GOOGLE_TEST_KEY,
  OPENAI_TEST_KEY,
} from "../fixtures/fake-provider-env";
import { insertModel } from "../fixtures/models";
import { conversationWithPersona, createConversation, insertPersona } from "../fixtures/personas";
import { fetchTurns, runTurn, storedMessages, textOf } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const SECRETS = [OPENAI_TEST_KEY, GOOGLE_TEST_KEY, COMPATIBLE_TEST_KEY];

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

/** Everything stored for a conversation's turns, as one string, to search for secrets. */
async function storedAttemptRows(conversationId: string): Promise<string> {
  const db = await getDb();
  const rows = await db
    .select({ attempt: attempts })
    .from(attempts)
    .innerJoin(turns, eq(turns.id, attempts.turnId))
    .where(eq(turns.conversationId, conversationId));
  return JSON.stringify(rows);
}

const PROTOCOL_CASES: Array<{
  protocol: Protocol;
  modelId: string;
  path: string;
  strippedHeader: string;
  /** Where the system prompt and the user's words sit in the body (the attempt's wire map). */
  wirePaths: Record<string, string[]>;
}> = [
  {
    protocol: "openai-chat",
    modelId: "openai:gpt-4.1-mini",
    path: "/v1/chat/completions",
    strippedHeader: "authorization",
    wirePaths: { SYSTEM_PROMPT: ["/messages/0"], CURRENT_INPUT: ["/messages/1"] },
  },
  {
    protocol: "openai-responses",
    modelId: "openai:gpt-5-mini",
    path: "/v1/responses",
    strippedHeader: "authorization",
    wirePaths: { SYSTEM_PROMPT: ["/input/0"], CURRENT_INPUT: ["/input/1/content/0"] },
  },
  {
    protocol: "gemini",
    modelId: "google:gemini-2.5-flash",
    path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    strippedHeader: "x-goog-api-key",
    wirePaths: { SYSTEM_PROMPT: ["/systemInstruction/parts/0"], CURRENT_INPUT: ["/contents/0/parts/0"] },
  },
];

// The optional capabilities, none of which is assumed of a model nothing is known of.
const NO_EXTRAS = Object.fromEntries(
  ["vision", "video", "audio", "documents", "tools", "reasoning"].map((capability) => [capability, false]),
);

describe("a turn on each wire protocol", () => {
  test.each(PROTOCOL_CASES)(
    "$protocol: streams the reply and records the exact request",
    async ({ protocol, modelId, path, strippedHeader, wirePaths }) => {
      const persona = await insertPersona({ modelId });
      const conversationId = await createConversation(ada, persona);
      const replyText = `Hello from ${protocol} — «ünïcødé» ✓`;
      env.providers.script({
        kind: "text",
        text: replyText,
        chunks: 4,
        usage: { inputTokens: 321, outputTokens: 12, cachedInputTokens: 256 },
      });

      const { chunks, text } = await runTurn(ada, conversationId, `Say hi over ${protocol}`);
      expect(text).toBe(replyText);
      expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });

      expect(env.providers.requests).toHaveLength(1);
      const received = env.providers.requests[0];
      expect(received.protocol).toBe(protocol);
      // The key was sent to the provider (and stripped by the fake's recorder)…
      expect(received.strippedHeaders).toContain(strippedHeader);

      const { raw, turns: turnViews } = await fetchTurns(ada, conversationId);
      expect(turnViews).toHaveLength(1);
      expect(turnViews[0].status).toBe("ok");
      const [attempt] = turnViews[0].attempts;
      expect(turnViews[0].attempts).toHaveLength(1);
      expect(attempt).toMatchObject({ attemptNumber: 1, modelId, status: "ok", error: null });
      // The URL recorded is the full one the request went to: the fake provider's, not the public default.
      const url = `${env.providers.url}${path}`;
      expect(received.path).toBe(path);
      expect(attempt.request).toEqual({ url, body: received.body });
      expect(attempt.requests).toEqual([
        { url, status: 200, body: received.body, items: attempt.items, unclaimed: [], warnings: [] },
      ]);
      // Each item points at its element of the body, and nothing in the body is unexplained.
      expect(Object.fromEntries(attempt.items.map((item) => [item.tag, item.wirePaths]))).toEqual(wirePaths);
      expect(attempt.unclaimed).toEqual([]);
      const single = await call(attemptRoute.GET, `/api/attempts/${attempt.id}`, {
        user: ada,
        params: { id: attempt.id },
      });
      expect(single.status).toBe(200);
      const { attempt: attemptView } = (await single.json()) as { attempt: { request: { url: string } } };
      expect(attemptView.request.url).toBe(url);
      expect(attempt.response).toMatchObject({ text: replyText, finishReason: "stop" });
      expect(attempt.usage).toEqual({ inputTokens: 321, outputTokens: 12, cachedInputTokens: 256 });

      // …but never stored or returned, nor any auth header.
      const stored = await storedAttemptRows(conversationId);
      for (const haystack of [raw, stored]) {
        for (const secret of SECRETS) expect(haystack).not.toContain(secret);
        expect(haystack.toLowerCase()).not.toMatch(/authorization|x-goog-api-key|bearer /);
      }

      const messages = await storedMessages(conversationId);
      expect(messages.map((message) => [message.seq, message.authorType, message.status])).toEqual([
        [1, "user", "complete"],
        [2, "persona", "complete"],
      ]);
      expect(textOf(messages[1])).toBe(replyText);
    },
  );
});

describe("OpenAI-compatible servers", () => {
  test("every name in OPENAI_COMPATIBLE_MODELS becomes a conservative registry row, once", async () => {
    const db = await getDb();
    const seedEnv = parseEnvironment({
      ...process.env,
      OPENAI_COMPATIBLE_MODELS: " llama3.2, qwen2.5:7b ,llama3.2,,local",
    });
    await seedDatabase(db, seedEnv);
    await seedDatabase(db, seedEnv); // idempotent: a restart changes nothing
    const rows = await db
      .select()
      .from(models)
      .where(
        inArray(models.id, [
          "openai-compatible:llama3.2",
          "openai-compatible:qwen2.5:7b",
          "openai-compatible:local",
        ]),
      );
    const byId = new Map(rows.map(({ createdAt, updatedAt, ...row }) => [row.id, row]));
    expect([...byId.keys()].sort()).toEqual([
      "openai-compatible:llama3.2",
      "openai-compatible:local",
      "openai-compatible:qwen2.5:7b",
    ]);
    for (const name of ["llama3.2", "qwen2.5:7b"]) {
      expect(byId.get(`openai-compatible:${name}`)).toEqual({
        id: `openai-compatible:${name}`,
        provider: "openai-compatible",
        providerModelName: name,
        label: `${name} (OpenAI-compatible)`,
        apiKind: "chat",
        // Nothing is known of a local server's model: no media, tools or reasoning; strict alternation.
        capabilities: { ...NO_EXTRAS, systemInstruction: true, strictAlternation: true, maxStopSequences: 4 },
        contextWindow: 8_192,
        maxOutputTokens: 2_048,
        // Nothing is known of a local server's prices: its calls' costs show as unknown.
        prices: null,
        tokenizer: "estimate",
        enabled: true,
      });
    }
    // A name that collides with a built-in id leaves the built-in row as it was.
    expect(byId.get("openai-compatible:local")).toMatchObject({
      providerModelName: "local-model",
      contextWindow: 32_768,
    });
  });

  test("a turn to openai-compatible:<name> goes to OPENAI_COMPATIBLE_BASE_URL/chat/completions", async () => {
    await seedDatabase(
      await getDb(),
      parseEnvironment({ ...process.env, OPENAI_COMPATIBLE_MODELS: "mistral-small" }),
    );
    const conversationId = await conversationWithPersona(ada, { modelId: "openai-compatible:mistral-small" });
    env.providers.script({
      kind: "text",
      text: "Local model says hi.",
      usage: { inputTokens: 50, outputTokens: 5 },
    });

    const { text } = await runTurn(ada, conversationId, "Hello local model");
    expect(text).toBe("Local model says hi.");

    expect(env.providers.requests).toHaveLength(1);
    const received = env.providers.requests[0];
    expect(received).toMatchObject({
      protocol: "openai-chat",
      path: `${COMPATIBLE_PATH_PREFIX}/chat/completions`,
      model: "mistral-small",
    });
    expect(received.strippedHeaders).toEqual(["authorization"]);
    const { raw, turns: turnViews } = await fetchTurns(ada, conversationId);
    const [attempt] = turnViews[0].attempts;
    expect(attempt).toMatchObject({ modelId: "openai-compatible:mistral-small", status: "ok" });
    expect(attempt.request).toEqual({
      url: `${env.providers.url}${COMPATIBLE_PATH_PREFIX}/chat/completions`,
      body: received.body,
    });
    expect(attempt.usage).toEqual({ inputTokens: 50, outputTokens: 5, cachedInputTokens: 0 });
    for (const secret of SECRETS) expect(raw).not.toContain(secret);
    for (const secret of SECRETS) expect(await storedAttemptRows(conversationId)).not.toContain(secret);
  });
});

describe("the offline model", () => {
  test("records its request as offline://echo with the call it received as the body", async () => {
    const persona = await insertPersona({
      modelId: OFFLINE_MODEL_ID,
      systemPrompt: "Offline persona prompt.",
    });
    const conversationId = await createConversation(ada, persona);

    const { text } = await runTurn(ada, conversationId, "Describe what you got");
    expect(text).toContain('Your last message: "Describe what you got"');
    expect(env.providers.requests).toEqual([]); // no HTTP at all

    const { turns: turnViews } = await fetchTurns(ada, conversationId);
    const [attempt] = turnViews[0].attempts;
    expect(attempt).toMatchObject({ modelId: OFFLINE_MODEL_ID, status: "ok", error: null });
    expect(attempt.request?.url).toBe("offline://echo");
    expect(attempt.requests).toEqual([
      {
        url: "offline://echo",
        status: 200,
        body: attempt.request?.body,
        items: attempt.items,
        unclaimed: [],
        warnings: [],
      },
    ]);
    expect(attempt.items.map((item) => item.wirePaths)).toEqual([["/prompt/0"], ["/prompt/1/content/0"]]);
    // The body is the call the model received, as JSON: the instructions first, the user's words last.
    const body = JSON.parse(attempt.request?.body ?? "null") as {
      prompt: Array<{ role: string; content: unknown }>;
    };
    expect(body.prompt[0]).toEqual({ role: "system", content: "Offline persona prompt." });
    expect(body.prompt.at(-1)).toEqual({
      role: "user",
      content: [{ type: "text", text: "Describe what you got" }],
    });
    expect(attempt.response?.text).toBe(text);
  });
});

describe("an attempt that sent nothing", () => {
  test("its input did not fit the model: every item is marked not sent, and the fallback's items point into its body", async () => {
    const tiny = await insertModel({ contextWindow: 300, maxOutputTokens: 100 });
    const persona = await insertPersona({ modelId: tiny.id, fallbackModelIds: ["openai:gpt-4.1-mini"] });
    const conversationId = await createConversation(ada, persona);
    env.providers.script({ kind: "text", text: "Answered by the fallback." });
    await runTurn(ada, conversationId, `Read all of this: ${"many words here ".repeat(200)}`);

    const [unfit, answered] = (await fetchTurns(ada, conversationId)).turns[0].attempts;
    expect(unfit.error?.code).toBe("context_too_large");
    expect(unfit.requests).toEqual([]);
    expect(unfit.items.length).toBeGreaterThan(0);
    for (const item of unfit.items) {
      expect(item.wirePaths).toEqual([]);
      expect(item.dropped?.reason).toBe(`No request was sent: ${unfit.error?.message}`);
    }
    expect(answered.status).toBe("ok");
    expect(answered.items.every((item) => (item.wirePaths?.length ?? 0) > 0 && !item.dropped)).toBe(true);
  });
});
