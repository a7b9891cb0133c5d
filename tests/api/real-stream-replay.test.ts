// History goes back in the form it came (docs/features.md#tools, docs/pipeline.md#serialise). Streams recorded from
// the real providers (tests/fixtures/real-streams/, third-party data: see its README) are served byte for byte for
// the first calls of a turn; the app's tool loop runs on them; then the next turn's body is compared with what the
// loop's own next step sent for the same steps: the JSON of those history items must be equal. Provider-run tools
// must come back as the provider's own types, or be absent with a trace event saying why. Real routes, real
// Postgres, the fake providers speaking the real wire protocols.
import { readFileSync } from "node:fs";
import path from "node:path";
import { createAnthropic } from "@ai-sdk/anthropic";
import { streamText } from "ai";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { artifacts, messages } from "@/db/schema";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { conversationWithPersona } from "../fixtures/personas";
import { fetchTurns, runTurn, storedMessages } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";
import { setOverride } from "./summary-helpers";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

const RECORDINGS = path.join(import.meta.dirname, "../fixtures/real-streams");

/** A recording's events, one JSON chunk per line as recorded. */
function recording(name: string): string[] {
  return readFileSync(path.join(RECORDINGS, `${name}.chunks.txt`), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
}

/** A Responses recording of several responses in a row, cut into one stream per response. */
function responsesInARow(name: string): string[][] {
  const streams: string[][] = [];
  for (const line of recording(name)) {
    if ((JSON.parse(line) as { type?: string }).type === "response.created") streams.push([]);
    streams.at(-1)?.push(line);
  }
  return streams;
}

function served(...streams: string[][]): void {
  env.providers.script(...streams.map((chunks) => ({ kind: "recorded" as const, chunks })));
}

function requestBody(index: number): Record<string, unknown> {
  return JSON.parse(env.providers.requests[index]?.body ?? "{}") as Record<string, unknown>;
}

/** The history list of a provider's body: Responses `input`, Anthropic `messages`, Gemini `contents`. */
type HistoryKey = "input" | "messages" | "contents";

function historyOf(body: Record<string, unknown>, key: HistoryKey): unknown[] {
  return (body[key] as unknown[] | undefined) ?? [];
}

/** Where the user's question sits in a history list (the text the test asked, in any provider's shape). */
function indexOfQuestion(history: unknown[], question: string): number {
  return history.findIndex((entry) => JSON.stringify(entry).includes(JSON.stringify(question).slice(1, -1)));
}

/**
 * The loop's steps as its last call (request `loopRequest`) sent them, everything after the question, and the same
 * stretch of the next turn's body (request `nextTurnRequest`): they must be equal, item for item.
 */
function expectStepsSentBack(
  key: HistoryKey,
  question: string,
  loopRequest: number,
  nextTurnRequest: number,
): unknown[] {
  const loop = historyOf(requestBody(loopRequest), key);
  const next = historyOf(requestBody(nextTurnRequest), key);
  const loopAt = indexOfQuestion(loop, question);
  const nextAt = indexOfQuestion(next, question);
  expect(loopAt).toBeGreaterThanOrEqual(0);
  expect(nextAt).toBeGreaterThanOrEqual(0);
  const loopSteps = loop.slice(loopAt + 1);
  expect(loopSteps.length).toBeGreaterThan(0);
  expect(next.slice(nextAt + 1, nextAt + 1 + loopSteps.length)).toEqual(loopSteps);
  return loopSteps;
}

/** Every trace event of the conversation's attempts. */
async function traceEvents(conversationId: string): Promise<Array<Record<string, unknown>>> {
  const { turns } = await fetchTurns(ada, conversationId);
  return turns.flatMap((turn) => turn.attempts.flatMap((attempt) => attempt.trace));
}

/** The conversation's stored artifacts, in the order its messages name them. */
async function storedArtifacts(conversationId: string) {
  const db = await getDb();
  const rows = await db
    .select({ type: artifacts.type, payload: artifacts.payload, id: artifacts.id })
    .from(artifacts)
    .innerJoin(messages, eq(messages.id, artifacts.messageId))
    .where(eq(messages.conversationId, conversationId));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return (await storedMessages(conversationId)).flatMap((message) =>
    message.parts.flatMap((part) => {
      const row = part.type === "artifact" ? byId.get(part.artifactId) : undefined;
      return row ? [row] : [];
    }),
  );
}

/** A conversation whose persona may call a tool, so the tool loop runs (the recorded calls name other tools). */
async function conversationOn(modelId: string): Promise<string> {
  const conversationId = await conversationWithPersona(ada, { modelId, toolNames: ["current_time"] });
  // A prompt-cache mark on the history's last message would be the one byte the loop did not send.
  await setOverride(ada, conversationId, { cache: { breakpoints: "off" } });
  return conversationId;
}

/** A first turn on the model, its provider calls served the given streams in order. */
async function firstTurn(modelId: string, question: string, ...streams: string[][]) {
  const conversationId = await conversationOn(modelId);
  served(...streams);
  const { text } = await runTurn(ada, conversationId, question);
  return { conversationId, text };
}

/** The next turn, its one provider call served the given stream. */
async function nextTurn(conversationId: string, question: string, stream: string[]): Promise<void> {
  served(stream);
  await runTurn(ada, conversationId, question);
}

describe("OpenAI Responses", () => {
  test("encrypted reasoning and three function calls: the next turn sends the loop's items unchanged", async () => {
    const streams = responsesInARow("openai-reasoning-encrypted-content.1");
    expect(streams).toHaveLength(4);
    const question = "Work it out with the calculator.";
    const { conversationId, text } = await firstTurn("openai:gpt-5-mini", question, ...streams);
    expect(text).toBe("The final result is **570**.");
    expect(env.providers.requests).toHaveLength(4);
    await nextTurn(conversationId, "Thanks.", [...(streams[3] as string[])]);
    const steps = expectStepsSentBack("input", question, 3, 4);
    const types = steps.map((item) => (item as { type?: string }).type);
    expect(types).toContain("reasoning");
    expect(types.filter((type) => type === "function_call")).toHaveLength(3);
    // The recorded tool is not one of the app's: each call was answered with the SDK's error, as text.
    expect(types.filter((type) => type === "function_call_output")).toHaveLength(3);
  });

  test("a provider-run file_search is left out of the stateless next turn, and the trace says why", async () => {
    const question = "What does the file say?";
    const { conversationId } = await firstTurn(
      "openai:gpt-5-mini",
      question,
      recording("openai-file-search-tool.1"),
    );
    await nextTurn(
      conversationId,
      "Thanks.",
      responsesInARow("openai-reasoning-encrypted-content.1")[3] as string[],
    );
    const input = historyOf(requestBody(1), "input");
    const sent = JSON.stringify(input);
    expect(sent).not.toContain("file_search");
    expect(input.filter((item) => (item as { type?: string }).type === "function_call")).toEqual([]);
    expect(input.filter((item) => (item as { type?: string }).type === "function_call_output")).toEqual([]);
    const dropped = (await traceEvents(conversationId)).filter(
      (event) => event.action === "dropped-provider-run-tools",
    );
    expect(dropped).toHaveLength(1);
    expect(String(dropped[0]?.reason)).toContain("store: false");
  });
});

/** An Anthropic tool loop of two calls: a tool_use of a tool the app does not have, then the answer. */
const anthropicToolLoop = () => [
  recording("anthropic-json-other-tool.1"),
  recording("anthropic-clear-tool-uses.1"),
];

describe("Anthropic", () => {
  test("tool_use, answered in the loop: the next turn sends the loop's messages unchanged", async () => {
    const question = "What is the weather in San Francisco?";
    const { conversationId } = await firstTurn(
      "anthropic:claude-sonnet-4-5",
      question,
      ...anthropicToolLoop(),
    );
    expect(env.providers.requests).toHaveLength(2);
    await nextTurn(conversationId, "And tomorrow?", recording("anthropic-clear-tool-uses.1"));
    const steps = expectStepsSentBack("messages", question, 1, 2);
    // The unknown tool's error goes back as the loop sent it: an error result with the SDK's message as text.
    const result = JSON.stringify(steps[1]);
    expect(result).toContain('"type":"tool_result"');
    expect(result).toContain('"is_error":true');
  });

  test("with prompt-cache breakpoints on, the history's mark is the only byte the loop did not send", async () => {
    const conversationId = await conversationWithPersona(ada, {
      modelId: "anthropic:claude-sonnet-4-5",
      toolNames: ["current_time"],
    });
    served(...anthropicToolLoop());
    const question = "What is the weather in San Francisco?";
    await runTurn(ada, conversationId, question);
    await nextTurn(conversationId, "And tomorrow?", recording("anthropic-clear-tool-uses.1"));
    const withoutMarks = (value: unknown) =>
      JSON.parse(
        JSON.stringify(value, (key, field) => (key === "cache_control" ? undefined : field)),
      ) as unknown[];
    const loop = withoutMarks(historyOf(requestBody(1), "messages"));
    const next = withoutMarks(historyOf(requestBody(2), "messages"));
    const loopAt = indexOfQuestion(loop, question);
    const nextAt = indexOfQuestion(next, question);
    const loopSteps = loop.slice(loopAt + 1);
    expect(next.slice(nextAt + 1, nextAt + 1 + loopSteps.length)).toEqual(loopSteps);
    expect(JSON.stringify(historyOf(requestBody(2), "messages"))).toContain('"cache_control"');
  });

  test("server_tool_use code execution goes back as server_tool_use and its own result type", async () => {
    const question = "Run some code for me.";
    const codeExecution = recording("anthropic-code-execution-20260120-prompt-cache.1");
    const { conversationId } = await firstTurn("anthropic:claude-sonnet-4-5", question, codeExecution);
    await nextTurn(conversationId, "Thanks.", recording("anthropic-clear-tool-uses.1"));
    const messages = historyOf(requestBody(1), "messages") as Array<{
      role: string;
      content: Array<{ type: string }>;
    }>;
    const at = indexOfQuestion(messages, question);
    const reply = messages[at + 1];
    expect(reply?.role).toBe("assistant");
    const types = reply?.content.map((block) => block.type) ?? [];
    expect(types.filter((type) => type === "server_tool_use")).toHaveLength(2);
    expect(types.filter((type) => type === "bash_code_execution_tool_result")).toHaveLength(2);
    expect(types).not.toContain("tool_use");
    expect(messages.flatMap((message) => message.content.map((block) => block.type))).not.toContain(
      "tool_result",
    );

    // Stored as the provider's own: both calls and both results say who ran them, in the one step.
    const stored = await storedArtifacts(conversationId);
    expect(
      stored
        .filter((row) => row.type !== "reasoning")
        .map((row) => [row.type, row.payload.providerExecuted, row.payload.executedBy, row.payload.step]),
    ).toEqual([
      ["function_call", true, "anthropic", 0],
      ["function_call_output", true, "anthropic", 0],
      ["function_call", true, "anthropic", 0],
      ["function_call_output", true, "anthropic", 0],
    ]);

    // What the SDK itself sends back for that response (its own messages, as its loop would): the same blocks.
    const anthropic = createAnthropic({ baseURL: `${env.providers.url}/v1`, apiKey: "test" });
    served(recording("anthropic-code-execution-20260120-prompt-cache.1"), recording("anthropic-text"));
    const first = streamText({ model: anthropic("claude-sonnet-4-5"), prompt: question });
    await first.consumeStream();
    const own = (await first.response).messages;
    const second = streamText({
      model: anthropic("claude-sonnet-4-5"),
      messages: [{ role: "user", content: question }, ...own, { role: "user", content: "Thanks." }],
    });
    await second.consumeStream();
    const sdkMessages = historyOf(requestBody(3), "messages");
    expect(reply).toEqual(sdkMessages[1]);
  });
});

describe("Gemini", () => {
  test("a thought and four parallel calls: one model turn and one answering turn, as the loop sent them", async () => {
    const question = "Read the theme and the screens.";
    const loop = [recording("google-stream-no-args-tool-call"), recording("google-text")];
    const { conversationId } = await firstTurn("google:gemini-2.5-flash", question, ...loop);
    expect(env.providers.requests).toHaveLength(2);
    await nextTurn(conversationId, "Thanks.", recording("google-text"));
    type Content = { role: string; parts: Array<Record<string, unknown>> };
    const steps = expectStepsSentBack("contents", question, 1, 2) as Content[];
    expect(steps.map((content) => content.role)).toEqual(["model", "user"]);
    expect(steps[0]?.parts.filter((part) => part.functionCall)).toHaveLength(4);
    expect(steps[1]?.parts.filter((part) => part.functionResponse)).toHaveLength(4);
  });

  test("one signed call: the call, its signature and its error result go back as the loop sent them", async () => {
    const question = "What is the weather in San Francisco?";
    const loop = [recording("google-tool-call"), recording("google-text")];
    const { conversationId } = await firstTurn("google:gemini-2.5-flash", question, ...loop);
    await nextTurn(conversationId, "Thanks.", recording("google-text"));
    const steps = expectStepsSentBack("contents", question, 1, 2);
    expect(JSON.stringify(steps)).toContain('"thoughtSignature"');
    // The unknown tool's error is stored as the loop gave it: the SDK's error text.
    const output = (await storedArtifacts(conversationId)).find((row) => row.type === "function_call_output");
    expect(output?.payload).toMatchObject({ outputType: "error-text", name: "weather", step: 0 });
    expect(String(output?.payload.output)).toContain("AI_NoSuchToolError");
    expect(JSON.stringify(steps)).toContain('"error"');
  });
});
