// Model choice: the owner picks the conversation's model (PATCH) or one reply's (regenerate-with); that model
// answers first and the persona's fallbacks follow. Each reply names the model that answered it, in the stream and
// in the transcript, and the stream says what a reply waits for while it retries or falls back.
import { describe, expect, test } from "vitest";
import * as chatRoute from "@/app/api/chat/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import { call, expectError, readUIStream, type TestUser } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { GEMINI_MODEL_ID as GEMINI, insertModel, OPENAI_MODEL_ID as OPENAI } from "../fixtures/models";
import { conversationWithPersona, createConversation, insertPersona } from "../fixtures/personas";
import { runTurn, storedMessages } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";
import { transcript } from "./reply-helpers";
import { join } from "./room-helpers";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");
const bob = signedUpForFile("Bob");

function patchModel(user: TestUser, conversationId: string, modelId: unknown) {
  return call(conversationRoute.PATCH, `/api/conversations/${conversationId}`, {
    user,
    method: "PATCH",
    params: { id: conversationId },
    body: { modelId },
  });
}

function postRegenerateWith(user: TestUser, conversationId: string, messageId: string, modelId: string) {
  return call(chatRoute.POST, "/api/chat", {
    user,
    body: { id: conversationId, trigger: "regenerate-message", messageId, modelId },
  });
}

/** The message metadata the stream carried, merged in order as the client merges it. */
function streamedMetadata(chunks: Array<Record<string, unknown>>) {
  return chunks
    .filter((chunk) => chunk.type === "message-metadata")
    .map((chunk) => chunk.messageMetadata as Record<string, unknown>);
}

/** The metadata chunks that report retry progress, in order. */
function retryProgress(chunks: Array<Record<string, unknown>>) {
  return streamedMetadata(chunks).filter((metadata) => "retryProgress" in metadata);
}

/**
 * The model on `protocol` is rate-limited (retry after `retryAfterSeconds`), then fails twice more, so the
 * fallback model on `fallbackProtocol` answers `text`.
 */
function scriptFailuresThenFallback(
  protocol: "openai-chat" | "gemini",
  retryAfterSeconds: number,
  fallbackProtocol: "openai-chat" | "gemini",
  text: string,
) {
  env.providers.script(
    { kind: "error", status: 429, retryAfterSeconds, message: "Slow down", protocol },
    { kind: "error", status: 500, message: "Broken", protocol, times: 2 },
    { kind: "text", text, protocol: fallbackProtocol },
  );
}

/** The progress the stream reports for scriptFailuresThenFallback: each wait, then the switch of models. */
function fallbackProgress(retryAfterSeconds: number, modelId: string, fallbackModelId: string) {
  const name = (id: string) => id.slice(id.indexOf(":") + 1);
  return [
    { retryProgress: `429 — retrying in ${retryAfterSeconds} s` },
    { retryProgress: "500 — retrying in 40 ms" },
    { retryProgress: `${name(modelId)} failed — trying ${name(fallbackModelId)}` },
    { modelId: fallbackModelId, fallbackFromModelId: modelId, retryProgress: null },
  ];
}

async function openAiPersonaConversation() {
  const persona = await insertPersona({ modelId: OPENAI, fallbackModelIds: [GEMINI] });
  return createConversation(ada, persona);
}

describe("the conversation's model", () => {
  test("the owner's choice answers first; null goes back to the persona's", async () => {
    const conversationId = await openAiPersonaConversation();
    const patched = await patchModel(ada, conversationId, GEMINI);
    expect(patched.status).toBe(200);
    expect((await patched.json()).conversation.modelId).toBe(GEMINI);

    const read = await call(conversationRoute.GET, `/api/conversations/${conversationId}`, {
      user: ada,
      params: { id: conversationId },
    });
    const detail = await read.json();
    expect(detail.conversation.modelId).toBe(GEMINI);
    expect(detail.models).toContainEqual({ id: GEMINI, label: expect.any(String) });

    env.providers.script({ kind: "text", text: "Gemini speaks.", protocol: "gemini" });
    const { chunks, text } = await runTurn(ada, conversationId, "Who answers?");
    expect(text).toBe("Gemini speaks.");
    expect(env.providers.requests.map((request) => request.model)).toEqual(["gemini-2.5-flash"]);
    expect(streamedMetadata(chunks)).toContainEqual({
      modelId: GEMINI,
      fallbackFromModelId: null,
      retryProgress: null,
    });

    expect((await patchModel(ada, conversationId, null)).status).toBe(200);
    env.providers.script({ kind: "text", text: "OpenAI again.", protocol: "openai-chat" });
    expect((await runTurn(ada, conversationId, "And now?")).text).toBe("OpenAI again.");
    expect(env.providers.requests.map((request) => request.model)).toEqual([
      "gemini-2.5-flash",
      "gpt-4.1-mini",
    ]);

    const view = await transcript(ada, conversationId);
    const replies = view.messages.filter((message) => message.authorType === "persona");
    expect(replies.map((reply) => view.replyModels[reply.id])).toEqual([
      { modelId: GEMINI, fallbackFromModelId: null },
      { modelId: OPENAI, fallbackFromModelId: null },
    ]);
  });

  test("an unknown, disabled or malformed model is refused, naming it; nobody else may choose", async () => {
    const conversationId = await openAiPersonaConversation();
    const unknown = await expectError(
      await patchModel(ada, conversationId, "openai:no-such-model"),
      422,
      "model_unavailable",
    );
    expect(unknown).toBe(
      "Model openai:no-such-model is unknown, disabled or its provider is not configured.",
    );
    const disabled = await insertModel({ enabled: false });
    const refused = await expectError(
      await patchModel(ada, conversationId, disabled.id),
      422,
      "model_unavailable",
    );
    expect(refused).toContain(disabled.id);
    expect(await expectError(await patchModel(ada, conversationId, 42), 400, "bad_request")).toContain(
      "modelId must be a model id or null",
    );
    await expectError(await patchModel(bob, conversationId, GEMINI), 404, "not_found");

    const read = await call(conversationRoute.GET, `/api/conversations/${conversationId}`, {
      user: ada,
      params: { id: conversationId },
    });
    expect((await read.json()).conversation.modelId).toBeNull();
  });
});

