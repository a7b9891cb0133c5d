// POST /v1/chat/completions with the official `openai` client against the fake providers: each call is a turn of a
// Glassbox conversation, its attempt recorded with the very bytes the provider received; streaming ends with
// [DONE] (and a usage chunk when asked); refusals are OpenAI's error classes; a growing history is one
// conversation with each message stored once.
import { eq } from "drizzle-orm";
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import { getDb } from "@/db/client";
import { getReadableConversation } from "@/db/conversation-queries";
import { listMessages } from "@/db/message-queries";
import { type Persona, personas } from "@/db/schema";
import { defaultReplyText } from "@/e2e/fake-providers/reply-plan";
import { call } from "../api-client";
import { withEnv } from "../fixtures/env";
import { fakeProvidersAndUsersForFile } from "../fixtures/file-setup";
import { createKey, gatewayClient, gatewayPersona, refusedAsBadRequest } from "./gateway-fixtures";

const { env, ada, bob } = fakeProvidersAndUsersForFile("Ada", "Bob");

const MODEL = "openai:gpt-4.1-mini";

/** A new persona on the fake OpenAI model, with its slug. */
const persona = (systemPrompt = "You are a terse test persona.") =>
  gatewayPersona("Gateway", { modelId: MODEL, systemPrompt });

async function clientFor(scope?: Persona[]) {
  const { secret } = await createKey(ada, { name: "test", personaIds: scope?.map((row) => row.id) });
  return gatewayClient(secret);
}

async function recordedAttempt(attemptId: string) {
  const response = await call(attemptRoute.GET, `/api/attempts/${attemptId}`, {
    user: ada,
    params: { id: attemptId },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { attempt: { status: string; request: { body: string } | null } })
    .attempt;
}

/** A chat completion of `messages` to `to`; its response and the conversation it went to. */
async function send(
  client: OpenAI,
  to: Persona,
  messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[],
) {
  const { response } = await client.chat.completions
    .create({ model: to.slug as string, messages })
    .withResponse();
  return { response, conversationId: response.headers.get("x-glassbox-conversation-id") as string };
}

/** A conversation `client` starts with `to` by saying hello, and the history that continues it: hello, its reply, again. */
async function helloThenAgain(client: OpenAI, to: Persona) {
  const history: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: "user", content: "hello" }];
  const started = await send(client, to, history);
  history.push({ role: "assistant", content: defaultReplyText("openai-chat", "hello") });
  history.push({ role: "user", content: "again" });
  return { started, history };
}

function lastRequestBody(): { messages: { role: string; content: unknown }[] } {
  return JSON.parse(env.providers.requests.at(-1)?.body ?? "null");
}

