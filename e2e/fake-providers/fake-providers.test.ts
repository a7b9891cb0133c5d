// The fake provider servers, checked through the real AI SDK clients: if the SDK accepts our wire format,
// route handlers tested against these servers see what they would see from the real providers.
import {
  APICallError,
  generateText,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  streamText,
  tool,
} from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeIsoMedia, makePdf, makeWav } from "@/tests/fixtures/media";
import { fakeProviderClient } from "./client";
import { defaultReplyText } from "./reply-plan";
import type { ScriptedReply } from "./script-schema";
import { type FakeProviders, startFakeProviders } from "./server";
import { type CapturedAttempt, capturingFetch, fakeModel, MODEL_IDS, TEST_API_KEY } from "./test-models";
import { PROTOCOLS, type Protocol } from "./types";

let providers: FakeProviders;

beforeAll(async () => {
  providers = await startFakeProviders({ port: 0 });
});

afterAll(async () => {
  await providers.close();
});

beforeEach(() => {
  providers.reset();
});

const weatherTool = tool({
  description: "Current weather for a city",
  inputSchema: jsonSchema<{ city: string }>({
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  }),
});

/** A conversation with instructions, history and a tool round-trip, so the bodies are not trivial. */
const conversation: ModelMessage[] = [
  { role: "user", content: "What's the weather in Paris?" },
  {
    role: "assistant",
    content: [
      { type: "text", text: "Let me check." },
      { type: "tool-call", toolCallId: "call_earlier", toolName: "getWeather", input: { city: "Paris" } },
    ],
  },
  {
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId: "call_earlier",
        toolName: "getWeather",
        output: { type: "json", value: { celsius: 21 } },
      },
    ],
  },
  { role: "user", content: "Thanks! And tomorrow — «ünïcødé» 🌦️?" },
];

interface StreamOutcome {
  deltas: string[];
  /** `error` parts of the stream. */
  errors: unknown[];
  /** What iterating the stream threw, if it did (a cut connection does this). */
  thrown: unknown;
  firstDeltaMs: number | null;
}

/** Reads the full stream, noting text deltas, errors and when the first non-empty text arrived. */
async function drain(stream: AsyncIterable<{ type: string }>, startedAt: number): Promise<StreamOutcome> {
  const outcome: StreamOutcome = { deltas: [], errors: [], thrown: undefined, firstDeltaMs: null };
  try {
    for await (const part of stream) {
      if (
        part.type === "text-delta" &&
        "text" in part &&
        typeof part.text === "string" &&
        part.text.length > 0
      ) {
        outcome.firstDeltaMs ??= performance.now() - startedAt;
        outcome.deltas.push(part.text);
      }
      if (part.type === "error" && "error" in part) outcome.errors.push(part.error);
    }
  } catch (error) {
    outcome.thrown = error;
  }
  return outcome;
}

/** A scripted call of the weather tool for `city`; `extra` adds reasoning, a call id and the like. */
function weatherToolCall(city: string, extra: Partial<Extract<ScriptedReply, { kind: "tool-call" }>> = {}) {
  return { kind: "tool-call", toolName: "getWeather", input: { city }, ...extra } as const;
}

/** Streams `prompt` once, without retries, offering the weather tool. */
function streamWithWeatherTool(model: LanguageModel, prompt: string) {
  return streamText({ model, prompt, tools: { getWeather: weatherTool }, maxRetries: 0 });
}

/** Streams `prompt` once, without retries, to the end; notes what onError was called with besides the outcome. */
async function streamOnceNotingErrors(model: LanguageModel, prompt: string) {
  const onErrorCalls: unknown[] = [];
  const result = streamText({
    model,
    prompt,
    maxRetries: 0,
    onError: ({ error }) => {
      onErrorCalls.push(error);
    },
  });
  const outcome = await drain(result.fullStream, performance.now());
  return { result, outcome, onErrorCalls };
}