describe("in a room", () => {
  test("a member sees the conversation's model but may not choose it, nor a reply's", async () => {
    const conversationId = await openAiPersonaConversation();
    await join(ada, bob, conversationId);
    expect((await patchModel(ada, conversationId, GEMINI)).status).toBe(200);

    const read = await call(conversationRoute.GET, `/api/conversations/${conversationId}`, {
      user: bob,
      params: { id: conversationId },
    });
    expect((await read.json()).conversation.modelId).toBe(GEMINI);
    const patched = await patchModel(bob, conversationId, OPENAI);
    expect(patched.status).toBe(403);

    env.providers.script({ kind: "text", text: "Gemini for the room.", protocol: "gemini" });
    await runTurn(bob, conversationId, "Hello room.");
    const [, reply] = await storedMessages(conversationId);
    expect(
      await expectError(await postRegenerateWith(bob, conversationId, reply.id, OPENAI), 403, "forbidden"),
    ).toBe("modelId: only the conversation's owner chooses the model of a reply.");
    expect(await storedMessages(conversationId)).toHaveLength(2);
  });
});

describe("regenerate with another model", () => {
  test("the new variant is answered by the chosen model and says so", async () => {
    const conversationId = await openAiPersonaConversation();
    env.providers.script({ kind: "text", text: "First from OpenAI.", protocol: "openai-chat" });
    await runTurn(ada, conversationId, "Say something.");
    const [, firstReply] = await storedMessages(conversationId);

    env.providers.script({ kind: "text", text: "Now from Gemini.", protocol: "gemini" });
    const response = await postRegenerateWith(ada, conversationId, firstReply.id, GEMINI);
    expect(response.status).toBe(200);
    const chunks = await readUIStream(response);
    expect(streamedMetadata(chunks)).toContainEqual({
      modelId: GEMINI,
      fallbackFromModelId: null,
      retryProgress: null,
    });
    expect(env.providers.requests.map((request) => request.model)).toEqual([
      "gpt-4.1-mini",
      "gemini-2.5-flash",
    ]);

    const view = await transcript(ada, conversationId);
    const chosen = view.messages.find((message) => message.authorType === "persona");
    expect(chosen?.id).not.toBe(firstReply.id);
    expect(view.replyModels[chosen?.id ?? ""]).toEqual({ modelId: GEMINI, fallbackFromModelId: null });
    expect(view.replyModels[firstReply.id]).toEqual({ modelId: OPENAI, fallbackFromModelId: null });
  });

  test("an unusable model is refused before anything is stored; a model on a new message is a 400", async () => {
    const conversationId = await openAiPersonaConversation();
    env.providers.script({ kind: "text", text: "Only reply.", protocol: "openai-chat" });
    await runTurn(ada, conversationId, "Hello.");
    const [, reply] = await storedMessages(conversationId);

    const message = await expectError(
      await postRegenerateWith(ada, conversationId, reply.id, "google:retired"),
      422,
      "model_unavailable",
    );
    expect(message).toBe("Model google:retired is unknown, disabled or its provider is not configured.");
    expect(await storedMessages(conversationId)).toHaveLength(2);
    await expectError(await postRegenerateWith(bob, conversationId, reply.id, GEMINI), 404, "not_found");

    const submitted = await call(chatRoute.POST, "/api/chat", {
      user: ada,
      body: {
        id: conversationId,
        message: { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text: "Hi" }] },
        modelId: GEMINI,
      },
    });
    expect(await expectError(submitted, 400, "bad_request")).toBe(
      "modelId: only regenerate-message chooses a model for one reply.",
    );
    expect(env.providers.requests).toHaveLength(1);
  });
});

describe("retries and fallbacks, as the reply shows them", () => {
  test("retry progress streams while it waits; the fallback's reply names both models", async () => {
    const conversationId = await openAiPersonaConversation();
    scriptFailuresThenFallback("openai-chat", 1, "gemini", "Gemini steps in.");
    const { chunks, text } = await runTurn(ada, conversationId, "Anyone?");
    expect(text).toBe("Gemini steps in.");
    expect(retryProgress(chunks)).toEqual(fallbackProgress(1, OPENAI, GEMINI));

    const view = await transcript(ada, conversationId);
    const reply = view.messages.find((message) => message.authorType === "persona");
    expect(view.replyModels[reply?.id ?? ""]).toEqual({ modelId: GEMINI, fallbackFromModelId: OPENAI });
  });

  test("the conversation's model falls back to the persona's own", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: OPENAI });
    expect((await patchModel(ada, conversationId, GEMINI)).status).toBe(200);
    scriptFailuresThenFallback("gemini", 2, "openai-chat", "OpenAI steps in.");
    const { chunks, text } = await runTurn(ada, conversationId, "Anyone?");
    expect(env.providers.requests.map((request) => [request.model, request.protocol])).toEqual([
      ["gemini-2.5-flash", "gemini"],
      ["gemini-2.5-flash", "gemini"],
      ["gemini-2.5-flash", "gemini"],
      ["gpt-4.1-mini", "openai-chat"],
    ]);
    expect(text).toBe("OpenAI steps in.");
    expect(retryProgress(chunks)).toEqual(fallbackProgress(2, GEMINI, OPENAI));
  });
});
