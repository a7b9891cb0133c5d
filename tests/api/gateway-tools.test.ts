// Client tools through POST /v1/chat/completions with the official `openai` client against the fake OpenAI server:
// the client's function tools reach the provider, the model's call comes back as `tool_calls` (whole, or as
// `delta.tool_calls` chunks), the client's result in the next call is stored with the call and the model answers
// it; the provider receives the call and its result in the wire format; each attempt records the very bytes the
// provider received; the round trip is one conversation with each message stored once; bad tool input is a 400
// naming the field.
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import { getDb } from "@/db/client";
import { listArtifactsForMessages, listMessages } from "@/db/message-queries";
import { listPersonasWithSlugs } from "@/db/persona-queries";
import type { Persona } from "@/db/schema";
import { defaultReplyText } from "@/e2e/fake-providers/reply-plan";
import { call } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { insertPersona } from "../fixtures/personas";
import { signedUpForFile } from "../fixtures/users";
import { createKey, gatewayClient, refusedAsBadRequest } from "./gateway-fixtures";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

const MODEL = "openai:gpt-4.1-mini";
const SYSTEM_PROMPT = "You are a terse test persona.";

const WEATHER_PARAMETERS = {
  type: "object",
  properties: { city: { type: "string", description: "The city" } },
  required: ["city"],
  additionalProperties: false,
};
const WEATHER_TOOL: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "The weather in a city now.",
    parameters: WEATHER_PARAMETERS,
  },
};
const QUESTION = "What is the weather in Paris?";
const ARGUMENTS = '{"city":"Paris"}';
const RESULT = "18 degrees and sunny";

async function persona(toolNames: string[] = []): Promise<Persona> {
  const row = await insertPersona({
    toolNames,
    modelId: MODEL,
    name: `Tools ${crypto.randomUUID()}`,
    systemPrompt: SYSTEM_PROMPT,
  });
  const withSlugs = await listPersonasWithSlugs({ db: await getDb() });
  return withSlugs.find((candidate) => candidate.id === row.id) as Persona;
}

async function client(): Promise<OpenAI> {
  const { secret } = await createKey(ada, { name: "tools" });
  return gatewayClient(secret);
}

interface RecordedAttempt {
  request: { body: string } | null;
  items: { role: string; tag: string; wirePaths?: string[] }[];
  unclaimed: unknown[];
}

async function recordedAttempt(attemptId: string): Promise<RecordedAttempt> {
  const response = await call(attemptRoute.GET, `/api/attempts/${attemptId}`, {
    user: ada,
    params: { id: attemptId },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { attempt: RecordedAttempt }).attempt;
}

/** The attempt of `response` recorded the very bytes the provider received in its `index`th request. */
async function expectRecordedAsSent(response: Response, index: number) {
  const attempt = await recordedAttempt(response.headers.get("x-glassbox-attempt-id") as string);
  expect(attempt.request?.body).toBe(env.providers.requests[index]?.body);
}

/** A persona and a client, with the model's next reply a call of get_weather for Paris as `callId`. */
async function weatherCallScripted(callId: string) {
  env.providers.script({ kind: "tool-call", toolName: "get_weather", input: { city: "Paris" }, id: callId });
  return { tutor: await persona(), openai: await client() };
}

/** The model's message calling get_weather for Paris, as the client sends it back (and the provider gets it). */
function weatherCallMessage(callId: string): OpenAI.Chat.Completions.ChatCompletionAssistantMessageParam {
  return {
    role: "assistant",
    content: null,
    tool_calls: [{ id: callId, type: "function", function: { name: "get_weather", arguments: ARGUMENTS } }],
  };
}

const providerBody = (index: number) => JSON.parse(env.providers.requests[index]?.body ?? "null");

/** The tools as the provider must receive them: OpenAI's own shape, as the client sent them. */
const WIRE_TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "The weather in a city now.",
      parameters: WEATHER_PARAMETERS,
    },
  },
];