describe.each(PROTOCOLS)("%s through the real AI SDK client", (protocol: Protocol) => {
  let attempts: CapturedAttempt[];

  const model = () => {
    attempts = [];
    return fakeModel(protocol, providers.url, capturingFetch(attempts));
  };

  it("streams the default reply, quoting the last user text, in about five chunks", async () => {
    const result = streamText({ model: model(), prompt: "Hello fake world", maxRetries: 0 });
    const outcome = await drain(result.fullStream, performance.now());

    expect(outcome.errors).toEqual([]);
    expect(await result.text).toBe(defaultReplyText(protocol, "Hello fake world"));
    expect(outcome.deltas.length).toBeGreaterThanOrEqual(5);
    expect(await result.finishReason).toBe("stop");
    expect((await result.usage).inputTokens).toBeGreaterThan(0);
  });

  it("streams a scripted text with its usage, cached input tokens included", async () => {
    providers.script({
      kind: "text",
      text: "Scripted answer, in pieces.",
      chunks: 4,
      usage: { inputTokens: 1200, outputTokens: 7, cachedInputTokens: 1024 },
    });
    const result = streamText({ model: model(), prompt: "Hi", maxRetries: 0 });
    const outcome = await drain(result.fullStream, performance.now());

    expect(outcome.deltas).toHaveLength(4);
    expect(await result.text).toBe("Scripted answer, in pieces.");
    const usage = await result.usage;
    expect(usage.inputTokens).toBe(1200);
    expect(usage.outputTokens).toBe(7);
    expect(usage.inputTokenDetails.cacheReadTokens).toBe(1024);
    expect(usage.inputTokenDetails.noCacheTokens).toBe(176);
  });

  it("records the body byte for byte as the client sent it, without secrets", async () => {
    const result = streamText({
      model: model(),
      instructions: "You are a terse weather bot.",
      messages: conversation,
      tools: { getWeather: weatherTool },
      maxRetries: 0,
      include: { requestBody: true },
    });
    await result.consumeStream();

    expect(providers.requests).toHaveLength(1);
    const [recorded] = providers.requests;
    expect(attempts).toHaveLength(1);
    expect(recorded.body).toBe(attempts[0].body);
    expect(recorded.protocol).toBe(protocol);
    expect(recorded.model).toBe(MODEL_IDS[protocol]);
    expect(recorded.body).toContain("ünïcødé» 🌦️");

    const reported = (await result.request).body;
    if (protocol === "openai-responses") {
      // The SDK adds `stream: true` at send time, after reporting the body.
      expect(JSON.parse(recorded.body)).toEqual({ ...JSON.parse(JSON.stringify(reported)), stream: true });
    } else {
      expect(recorded.body).toBe(JSON.stringify(reported));
    }

    const secretHeader =
      protocol === "gemini" ? "x-goog-api-key" : protocol === "anthropic" ? "x-api-key" : "authorization";
    expect(recorded.strippedHeaders).toContain(secretHeader);
    expect(recorded.headers[secretHeader]).toBeUndefined();
    expect(JSON.stringify(providers.requests)).not.toContain(TEST_API_KEY);
    expect(recorded.headers["content-type"]).toBe("application/json");
  });

  it("streams a scripted tool call back as a tool call", async () => {
    providers.script(weatherToolCall("Lyon", { id: "call_scripted" }));
    const result = streamWithWeatherTool(model(), "Weather in Lyon?");
    await result.consumeStream();

    const toolCalls = await result.toolCalls;
    expect(toolCalls).toHaveLength(1);
    expect(toolCalls[0]).toMatchObject({
      toolName: "getWeather",
      input: { city: "Lyon" },
      toolCallId: "call_scripted",
    });
    expect(await result.finishReason).toBe("tool-calls");
  });

  it("retries a 429 after the retry-after-ms delay, then succeeds", async () => {
    providers.script(
      { kind: "error", status: 429, retryAfterMs: 5 },
      { kind: "text", text: "After the retry." },
    );
    const startedAt = performance.now();
    const result = streamText({ model: model(), prompt: "Hi", maxRetries: 2 });

    expect(await result.text).toBe("After the retry.");
    // retry-after is 1 s; the SDK must have preferred retry-after-ms, and not backed off 2 s by default.
    expect(performance.now() - startedAt).toBeLessThan(900);
    expect(providers.requests).toHaveLength(2);
    expect(attempts.map((attempt) => attempt.status)).toEqual([429, 200]);
    expect(attempts[0].responseHeaders["retry-after-ms"]).toBe("5");
    expect(attempts[0].responseHeaders["retry-after"]).toBe("1");
    expect(attempts[0].body).toBe(attempts[1].body);
  });

  it("surfaces a 500 as an APICallError with status 500 when retries are off", async () => {
    providers.script({ kind: "error", status: 500, message: "scripted outage" });
    const { outcome, onErrorCalls: errors } = await streamOnceNotingErrors(model(), "Hi");

    expect(outcome.deltas).toEqual([]);
    expect(errors).toHaveLength(1);
    const [error] = errors;
    expect(APICallError.isInstance(error)).toBe(true);
    if (!APICallError.isInstance(error)) return;
    expect(error.statusCode).toBe(500);
    expect(error.message).toBe("scripted outage");
    expect(error.isRetryable).toBe(true);
    expect(providers.requests).toHaveLength(1);
  });

  it("reports a stream cut mid-way: partial text, then a thrown error, the request recorded", async () => {
    const text = "one two three four five six seven eight nine ten";
    providers.script({ kind: "cut", afterChunks: 2, text, chunks: 5 });
    const { result, outcome, onErrorCalls } = await streamOnceNotingErrors(model(), "Count");

    expect(outcome.deltas.join("")).toBe("one two three four ");
    // The SDK does not turn a dropped connection into an `error` part or an onError call: iterating the
    // stream throws, and the result promises reject.
    expect(outcome.errors).toEqual([]);
    expect(onErrorCalls).toEqual([]);
    expect(APICallError.isInstance(outcome.thrown)).toBe(true);
    if (!APICallError.isInstance(outcome.thrown)) return;
    expect(outcome.thrown.message).toBe("Failed to process successful response");
    expect(String(outcome.thrown.cause)).toContain("terminated");
    await expect(result.text).rejects.toThrow("Failed to process successful response");
    expect(providers.requests).toHaveLength(1);
  });

  it("honours a slow first token", async () => {
    providers.script({
      kind: "text",
      text: "Slow start, then quick.",
      firstTokenDelayMs: 300,
      chunkDelayMs: 0,
    });
    const startedAt = performance.now();
    const result = streamText({ model: model(), prompt: "Hi", maxRetries: 0 });
    const outcome = await drain(result.fullStream, startedAt);

    expect(await result.text).toBe("Slow start, then quick.");
    expect(outcome.firstDeltaMs).not.toBeNull();
    expect(outcome.firstDeltaMs).toBeGreaterThanOrEqual(280);
    expect(outcome.firstDeltaMs).toBeLessThan(1500);
  });

  it("answers generateText (non-streaming) with text, usage and tool calls", async () => {
    providers.script(
      {
        kind: "text",
        text: "A summary.",
        usage: { inputTokens: 50, outputTokens: 3, cachedInputTokens: 10 },
      },
      weatherToolCall("Nice", { id: "call_json" }),
    );
    const summarizer = model();
    const summary = await generateText({ model: summarizer, prompt: "Summarise", maxRetries: 0 });
    expect(summary.text).toBe("A summary.");
    expect(summary.usage.inputTokens).toBe(50);
    expect(summary.usage.outputTokens).toBe(3);
    expect(summary.usage.inputTokenDetails.cacheReadTokens).toBe(10);

    const withTool = await generateText({
      model: summarizer,
      prompt: "Weather in Nice?",
      tools: { getWeather: weatherTool },
      maxRetries: 0,
    });
    expect(withTool.toolCalls[0]).toMatchObject({
      toolName: "getWeather",
      input: { city: "Nice" },
      toolCallId: "call_json",
    });

    const [first] = providers.requests;
    expect(first.body).toBe(attempts[0].body);
    if (protocol === "gemini") expect(first.path).toMatch(/:generateContent$/);
    else expect(JSON.parse(first.body).stream).toBeUndefined();
  });

  it("sends the provider's own error JSON shape", async () => {
    providers.script({ kind: "error", status: 429, retryAfterSeconds: 2 });
    const result = generateText({ model: model(), prompt: "Hi", maxRetries: 0 });
    const error = await result.catch((caught: unknown) => caught);

    expect(APICallError.isInstance(error)).toBe(true);
    if (!APICallError.isInstance(error)) return;
    expect(error.statusCode).toBe(429);
    expect(error.responseHeaders?.["retry-after"]).toBe("2");
    const body = JSON.parse(error.responseBody ?? "{}");
    if (protocol === "gemini") {
      expect(body.error).toMatchObject({ code: 429, status: "RESOURCE_EXHAUSTED" });
      expect(body.error.details[0].retryDelay).toBe("2s");
    } else if (protocol === "anthropic") {
      expect(body).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
    } else {
      expect(body.error).toMatchObject({ type: "requests", code: "rate_limit_exceeded", param: null });
    }
  });
});

