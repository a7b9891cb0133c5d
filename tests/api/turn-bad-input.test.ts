// Bad input on the turn routes: a clear 4xx naming the problem, never a 500, and nothing stored
// half-way — above all, no user message and no turn when the persona has no usable model.
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import * as previewRoute from "@/app/api/conversations/[id]/preview/route";
import { getDb } from "@/db/client";
import { turns } from "@/db/schema";
import { call, expectError, type TestUser } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { insertModel } from "../fixtures/models";
import { conversationWithPersona, createConversation } from "../fixtures/personas";
import { fetchTurns, postChat, runTurn, storedMessages } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");
const bob = signedUpForFile("Bob");

/** Runs `body` with one environment variable unset, putting it back after. */
async function withoutVariable<T>(name: string, body: () => Promise<T>): Promise<T> {
  const saved = process.env[name];
  delete process.env[name];
  try {
    return await body();
  } finally {
    process.env[name] = saved;
  }
}

async function expectNothingStored(conversationId: string) {
  expect(await storedMessages(conversationId)).toEqual([]);
  const db = await getDb();
  expect(await db.select().from(turns).where(eq(turns.conversationId, conversationId))).toEqual([]);
}

function postPreview(user: TestUser, conversationId: string, body: unknown) {
  return call(previewRoute.POST, `/api/conversations/${conversationId}/preview`, {
    user,
    body,
    params: { id: conversationId },
  });
}

describe("POST /api/chat when the persona has no usable model", () => {
  test("a disabled model with an unknown fallback: 422 model_unavailable, nothing stored", async () => {
    const disabled = await insertModel({ enabled: false });
    const conversationId = await conversationWithPersona(ada, {
      modelId: disabled.id,
      fallbackModelIds: ["openai:no-such-model"],
      name: "Stranded",
    });

    const message = await expectError(
      await postChat(ada, conversationId, "Anyone there?"),
      422,
      "model_unavailable",
    );
    expect(message).toBe(
      `Persona Stranded has no usable model: every one of its models (${disabled.id}, openai:no-such-model) is unknown, disabled or its provider is not configured.`,
    );
    await expectNothingStored(conversationId);
    expect(env.providers.requests).toEqual([]);
  });

  test("a model whose provider is not configured: 422 model_unavailable, nothing stored", async () => {
    const conversationId = await conversationWithPersona(ada, {
      modelId: "google:gemini-2.5-flash",
      name: "Keyless",
    });

    const response = await withoutVariable("GOOGLE_GENERATIVE_AI_API_KEY", () =>
      postChat(ada, conversationId, "Hello?"),
    );
    const message = await expectError(response, 422, "model_unavailable");
    expect(message).toContain("google:gemini-2.5-flash");
    await expectNothingStored(conversationId);
    expect(env.providers.requests).toEqual([]);
  });

  test("an unconfigured model with a configured fallback answers through the fallback", async () => {
    const conversationId = await conversationWithPersona(ada, {
      modelId: "google:gemini-2.5-flash",
      fallbackModelIds: ["openai:gpt-4.1-mini"],
    });
    const { text } = await withoutVariable("GOOGLE_GENERATIVE_AI_API_KEY", () =>
      runTurn(ada, conversationId, "Hi"),
    );
    expect(text).toBe('Fake openai-chat reply to: "Hi"');
    const { turns: turnViews } = await fetchTurns(ada, conversationId);
    expect(turnViews[0].attempts.map((attempt) => [attempt.modelId, attempt.status])).toEqual([
      ["openai:gpt-4.1-mini", "ok"],
    ]);
  });
});

describe("POST /api/conversations/:id/preview refuses bad input", () => {
  const cases: Array<{
    name: string;
    body: unknown;
    status: number;
    code: string;
    message: string | RegExp;
  }> = [
    {
      name: "an unknown model",
      body: { text: "hi", modelId: "openai:no-such-model" },
      status: 422,
      code: "model_unavailable",
      message: "Model openai:no-such-model is unknown, disabled or its provider is not configured.",
    },
    {
      name: "text over the limit",
      body: { text: "x".repeat(20_001) },
      status: 400,
      code: "bad_request",
      message: "text: text must be at most 20000 characters",
    },
    {
      name: "a body over the size cap",
      body: { text: "x".repeat(300 * 1024) },
      status: 413,
      code: "payload_too_large",
      message: /larger than 256 KB/,
    },
    {
      name: "malformed JSON",
      body: '{"text": ',
      status: 400,
      code: "invalid_json",
      message: /^The request body is not valid JSON: it ends too soon/,
    },
    {
      name: "text of the wrong type",
      body: { text: 42 },
      status: 400,
      code: "bad_request",
      message: "text: text must be text",
    },
    {
      name: "an unknown key",
      body: { text: "hi", temperature: 2 },
      status: 400,
      code: "bad_request",
      message: /temperature/,
    },
    {
      name: "a setting out of range",
      body: { text: "hi", settings: { media: { window: 5_000 } } },
      status: 400,
      code: "bad_request",
      message: /media\.window must be a whole number from 0 to 1000/,
    },
  ];

  test.each(cases)("$name → $status $code", async ({ body, status, code, message }) => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    const text = await expectError(await postPreview(ada, conversationId, body), status, code);
    if (typeof message === "string") expect(text).toBe(message);
    else expect(text).toMatch(message);
    await expectNothingStored(conversationId);
    expect(env.providers.requests).toEqual([]);
  });

  test("a model whose provider is not configured → 422 model_unavailable", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    const response = await withoutVariable("GOOGLE_GENERATIVE_AI_API_KEY", () =>
      postPreview(ada, conversationId, { text: "hi", modelId: "google:gemini-2.5-flash" }),
    );
    expect(await expectError(response, 422, "model_unavailable")).toContain("google:gemini-2.5-flash");
  });

  test("someone else's conversation → 404", async () => {
    const conversationId = await createConversation(ada);
    await expectError(await postPreview(bob, conversationId, { text: "peek" }), 404, "not_found");
  });
});

describe("GET /api/attempts/:id", () => {
  test("the owner reads an attempt; anyone else, an unknown id or a malformed id gets a 404", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    await runTurn(ada, conversationId, "Make an attempt");
    const { turns: turnViews } = await fetchTurns(ada, conversationId);
    const attemptId = turnViews[0].attempts[0].id;
    const get = (user: TestUser, id: string) =>
      call(attemptRoute.GET, `/api/attempts/${id}`, { user, params: { id } });

    const own = await get(ada, attemptId);
    expect(own.status).toBe(200);
    const { attempt } = (await own.json()) as { attempt: { id: string; request: { body: string } } };
    expect(attempt.id).toBe(attemptId);
    expect(attempt.request.body).toBe(env.providers.requests[0].body);

    expect(await expectError(await get(bob, attemptId), 404, "not_found")).toBe("Attempt not found");
    await expectError(await get(ada, "0190aaaa-0000-7000-8000-000000000000"), 404, "not_found");
    await expectError(await get(ada, "not-an-id"), 404, "not_found");
    await expectError(
      await call(attemptRoute.GET, `/api/attempts/${attemptId}`, { params: { id: attemptId } }),
      401,
      "unauthorized",
    );
  });
});