/** The second call's messages as the provider must receive them: the call and its result after the question. */
function wireMessagesAfterResult(callId: string) {
  return [
    { role: "system", content: expect.stringContaining(SYSTEM_PROMPT) },
    { role: "user", content: QUESTION },
    weatherCallMessage(callId),
    { role: "tool", tool_call_id: callId, content: RESULT },
  ];
}

/** The conversation as stored: the question, the reply with the call and its result, the answer. Each once. */
async function expectStoredRoundTrip(conversationId: string, callId: string, answer: string) {
  const db = await getDb();
  const stored = await listMessages({ db, conversationId });
  expect(stored.map((message) => message.authorType)).toEqual(["user", "persona", "persona"]);
  expect(stored[0]?.parts).toEqual([{ type: "text", text: QUESTION }]);
  expect(stored[2]?.parts).toEqual([{ type: "text", text: answer }]);
  const artifacts = await listArtifactsForMessages({ db, messageIds: [stored[1]?.id as string] });
  expect(stored[1]?.parts).toEqual(
    artifacts.map((artifact) => ({ type: "artifact", artifactId: artifact.id })),
  );
  expect(artifacts.map((artifact) => [artifact.type, artifact.payload])).toEqual([
    ["function_call", { callId, name: "get_weather", arguments: ARGUMENTS, step: 0 }],
    ["function_call_output", { callId, name: "get_weather", output: RESULT, step: 0 }],
  ]);
}