describe("anthropic specifics", () => {
  const attempts: CapturedAttempt[] = [];
  const claude = () => fakeModel("anthropic", providers.url, capturingFetch(attempts));
  const breakpoint = { anthropic: { cacheControl: { type: "ephemeral" } } } as const;
  const system = {
    role: "system" as const,
    content: "You are terse. ".repeat(40),
    providerOptions: breakpoint,
  };

  it("streams a thinking block (thinking_delta, then signature_delta) before the text", async () => {
    providers.script({ kind: "text", text: "Four.", reasoning: { text: "Two plus two is four." } });
    const result = streamText({ model: claude(), prompt: "2+2?", maxRetries: 0 });
    await result.consumeStream();

    expect(await result.text).toBe("Four.");
    const reasoning = (await result.reasoning).filter((part) => part.type === "reasoning");
    expect(reasoning.map((part) => part.text).join("")).toBe("Two plus two is four.");
    expect(reasoning[0]?.providerMetadata?.anthropic?.signature).toEqual(expect.any(String));
    const wire = await (await fetch(`${providers.url}/__requests?protocol=anthropic`)).json();
    expect(wire).toHaveLength(1);
  });

  it("streams a tool call as input_json_delta pieces after a thinking block", async () => {
    providers.script(
      weatherToolCall("Oslo", { id: "toolu_scripted", reasoning: { text: "I should look it up." } }),
    );
    const result = streamWithWeatherTool(claude(), "Weather in Oslo?");
    await result.consumeStream();
    expect((await result.toolCalls)[0]).toMatchObject({
      toolCallId: "toolu_scripted",
      input: { city: "Oslo" },
    });
    expect(await result.finishReason).toBe("tool-calls");
  });

  it("answers 529 overloaded in Anthropic's error shape", async () => {
    providers.script({ kind: "error", status: 529 });
    const error = await generateText({ model: claude(), prompt: "Hi", maxRetries: 0 }).catch(
      (caught: unknown) => caught,
    );
    expect(APICallError.isInstance(error)).toBe(true);
    if (!APICallError.isInstance(error)) return;
    expect(error.statusCode).toBe(529);
    expect(error.isRetryable).toBe(true);
    expect(JSON.parse(error.responseBody ?? "{}")).toEqual({
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
    });
  });

  it("remembers cached prefixes: a later request repeating one reads it, new breakpoints write", async () => {
    const turn = async (messages: ModelMessage[]) => {
      const result = streamText({ model: claude(), instructions: system, messages, maxRetries: 0 });
      await result.consumeStream();
      return (await result.usage).inputTokenDetails;
    };
    const first = await turn([{ role: "user", content: "First question" }]);
    expect(first.cacheReadTokens).toBe(0);
    expect(first.cacheWriteTokens).toBeGreaterThan(100); // the system block, written at its breakpoint

    const history: ModelMessage[] = [
      { role: "user", content: "First question" },
      { role: "assistant", content: "First answer", providerOptions: breakpoint },
    ];
    const second = await turn([...history, { role: "user", content: "Second question" }]);
    // The system prefix is read; the history after it, up to the new breakpoint, is written.
    expect(second.cacheReadTokens).toBe(first.cacheWriteTokens);
    expect(second.cacheWriteTokens).toBeGreaterThan(0);

    // Turn 3 moves the history breakpoint on; the lookback finds the prefix turn 2 wrote.
    const third = await turn([
      { role: "user", content: "First question" },
      { role: "assistant", content: "First answer" },
      { role: "user", content: "Second question" },
      { role: "assistant", content: "Second answer", providerOptions: breakpoint },
      { role: "user", content: "Third question" },
    ]);
    expect(third.cacheReadTokens).toBe((second.cacheReadTokens ?? 0) + (second.cacheWriteTokens ?? 0));

    // A changed system block reads nothing.
    const changed = streamText({
      model: claude(),
      instructions: { ...system, content: "Something else entirely. ".repeat(40) },
      prompt: "Hi",
      maxRetries: 0,
    });
    await changed.consumeStream();
    expect((await changed.usage).inputTokenDetails.cacheReadTokens).toBe(0);
    // The wire usage counts input without the cache, as Anthropic does; the SDK adds them back.
    const lastBody = providers.requests.at(-1)?.body ?? "";
    expect(JSON.parse(lastBody).system[0].cache_control).toEqual({ type: "ephemeral" });
  });
});