describe("chat completions", () => {
  test("non-streaming: the reply, the headers, and the recorded body is the one the provider received", async () => {
    const tutor = await persona();
    const client = await clientFor();
    const { data, response } = await client.chat.completions
      .create({ model: tutor.slug as string, messages: [{ role: "user", content: "Hello gateway" }] })
      .withResponse();
    const reply = defaultReplyText("openai-chat", "Hello gateway");
    expect(data).toMatchObject({
      object: "chat.completion",
      model: tutor.slug,
      choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }],
    });
    expect(data.usage?.total_tokens).toBe(
      (data.usage?.prompt_tokens ?? 0) + (data.usage?.completion_tokens ?? 0),
    );
    const conversationId = response.headers.get("x-glassbox-conversation-id") as string;
    const attemptId = response.headers.get("x-glassbox-attempt-id") as string;
    expect(conversationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(attemptId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(response.headers.get("x-glassbox-overhead-ms"))).toBeGreaterThanOrEqual(0);

    // Byte truth: what the attempt recorded is what the fake provider received.
    expect(env.providers.requests).toHaveLength(1);
    const attempt = await recordedAttempt(attemptId);
    expect(attempt.status).toBe("ok");
    expect(attempt.request?.body).toBe(env.providers.requests[0].body);

    // A conversation of Ada's with the persona, the message and the reply stored as a chat turn's.
    const db = await getDb();
    const conversation = await getReadableConversation({ db, conversationId, userId: ada.id });
    expect(conversation.personaId).toBe(tutor.id);
    const stored = await listMessages({ db, conversationId });
    expect(stored.map((message) => [message.authorType, message.parts])).toEqual([
      ["user", [{ type: "text", text: "Hello gateway" }]],
      ["persona", [{ type: "text", text: reply }]],
    ]);
  });

  test("streaming: chat.completion.chunk pieces, a finish chunk, a usage chunk with no choices, [DONE]", async () => {
    const tutor = await persona();
    const client = await clientFor();
    const { data: stream, response } = await client.chat.completions
      .create({
        model: tutor.slug as string,
        messages: [{ role: "user", content: "Stream to me" }],
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse();
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe(defaultReplyText("openai-chat", "Stream to me"));
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk")).toBe(true);
    expect(chunks[0].choices[0].delta.role).toBe("assistant");
    expect(chunks.at(-2)?.choices[0].finish_reason).toBe("stop");
    const usage = chunks.at(-1);
    expect(usage?.choices).toEqual([]);
    expect(usage?.usage?.total_tokens).toBeGreaterThan(0);
    const attempt = await recordedAttempt(response.headers.get("x-glassbox-attempt-id") as string);
    expect(attempt.request?.body).toBe(env.providers.requests[0].body);
  });

  test("streaming without include_usage has no usage chunk; the raw stream ends with data: [DONE]", async () => {
    const tutor = await persona();
    const client = await clientFor();
    const response = await client.chat.completions
      .create({ model: tutor.slug as string, messages: [{ role: "user", content: "raw" }], stream: true })
      .asResponse();
    const events = (await response.text()).split("\n\n").filter(Boolean);
    expect(events.at(-1)).toBe("data: [DONE]");
    const parsed = events.slice(0, -1).map((event) => JSON.parse(event.slice("data: ".length)));
    expect(parsed.filter((chunk) => chunk.usage)).toEqual([]);
    expect(parsed.at(-1).choices[0].finish_reason).toBe("stop");
  });

  test("fields clients send and Glassbox does not use are accepted and ignored", async () => {
    const tutor = await persona();
    const client = await clientFor();
    const completion = await client.chat.completions.create({
      model: tutor.slug as string,
      messages: [
        { role: "user", content: [{ type: "text", text: "parts" }] },
        { role: "assistant", content: null, refusal: null },
        { role: "user", content: "again" },
      ],
      n: 1,
      user: "someone",
      metadata: { team: "x" },
      temperature: 0.2,
      max_tokens: 100,
      stream_options: null,
      response_format: { type: "text" },
    });
    expect(completion.choices[0].message.content).toBe(defaultReplyText("openai-chat", "again"));
  });

  test("the client's system message is its own item after the persona's prompt, kept by the conversation", async () => {
    const tutor = await persona("PERSONA PROMPT");
    const client = await clientFor();
    const { conversationId } = await send(client, tutor, [
      { role: "system", content: "CLIENT SYSTEM" },
      { role: "user", content: "hi" },
    ]);
    const system = JSON.stringify(lastRequestBody().messages.filter((message) => message.role === "system"));
    expect(system.indexOf("PERSONA PROMPT")).toBeGreaterThanOrEqual(0);
    expect(system.indexOf("CLIENT SYSTEM")).toBeGreaterThan(system.indexOf("PERSONA PROMPT"));
    const conversation = await getReadableConversation({ db: await getDb(), conversationId, userId: ada.id });
    expect(conversation.instructions).toBe("CLIENT SYSTEM");
  });
});

describe("continuity", () => {
  test("six calls each sending the growing history are one conversation, each message stored once", async () => {
    const tutor = await persona();
    const client = await clientFor();
    const history: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: "system", content: "Be brief." },
    ];
    const conversationIds = new Set<string>();
    for (let index = 1; index <= 6; index++) {
      history.push({ role: "user", content: `message ${index}` });
      // Odd calls are plain, even ones stream: both continue the same conversation.
      let text = "";
      let response: Response;
      if (index % 2 === 0) {
        const streamed = await client.chat.completions
          .create({ model: tutor.slug as string, messages: history, stream: true })
          .withResponse();
        for await (const chunk of streamed.data) text += chunk.choices[0]?.delta.content ?? "";
        response = streamed.response;
      } else {
        const plain = await client.chat.completions
          .create({ model: tutor.slug as string, messages: history })
          .withResponse();
        text = plain.data.choices[0].message.content ?? "";
        response = plain.response;
      }
      history.push({ role: "assistant", content: text });
      conversationIds.add(response.headers.get("x-glassbox-conversation-id") as string);
      // The provider receives the conversation as the pipeline built it: every message so far, once.
      const sent = lastRequestBody().messages.filter((message) => message.role !== "system");
      expect(sent).toHaveLength(2 * index - 1);
    }
    expect(conversationIds.size).toBe(1);
    const [conversationId] = conversationIds;
    const stored = await listMessages({ db: await getDb(), conversationId });
    expect(stored.map((message) => (message.parts[0] as { text: string }).text)).toEqual(
      history.slice(1).map((message) => message.content),
    );
  });

  test("a history that matches no conversation of the key starts one, storing the earlier messages", async () => {
    const tutor = await persona();
    const client = await clientFor();
    const { conversationId } = await send(client, tutor, [
      { role: "user", content: "earlier question" },
      { role: "assistant", content: "earlier answer" },
      { role: "user", content: "now" },
    ]);
    const stored = await listMessages({ db: await getDb(), conversationId });
    expect(
      stored.map((message) => [message.authorType, (message.parts[0] as { text: string }).text]),
    ).toEqual([
      ["user", "earlier question"],
      ["persona", "earlier answer"],
      ["user", "now"],
      ["persona", defaultReplyText("openai-chat", "now")],
    ]);
  });

  test("a conversation is continued only by the key whose calls left its transcript", async () => {
    const tutor = await persona();
    const first = await clientFor();
    const { started, history } = await helloThenAgain(first, tutor);
    // The same user's other key sends the same history: a conversation of its own.
    const other = await send(await clientFor(), tutor, history);
    expect(other.conversationId).not.toBe(started.conversationId);
    expect((await send(first, tutor, history)).conversationId).toBe(started.conversationId);
  });

  test("a model id that now names another persona continues that persona's conversation", async () => {
    // The transcript is looked up under the persona id the model id last named here, while the persona is read;
    // when the persona read is another, the lookup is made again under its id (lib/gateway/chat-completions.ts).
    const retiring = await persona();
    const successor = await persona();
    const client = await clientFor();
    const { started, history } = await helloThenAgain(client, successor);
    // This process now knows the retiring persona's model id.
    await send(client, retiring, [{ role: "user", content: "hi" }]);
    const db = await getDb();
    const modelId = retiring.slug as string;
    await db
      .update(personas)
      .set({ slug: `${modelId}-retired` })
      .where(eq(personas.id, retiring.id));
    await db.update(personas).set({ slug: modelId }).where(eq(personas.id, successor.id));

    const continued = await send(client, { ...successor, slug: modelId }, history);
    expect(continued.conversationId).toBe(started.conversationId);
    const stored = await listMessages({ db, conversationId: started.conversationId });
    expect(stored.map((message) => (message.parts[0] as { text: string }).text)).toEqual([
      "hello",
      defaultReplyText("openai-chat", "hello"),
      "again",
      defaultReplyText("openai-chat", "again"),
    ]);
  });

  test("x-glassbox-conversation-id continues that conversation; someone else's is not found", async () => {
    const tutor = await persona();
    const client = await clientFor();
    const { conversationId } = await send(client, tutor, [{ role: "user", content: "first" }]);
    const { response: second } = await client.chat.completions
      .create(
        { model: tutor.slug as string, messages: [{ role: "user", content: "second" }] },
        { headers: { "x-glassbox-conversation-id": conversationId } },
      )
      .withResponse();
    expect(second.headers.get("x-glassbox-conversation-id")).toBe(conversationId);
    expect(await listMessages({ db: await getDb(), conversationId })).toHaveLength(4);

    const { secret } = await createKey(bob, { name: "bob" });
    const error = await gatewayClient(secret)
      .chat.completions.create(
        { model: tutor.slug as string, messages: [{ role: "user", content: "let me in" }] },
        { headers: { "x-glassbox-conversation-id": conversationId } },
      )
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe("refusals in OpenAI's shape", () => {
  test("an unknown model, and a persona outside the key's scope: NotFoundError model_not_found", async () => {
    const inScope = await persona();
    const outside = await persona();
    const client = await clientFor([inScope]);
    for (const model of ["no-such-persona", outside.slug as string]) {
      const error = await client.chat.completions
        .create({ model, messages: [{ role: "user", content: "hi" }] })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect(error).toMatchObject({ status: 404, code: "model_not_found", param: "model" });
    }
    expect(env.providers.requests).toHaveLength(0);
  });

  test.each([
    [{ messages: [] }, "messages"],
    [{ messages: [{ role: "robot", content: "x" }] }, "messages[0].role"],
    [{ messages: [{ role: "user", content: "x" }], n: 2 }, "n"],
    [{ messages: [{ role: "assistant", content: "x" }] }, "messages"],
    [
      { messages: [{ role: "user", content: [{ type: "input_audio", input_audio: {} }] }] },
      "messages[0].content[0]",
    ],
    [
      { messages: [{ role: "user", content: "x" }], tools: [{ type: "custom", custom: { name: "f" } }] },
      "tools[0].type",
    ],
    [
      { messages: [{ role: "user", content: "x" }], response_format: { type: "json_object" } },
      "response_format.type",
    ],
    [{ messages: [{ role: "user", content: "x" }], stream: "yes" }, "stream"],
  ])("%j: BadRequestError naming %s", async (body, param) => {
    const tutor = await persona();
    const client = await clientFor();
    await refusedAsBadRequest(
      client.chat.completions.create({
        model: tutor.slug,
        ...body,
      } as unknown as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming),
      { param, type: "invalid_request_error" },
    );
    expect(env.providers.requests).toHaveLength(0);
  });

  test("over the key's rate limit: RateLimitError with retry-after", async () => {
    const tutor = await persona();
    const client = await clientFor();
    await withEnv({ GATEWAY_RATE_LIMIT_PER_MINUTE: "1" }, async () => {
      await client.chat.completions.create({
        model: tutor.slug as string,
        messages: [{ role: "user", content: "1" }],
      });
      const error = await client.chat.completions
        .create({ model: tutor.slug as string, messages: [{ role: "user", content: "2" }] })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      const headers = (error as InstanceType<typeof OpenAI.RateLimitError>).headers;
      expect(Number(headers?.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(env.providers.requests).toHaveLength(1);
    });
  });
});