describe("client tools through chat completions", () => {
  test("non-streaming round trip: tools reach the model, tool_calls come back, the result is answered", async () => {
    const { tutor, openai } = await weatherCallScripted("call_w1");
    const question = { role: "user" as const, content: QUESTION };
    const first = await openai.chat.completions
      .create({
        model: tutor.slug as string,
        messages: [question],
        tools: [WEATHER_TOOL],
        tool_choice: "auto",
      })
      .withResponse();
    const message = first.data.choices[0]?.message;
    expect(first.data.choices[0]?.finish_reason).toBe("tool_calls");
    expect(message?.content).toBeNull();
    expect(message?.tool_calls).toEqual([
      { id: "call_w1", type: "function", function: { name: "get_weather", arguments: ARGUMENTS } },
    ]);
    const firstBody = providerBody(0);
    expect(firstBody.tools).toEqual(WIRE_TOOLS);
    expect(firstBody.tool_choice).toBe("auto");
    expect(firstBody.messages).toEqual([
      { role: "system", content: expect.stringContaining(SYSTEM_PROMPT) },
      { role: "user", content: QUESTION },
    ]);
    await expectRecordedAsSent(first.response, 0);

    // The client runs the tool and sends its result back after the model's message, with no new user message.
    const called = [question, message as OpenAI.Chat.Completions.ChatCompletionMessageParam];
    const second = await openai.chat.completions
      .create({
        model: tutor.slug as string,
        messages: [...called, { role: "tool", tool_call_id: "call_w1", content: RESULT }],
        tools: [WEATHER_TOOL],
      })
      .withResponse();
    const answer = defaultReplyText("openai-chat", providerLastUserText());
    expect(second.data.choices[0]).toMatchObject({
      message: { role: "assistant", content: answer },
      finish_reason: "stop",
    });
    expect(second.data.choices[0]?.message.tool_calls).toBeUndefined();
    const secondBody = providerBody(1);
    expect(secondBody.tools).toEqual(WIRE_TOOLS);
    expect(secondBody.messages).toEqual(wireMessagesAfterResult("call_w1"));
    await expectRecordedAsSent(second.response, 1);
    const conversationId = first.response.headers.get("x-glassbox-conversation-id") as string;
    expect(second.response.headers.get("x-glassbox-conversation-id")).toBe(conversationId);
    await expectStoredRoundTrip(conversationId, "call_w1", answer);
    // The inspector's items: the call and its result, each pointing at its element of the body.
    const inspected = await recordedAttempt(second.response.headers.get("x-glassbox-attempt-id") as string);
    expect(inspected.items.slice(-2).map(({ role, tag, wirePaths }) => [role, tag, wirePaths])).toEqual([
      ["assistant", "TOOL_CALL", ["/messages/2/tool_calls/0"]],
      ["tool", "TOOL_RESULT", ["/messages/3"]],
    ]);
    expect(inspected.unclaimed).toEqual([]);

    // A third call goes on from the whole transcript, the tool exchange included: still one conversation.
    const third = await openai.chat.completions
      .create({
        model: tutor.slug as string,
        messages: [
          ...called,
          { role: "tool", tool_call_id: "call_w1", content: [{ type: "text", text: RESULT }] },
          { role: "assistant", content: answer },
          { role: "user", content: "Thanks" },
        ],
      })
      .withResponse();
    expect(third.response.headers.get("x-glassbox-conversation-id")).toBe(conversationId);
    expect(providerBody(2).messages.slice(1)).toEqual([
      ...wireMessagesAfterResult("call_w1").slice(1),
      { role: "assistant", content: answer },
      { role: "user", content: "Thanks" },
    ]);
    const stored = await listMessages({ db: await getDb(), conversationId });
    expect(stored.map((row) => row.authorType)).toEqual(["user", "persona", "persona", "user", "persona"]);
  });

  test("streaming round trip: delta.tool_calls chunks and finish_reason tool_calls, then the answer", async () => {
    const { tutor, openai } = await weatherCallScripted("call_s1");
    const question = { role: "user" as const, content: QUESTION };
    const first = await openai.chat.completions
      .create({ model: tutor.slug as string, messages: [question], tools: [WEATHER_TOOL], stream: true })
      .withResponse();
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of first.data) chunks.push(chunk);
    const calls = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(calls).toEqual([
      { index: 0, id: "call_s1", type: "function", function: { name: "get_weather", arguments: ARGUMENTS } },
    ]);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("tool_calls");
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe("");
    expect(providerBody(0).tools).toEqual(WIRE_TOOLS);
    await expectRecordedAsSent(first.response, 0);

    const assistant = weatherCallMessage("call_s1");
    const second = await openai.chat.completions
      .create({
        model: tutor.slug as string,
        messages: [question, assistant, { role: "tool", tool_call_id: "call_s1", content: RESULT }],
        tools: [WEATHER_TOOL],
        stream: true,
      })
      .withResponse();
    let text = "";
    let finish: string | null | undefined = null;
    for await (const chunk of second.data) {
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    const answer = defaultReplyText("openai-chat", providerLastUserText());
    expect(text).toBe(answer);
    expect(finish).toBe("stop");
    expect(providerBody(1).messages).toEqual(wireMessagesAfterResult("call_s1"));
    await expectRecordedAsSent(second.response, 1);
    const conversationId = first.response.headers.get("x-glassbox-conversation-id") as string;
    expect(second.response.headers.get("x-glassbox-conversation-id")).toBe(conversationId);
    await expectStoredRoundTrip(conversationId, "call_s1", answer);
  });

  test("bad tool input: OpenAI's 400 naming the field, and nothing reaches the provider", async () => {
    const tutor = await persona();
    const openai = await client();
    const model = tutor.slug as string;
    const question = { role: "user" as const, content: QUESTION };
    const assistant = weatherCallMessage("call_b1");
    const cases: { body: Record<string, unknown>; param: string }[] = [
      { body: { messages: [question], tools: [{ type: "web_search" }] }, param: "tools[0].type" },
      {
        body: { messages: [question], tools: [{ type: "function", function: { name: "no spaces" } }] },
        param: "tools[0].function.name",
      },
      {
        body: { messages: [question], tools: [WEATHER_TOOL], tool_choice: "sometimes" },
        param: "tool_choice",
      },
      {
        body: {
          messages: [question],
          tools: [WEATHER_TOOL],
          tool_choice: { type: "function", function: { name: "get_time" } },
        },
        param: "tool_choice.function.name",
      },
      { body: { messages: [question], tool_choice: "required" }, param: "tool_choice" },
      {
        body: {
          messages: [question, assistant, { role: "tool", tool_call_id: "call_other", content: RESULT }],
        },
        param: "messages[2].tool_call_id",
      },
      {
        body: {
          messages: [
            question,
            {
              ...assistant,
              tool_calls: [...(assistant.tool_calls ?? []), { ...assistant.tool_calls?.[0], id: "call_b2" }],
            },
            { role: "tool", tool_call_id: "call_b1", content: RESULT },
          ],
        },
        param: "messages",
      },
      {
        body: { messages: [question, assistant, { role: "tool", content: RESULT }] },
        param: "messages[2].tool_call_id",
      },
    ];
    for (const { body, param } of cases) {
      const error = await openai.chat.completions
        .create({
          model,
          ...body,
        } as unknown as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming)
        .then(
          () => null,
          (caught: unknown) => caught,
        );
      expect(error, param).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
        type: "invalid_request_error",
        param,
        message: expect.stringContaining(param),
      });
    }
    expect(env.providers.requests).toHaveLength(0);
  });

  test("a history with a tool exchange and a new question starts a conversation holding the exchange", async () => {
    const tutor = await persona();
    const openai = await client();
    const assistant = weatherCallMessage("call_n1");
    const { response } = await openai.chat.completions
      .create({
        model: tutor.slug as string,
        messages: [
          { role: "user", content: QUESTION },
          assistant,
          { role: "tool", tool_call_id: "call_n1", content: RESULT },
          { role: "user", content: "And tomorrow?" },
        ],
        tools: [WEATHER_TOOL],
      })
      .withResponse();
    expect(providerBody(0).messages).toEqual([
      ...wireMessagesAfterResult("call_n1"),
      { role: "user", content: "And tomorrow?" },
    ]);
    const conversationId = response.headers.get("x-glassbox-conversation-id") as string;
    const stored = await listMessages({ db: await getDb(), conversationId });
    expect(stored.map((row) => row.authorType)).toEqual(["user", "persona", "user", "persona"]);
  });

  test("a client tool named like one of the persona's own tools is refused", async () => {
    const tutor = await persona(["current_time"]);
    const openai = await client();
    const error = await refusedAsBadRequest(
      openai.chat.completions.create({
        model: tutor.slug as string,
        messages: [{ role: "user", content: "Time?" }],
        tools: [WEATHER_TOOL, { type: "function", function: { name: "current_time" } }],
      }),
      {},
    );
    expect(error.error).toMatchObject({
      param: "tools[1].function.name",
    });
    expect(env.providers.requests).toHaveLength(0);
  });

  test("a result for a call the stored reply did not make is a 400 naming the tool message", async () => {
    const { tutor, openai } = await weatherCallScripted("call_h1");
    const first = await openai.chat.completions
      .create({
        model: tutor.slug as string,
        messages: [{ role: "user", content: QUESTION }],
        tools: [WEATHER_TOOL],
      })
      .withResponse();
    const conversationId = first.response.headers.get("x-glassbox-conversation-id") as string;
    const named = await createKey(ada, { name: "named" });
    const inConversation = gatewayClient(named.secret, {
      headers: { "x-glassbox-conversation-id": conversationId },
    });
    const error = await refusedAsBadRequest(
      inConversation.chat.completions.create({
        model: tutor.slug as string,
        messages: [{ role: "tool", tool_call_id: "call_unknown", content: RESULT }],
      }),
      {},
    );
    expect(error.error).toMatchObject({
      param: "messages[0].tool_call_id",
    });
    expect(env.providers.requests).toHaveLength(1);
    const stored = await listMessages({ db: await getDb(), conversationId });
    expect(stored).toHaveLength(2);
  });
});