describe("documents, audio and video in each protocol's own part shape", () => {
  const pdf = makePdf("fake provider check");
  const wav = makeWav(100);
  const video = makeIsoMedia("isom", 2_048);
  const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString("base64")}`;
  const file = (mediaType: string, bytes: Buffer, filename?: string) => ({
    type: "file" as const,
    mediaType,
    data: dataUrl(mediaType, bytes),
    ...(filename ? { filename } : {}),
  });
  const cases: Array<{ protocol: Protocol; parts: ReturnType<typeof file>[]; expected: unknown[] }> = [
    {
      protocol: "openai-chat",
      parts: [file("application/pdf", pdf, "report.pdf"), file("audio/wav", wav)],
      expected: [
        { part: "file", mediaType: "application/pdf", filename: "report.pdf", bytes: pdf.length },
        { part: "input_audio", mediaType: "audio/wav", filename: null, bytes: wav.length },
      ],
    },
    {
      protocol: "openai-responses",
      parts: [file("application/pdf", pdf, "report.pdf")],
      expected: [
        { part: "input_file", mediaType: "application/pdf", filename: "report.pdf", bytes: pdf.length },
      ],
    },
    {
      protocol: "gemini",
      parts: [file("application/pdf", pdf), file("audio/wav", wav), file("video/mp4", video)],
      expected: [
        { part: "inlineData", mediaType: "application/pdf", filename: null, bytes: pdf.length },
        { part: "inlineData", mediaType: "audio/wav", filename: null, bytes: wav.length },
        { part: "inlineData", mediaType: "video/mp4", filename: null, bytes: video.length },
      ],
    },
  ];

  it.each(cases)("$protocol: accepted, answered and recorded", async ({ protocol, parts, expected }) => {
    const result = streamText({
      model: fakeModel(protocol, providers.url, fetch),
      messages: [{ role: "user", content: [{ type: "text", text: "What is in these?" }, ...parts] }],
      maxRetries: 0,
    });
    expect(await result.text).toBe(defaultReplyText(protocol, "What is in these?"));
    const [recorded] = providers.requests;
    expect(recorded.media).toEqual(expected);
  });
});

describe("scripting", () => {
  const attempts: CapturedAttempt[] = [];
  const model = (protocol: Protocol, modelId?: string) =>
    fakeModel(protocol, providers.url, capturingFetch(attempts), modelId);

  it("consumes replies per protocol in order, leaving other protocols on the default", async () => {
    providers.script(
      { kind: "text", text: "gemini first", protocol: "gemini" },
      { kind: "text", text: "chat first", protocol: "openai-chat" },
      { kind: "text", text: "gemini second", protocol: "gemini" },
    );
    expect((await generateText({ model: model("gemini"), prompt: "a", maxRetries: 0 })).text).toBe(
      "gemini first",
    );
    expect((await generateText({ model: model("openai-responses"), prompt: "b", maxRetries: 0 })).text).toBe(
      defaultReplyText("openai-responses", "b"),
    );
    expect((await generateText({ model: model("gemini"), prompt: "c", maxRetries: 0 })).text).toBe(
      "gemini second",
    );
    expect((await generateText({ model: model("openai-chat"), prompt: "d", maxRetries: 0 })).text).toBe(
      "chat first",
    );
    expect(providers.pendingScripts()).toEqual([]);
  });

  it("matches on model and path, and repeats a reply `times` times", async () => {
    providers.script(
      { kind: "error", status: 503, match: { model: "primary-model" }, times: 2 },
      { kind: "text", text: "from the fallback", match: { path: "/chat/completions" } },
    );
    const primary = () =>
      generateText({ model: model("openai-chat", "primary-model"), prompt: "x", maxRetries: 0 });
    await expect(primary()).rejects.toMatchObject({ statusCode: 503 });
    await expect(primary()).rejects.toMatchObject({ statusCode: 503 });
    expect(
      (await generateText({ model: model("openai-chat", "fallback-model"), prompt: "y", maxRetries: 0 }))
        .text,
    ).toBe("from the fallback");
    expect((await primary()).text).toBe(defaultReplyText("openai-chat", "x"));
  });

  it("cuts a non-streaming reply mid-body, so generateText fails", async () => {
    providers.script({ kind: "cut", afterChunks: 0, text: "never whole" });
    const error = await generateText({ model: model("gemini"), prompt: "x", maxRetries: 0 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect(providers.requests).toHaveLength(1);
  });

  it("rejects an invalid scripted reply in-process", () => {
    // @ts-expect-error: an unknown kind is a type error too.
    expect(() => providers.script({ kind: "nonsense" })).toThrow();
  });
});

describe("reasoning", () => {
  const attempts: CapturedAttempt[] = [];
  const model = (protocol: Protocol) => fakeModel(protocol, providers.url, capturingFetch(attempts));

  /** Every part of a stream, by type, with what the SDK made of the reasoning and the text. */
  async function streamParts(result: { fullStream: AsyncIterable<unknown> }) {
    const parts: Array<Record<string, unknown> & { type: string }> = [];
    for await (const part of result.fullStream)
      parts.push(part as Record<string, unknown> & { type: string });
    return parts;
  }

  it("Responses: a reasoning item's summary streams before the answer, its encrypted content only when asked", async () => {
    const reasoning = {
      text: "Paris is warm in June.",
      encryptedContent: "gAAAA-encrypted-1",
      durationMs: 60,
    };
    providers.script(
      { kind: "text", text: "Bring a hat.", reasoning, usage: { outputTokens: 30, reasoningTokens: 24 } },
      { kind: "text", text: "Bring a hat.", reasoning },
    );
    const started = performance.now();
    const asked = streamText({
      model: model("openai-responses"),
      prompt: "Weather?",
      maxRetries: 0,
      providerOptions: { openai: { store: false, include: ["reasoning.encrypted_content"] } },
    });
    const parts = await streamParts(asked);
    // The thinking time passes before the answer's first words.
    expect(performance.now() - started).toBeGreaterThanOrEqual(50);
    const order = parts
      .map((part) => part.type)
      .filter((type) => /^(reasoning|text)-(start|end)$/.test(type));
    expect(order).toEqual(["reasoning-start", "reasoning-end", "text-start", "text-end"]);
    expect(await asked.reasoningText).toBe("Paris is warm in June.");
    expect(await asked.text).toBe("Bring a hat.");
    const end = parts.find((part) => part.type === "reasoning-end");
    expect(end?.providerMetadata).toEqual({
      openai: {
        itemId: expect.stringMatching(/^rs_fake\d+$/),
        reasoningEncryptedContent: "gAAAA-encrypted-1",
      },
    });
    const usage = await asked.usage;
    expect(usage.outputTokenDetails.reasoningTokens).toBe(24);

    // Not asked for: the item has no encrypted content.
    const notAsked = streamText({ model: model("openai-responses"), prompt: "Weather?", maxRetries: 0 });
    const plain = await streamParts(notAsked);
    expect(plain.find((part) => part.type === "reasoning-end")?.providerMetadata).toEqual({
      openai: { itemId: expect.stringMatching(/^rs_fake\d+$/), reasoningEncryptedContent: null },
    });
  });

  it("Responses: the events come in OpenAI's order with rising sequence numbers", async () => {
    providers.script(weatherToolCall("Paris", { reasoning: { text: "Need the weather tool." } }));
    const response = await fetch(`${providers.url}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-fake-responses", input: "Weather?", stream: true }),
    });
    const events = (await response.text())
      .split("\n\n")
      .filter((frame) => frame.startsWith("event:"))
      .map(
        (frame) =>
          JSON.parse(frame.slice(frame.indexOf("data: ") + 6)) as { type: string; sequence_number: number },
      );
    expect(events.map((event) => event.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
  });

  it("Gemini: thought parts stream as reasoning, the signature rides on the function call", async () => {
    providers.script(
      {
        ...weatherToolCall("Paris", {
          id: "call_sig",
          reasoning: { text: "I should look it up." },
          thoughtSignature: "sig-call-1",
        }),
        usage: { outputTokens: 20, reasoningTokens: 12 },
      },
      { kind: "text", text: "Sunny.", thoughtSignature: "sig-text-1" },
    );
    const withCall = streamWithWeatherTool(model("gemini"), "Weather?");
    const parts = await streamParts(withCall);
    expect(await withCall.reasoningText).toBe("I should look it up.");
    const call = parts.find((part) => part.type === "tool-call");
    expect(call?.providerMetadata).toEqual({ google: { thoughtSignature: "sig-call-1" } });
    expect((await withCall.usage).outputTokenDetails.reasoningTokens).toBe(12);

    const text = streamText({ model: model("gemini"), prompt: "And?", maxRetries: 0 });
    const textParts = await streamParts(text);
    expect(textParts.find((part) => part.type === "text-start")?.providerMetadata).toEqual({
      google: { thoughtSignature: "sig-text-1" },
    });
    expect(await text.text).toBe("Sunny.");
  });

  it("rejects a reasoning field it does not know", () => {
    expect(() =>
      // @ts-expect-error: `summary` is not a reasoning field.
      providers.script({ kind: "text", text: "x", reasoning: { summary: "typo" } }),
    ).toThrow();
  });
});