describe("client tools through responses", () => {
  const RESPONSES_TOOL: OpenAI.Responses.FunctionTool = {
    type: "function",
    name: "get_weather",
    description: "The weather in a city now.",
    parameters: WEATHER_PARAMETERS,
    strict: false,
  };

  test("non-streaming: a function_call output item, then previous_response_id with its output is answered", async () => {
    const { tutor, openai } = await weatherCallScripted("call_r1");
    const first = await openai.responses.create({
      model: tutor.slug as string,
      input: QUESTION,
      tools: [RESPONSES_TOOL],
      tool_choice: "required",
    });
    expect(first.output).toEqual([
      {
        type: "function_call",
        id: "fc_call_r1",
        call_id: "call_r1",
        name: "get_weather",
        arguments: ARGUMENTS,
        status: "completed",
      },
    ]);
    expect(providerBody(0).tools).toEqual([
      { ...WIRE_TOOLS[0], function: { ...WIRE_TOOLS[0]?.function, strict: false } },
    ]);
    expect(providerBody(0).tool_choice).toBe("required");
    expect(first.tool_choice).toBe("required");
    expect(first.tools).toEqual([RESPONSES_TOOL]);

    const { data: second, response } = await openai.responses
      .create({
        model: tutor.slug as string,
        previous_response_id: first.id,
        input: [{ type: "function_call_output", call_id: "call_r1", output: RESULT }],
        tools: [RESPONSES_TOOL],
      })
      .withResponse();
    const answer = defaultReplyText("openai-chat", providerLastUserText());
    expect(second.output_text).toBe(answer);
    expect(providerBody(1).messages).toEqual(wireMessagesAfterResult("call_r1"));
    await expectRecordedAsSent(response, 1);
    await expectStoredRoundTrip(
      response.headers.get("x-glassbox-conversation-id") as string,
      "call_r1",
      answer,
    );
  });

  test("streaming: the call as function_call item events; the whole history sent back continues it", async () => {
    const { tutor, openai } = await weatherCallScripted("call_r2");
    const { data: stream, response } = await openai.responses
      .create({ model: tutor.slug as string, input: QUESTION, tools: [RESPONSES_TOOL], stream: true })
      .withResponse();
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const argumentsDone = events.find((event) => event.type === "response.function_call_arguments.done");
    expect(argumentsDone).toMatchObject({ item_id: "fc_call_r2", output_index: 1, arguments: ARGUMENTS });
    const done = events.at(-1);
    expect(done?.type).toBe("response.completed");
    const output = done?.type === "response.completed" ? done.response.output : [];
    expect(output.map((item) => item.type)).toEqual(["message", "function_call"]);

    const second = await openai.responses
      .create({
        model: tutor.slug as string,
        input: [
          { role: "user", content: QUESTION },
          { type: "function_call", call_id: "call_r2", name: "get_weather", arguments: ARGUMENTS },
          { type: "function_call_output", call_id: "call_r2", output: RESULT },
        ],
        tools: [RESPONSES_TOOL],
      })
      .withResponse();
    const conversationId = response.headers.get("x-glassbox-conversation-id") as string;
    expect(second.response.headers.get("x-glassbox-conversation-id")).toBe(conversationId);
    expect(providerBody(1).messages).toEqual(wireMessagesAfterResult("call_r2"));
    await expectStoredRoundTrip(conversationId, "call_r2", second.data.output_text);
  });
});

/** What the fake quotes when the request's last message is not the user's: the text it found. */
function providerLastUserText(): string {
  const body = JSON.parse(env.providers.requests.at(-1)?.body ?? "null") as {
    messages: { role: string; content: unknown }[];
  };
  const user = body.messages.filter((message) => message.role === "user").at(-1);
  return typeof user?.content === "string" ? user.content : "";
}