describe("control endpoints", () => {
  it("are usable over HTTP through the dependency-free client", async () => {
    const client = fakeProviderClient(providers.url);
    expect(await client.health()).toMatchObject({ ok: true, requests: 0, pendingScripts: 0 });

    await client.script([{ kind: "text", text: "over HTTP", protocol: "openai-responses" }]);
    expect(await client.pendingScripts()).toHaveLength(1);
    const attempts: CapturedAttempt[] = [];
    const reply = await generateText({
      model: fakeModel("openai-responses", providers.url, capturingFetch(attempts)),
      prompt: "hello",
      maxRetries: 0,
    });
    expect(reply.text).toBe("over HTTP");
    await generateText({
      model: fakeModel("gemini", providers.url, capturingFetch(attempts)),
      prompt: "hi",
      maxRetries: 0,
    });

    expect(await client.requests()).toHaveLength(2);
    const geminiRequests = await client.requests("gemini");
    expect(geminiRequests).toHaveLength(1);
    expect(geminiRequests[0].body).toBe(attempts[1].body);
    expect(geminiRequests[0].path).toBe("/v1beta/models/gemini-2.5-flash:generateContent");

    await expect(client.script([{ kind: "text" } as never])).rejects.toThrow(/400/);
    await client.script({ kind: "error", status: 500 });
    await client.clear();
    expect(await client.requests()).toEqual([]);
    expect(await client.pendingScripts()).toHaveLength(1);
    await client.reset();
    expect(await client.health()).toMatchObject({ requests: 0, pendingScripts: 0 });
  });

  it("records an unknown path as protocol unknown and answers 404", async () => {
    const response = await fetch(`${providers.url}/v1/embeddings?x=1`, {
      method: "POST",
      headers: { cookie: "session=secret", "api-key": "azure-secret" },
      body: "not json",
    });
    expect(response.status).toBe(404);
    expect(providers.requests).toHaveLength(1);
    expect(providers.requests[0]).toMatchObject({
      protocol: "unknown",
      path: "/v1/embeddings?x=1",
      body: "not json",
    });
    expect(providers.requests[0].strippedHeaders.sort()).toEqual(["api-key", "cookie"]);
  });

  it("answers a non-JSON provider body with a 400 in the provider's shape", async () => {
    const response = await fetch(`${providers.url}/v1/chat/completions`, { method: "POST", body: "{oops" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { type: "invalid_request_error" } });
    expect(providers.requests[0].body).toBe("{oops");
  });
});
