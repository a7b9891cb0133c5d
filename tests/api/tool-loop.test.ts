// The tool loop: a persona's enabled tools are offered to a model that supports tools; the calls run
// in a loop of at most MAX_TOOL_STEPS model calls; the calls and outputs are stored as artifacts (with their token
// counts cached) between the reply's text pieces, and the next turn replays them (stage 6). Fake OpenAI server.
import { and, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import * as messagesRoute from "@/app/api/conversations/[id]/messages/route";
import { getDb } from "@/db/client";
import { artifacts, attachments, memories, messages, models } from "@/db/schema";
import { MAX_TOOL_STEPS } from "@/lib/chat/turn/tools";
import { call } from "../api-client";
import { TEST_MODEL_CAPABILITIES } from "../context/fixtures";
import { insertImageMessage } from "../fixtures/attachments";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { conversationWithPersona, createConversation, insertPersona } from "../fixtures/personas";
import { fetchTurns, runTurn, storedMessages } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

interface ChatBody {
  tools?: Array<{ type: string; function: { name: string } }>;
  messages: Array<{
    role: string;
    content?: unknown;
    tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
    tool_call_id?: string;
  }>;
}

const body = (index: number) => JSON.parse(env.providers.requests[index].body) as ChatBody;

/** The blind model's call of analyze_image on the media handle. */
function blindModelAsksAbout(mediaId: string) {
  return {
    kind: "tool-call" as const,
    toolName: "analyze_image",
    input: { mediaId },
    match: { path: "/compat/" },
  };
}

/**
 * A conversation whose persona's model has tools but no vision, on the OpenAI-compatible server, with analyze_image
 * and a fallback model that sees.
 */
async function conversationOnBlindModel(): Promise<string> {
  const db = await getDb();
  await db
    .insert(models)
    .values({
      id: "openai-compatible:blind-tools",
      provider: "openai-compatible",
      providerModelName: "blind-tools",
      label: "Blind model with tools",
      capabilities: { ...TEST_MODEL_CAPABILITIES, vision: false },
      contextWindow: 32_768,
      maxOutputTokens: 2_048,
      tokenizer: "estimate",
    })
    .onConflictDoNothing();
  return conversationWithPersona(ada, {
    modelId: "openai-compatible:blind-tools",
    fallbackModelIds: ["openai:gpt-4.1-mini"],
    toolNames: ["analyze_image"],
  });
}

describe("the tool loop", () => {
  // Each model call of the loop is reconciled against its own body: the second call's items are the payload plus
  // the first step's call and result, and each points at its element there (docs/features.md#wire-reconciliation).
  test.each([
    {
      modelId: "openai:gpt-4.1-mini",
      first: [["/messages/0"], ["/messages/0"], ["/messages/1"]],
      second: [
        ["/messages/0"],
        ["/messages/0"],
        ["/messages/1"],
        ["/messages/2/tool_calls/0"],
        ["/messages/3"],
      ],
    },
    {
      modelId: "openai:gpt-5-mini",
      first: [["/input/0"], ["/input/0"], ["/input/1/content/0"]],
      second: [["/input/0"], ["/input/0"], ["/input/1/content/0"], ["/input/2"], ["/input/3"]],
    },
    {
      modelId: "anthropic:claude-haiku-4-5",
      first: [["/system/0"], ["/system/0"], ["/messages/0/content/0"]],
      second: [
        ["/system/0"],
        ["/system/0"],
        ["/messages/0/content/0"],
        ["/messages/1/content/0"],
        ["/messages/2/content/0"],
      ],
    },
    {
      modelId: "google:gemini-2.5-flash",
      first: [["/systemInstruction/parts/0"], ["/systemInstruction/parts/0"], ["/contents/0/parts/0"]],
      second: [
        ["/systemInstruction/parts/0"],
        ["/systemInstruction/parts/0"],
        ["/contents/0/parts/0"],
        ["/contents/1/parts/0"],
        ["/contents/2/parts/0"],
      ],
    },
    // The system prompt and the tool rules are written into the one system element: both point at it, merged.
  ])("$modelId: each step's items point into that step's own body", async ({ modelId, first, second }) => {
    const conversationId = await conversationWithPersona(ada, { modelId, toolNames: ["current_time"] });
    env.providers.script(
      { kind: "tool-call", toolName: "current_time", input: {}, id: "call_time_steps" },
      { kind: "text", text: "Noon." },
    );
    await runTurn(ada, conversationId, "What time is it?");
    const [attempt] = (await fetchTurns(ada, conversationId)).turns[0]?.attempts ?? [];
    expect(attempt.requests).toHaveLength(2);
    const [one, two] = attempt.requests;
    expect(one.items?.map((item) => item.wirePaths)).toEqual(first);
    expect(two.items?.map((item) => item.wirePaths)).toEqual(second);
    expect(one.items?.map((item) => item.merged ?? false)).toEqual([true, true, false]);
    expect(two.items?.slice(3).map((item) => [item.id, item.role, item.tag])).toEqual([
      ["step:1:reply", "assistant", "TOOL_CALL"],
      ["step:1:results", "tool", "TOOL_RESULT"],
    ]);
    // Counted when the second request takes them, as every item of a payload is.
    for (const item of two.items?.slice(3) ?? []) expect(item.tokens).toBeGreaterThan(0);
    expect([one.unclaimed, two.unclaimed]).toEqual([[], []]);
    // The attempt's own items are those of the request it shows, the last one.
    expect(attempt.items).toEqual(two.items);
    expect(attempt.request?.body).toBe(two.body);
  });

  test("current_time: called, run, answered; stored as artifacts between the text; replayed next turn", async () => {
    const conversationId = await conversationWithPersona(ada, {
      modelId: "openai:gpt-4.1-mini",
      toolNames: ["current_time"],
    });
    env.providers.script(
      {
        kind: "tool-call",
        toolName: "current_time",
        input: {},
        id: "call_time_1",
        usage: { inputTokens: 50, outputTokens: 5 },
      },
      { kind: "text", text: "It is just past noon (UTC).", usage: { inputTokens: 70, outputTokens: 9 } },
    );

    const { text, chunks } = await runTurn(ada, conversationId, "What time is it?");
    // One attempt of two calls: its usage sums them (what it cost), and keeps the last call's input for the gauge.
    const [attempt] = (await fetchTurns(ada, conversationId)).turns[0]?.attempts ?? [];
    expect(attempt?.usage).toEqual({
      inputTokens: 120,
      outputTokens: 14,
      cachedInputTokens: 0,
      lastCallInputTokens: 70,
    });
    expect(text).toBe("It is just past noon (UTC).");
    // The chat is told which tools the reply used as it uses them.
    expect(chunks).toContainEqual({
      type: "message-metadata",
      messageMetadata: { toolNames: ["current_time"] },
    });

    // Two model calls: the tool is offered; the second call carries the call and the tool's output.
    expect(env.providers.requests).toHaveLength(2);
    expect(body(0).tools?.map((entry) => entry.function.name)).toEqual(["current_time"]);
    const second = body(1).messages;
    const toolCall = second.find((message) => message.tool_calls)?.tool_calls?.[0];
    expect(toolCall).toMatchObject({ id: "call_time_1", function: { name: "current_time" } });
    const output = second.find((message) => message.role === "tool");
    expect(output?.tool_call_id).toBe("call_time_1");
    expect(String(output?.content)).toMatch(/"utc":"\d{4}-\d\d-\d\dT/);

    // Stored: call and output artifacts, named in the reply's parts before its text, counts cached.
    const [, reply] = await storedMessages(conversationId);
    expect(reply.status).toBe("complete");
    const db = await getDb();
    const rows = await db.select().from(artifacts).where(eq(artifacts.messageId, reply.id));
    const byType = Object.fromEntries(rows.map((row) => [row.type, row]));
    // Each artifact keeps the tool-loop step (model call) it came from.
    expect(byType.function_call.payload).toEqual({
      callId: "call_time_1",
      name: "current_time",
      arguments: "{}",
      step: 0,
    });
    expect(byType.function_call_output.payload).toMatchObject({
      callId: "call_time_1",
      name: "current_time",
      step: 0,
    });
    expect(byType.function_call.tokenCounts.o200k_base).toBeGreaterThan(0);
    expect(byType.function_call_output.tokenCounts.o200k_base).toBeGreaterThan(0);
    expect(reply.parts).toEqual([
      { type: "artifact", artifactId: byType.function_call.id },
      { type: "artifact", artifactId: byType.function_call_output.id },
      { type: "text", text: "It is just past noon (UTC)." },
    ]);

    // The next turn replays the call and its output before the reply's text.
    env.providers.reset();
    env.providers.script({ kind: "text", text: "You're welcome." });
    await runTurn(ada, conversationId, "Thanks!");
    const replayed = body(0).messages;
    const replayedCall = replayed.findIndex((message) => message.tool_calls?.[0]?.id === "call_time_1");
    expect(replayedCall).toBeGreaterThan(-1);
    expect(replayed[replayedCall + 1]).toMatchObject({ role: "tool", tool_call_id: "call_time_1" });
    expect(JSON.stringify(replayed[replayedCall + 2])).toContain("It is just past noon (UTC).");
    // After a reload, the transcript names the tools the reply used.
    const transcript = await call(messagesRoute.GET, `/api/conversations/${conversationId}/messages`, {
      user: ada,
      params: { id: conversationId },
    });
    expect(((await transcript.json()) as { toolNames: Record<string, string[]> }).toolNames).toEqual({
      [reply.id]: ["current_time"],
    });
    // The inspector's items for that turn show the replayed tool call and result.
    const { turns } = await fetchTurns(ada, conversationId);
    const tags = turns[1].attempts[0].items.map((item) => item.tag);
    expect(tags).toEqual(expect.arrayContaining(["TOOL_CALL", "TOOL_RESULT"]));
  });

  test("remember: stores a memory for this user and persona, which the next turn's system prompt carries", async () => {
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini", toolNames: ["remember"] });
    const conversationId = await createConversation(ada, persona);
    env.providers.script(
      {
        kind: "tool-call",
        toolName: "remember",
        input: { content: "Ada is vegetarian.", area: "preference" },
      },
      { kind: "text", text: "Noted." },
    );
    await runTurn(ada, conversationId, "I'm vegetarian, remember that.");
    const db = await getDb();
    const stored = await db
      .select()
      .from(memories)
      .where(and(eq(memories.userId, ada.id), eq(memories.personaId, persona.id)));
    expect(stored).toMatchObject([
      { scope: "user_persona", area: "preference", content: "Ada is vegetarian." },
    ]);

    env.providers.reset();
    env.providers.script({ kind: "text", text: "Try the grilled vegetables." });
    await runTurn(ada, conversationId, "What should I order?");
    expect(JSON.stringify(body(0).messages[0])).toContain("Ada is vegetarian.");
  });

  test(`the loop stops after ${MAX_TOOL_STEPS} model calls`, async () => {
    const conversationId = await conversationWithPersona(ada, {
      modelId: "openai:gpt-4.1-mini",
      toolNames: ["current_time"],
    });
    env.providers.script({
      kind: "tool-call",
      toolName: "current_time",
      input: {},
      times: MAX_TOOL_STEPS + 3,
    });
    await runTurn(ada, conversationId, "Keep checking the time.");
    expect(env.providers.requests).toHaveLength(MAX_TOOL_STEPS);
    const [, reply] = await storedMessages(conversationId);
    expect(reply.status).toBe("complete");
    expect(reply.parts.filter((part) => part.type === "artifact")).toHaveLength(2 * MAX_TOOL_STEPS);
  });

  test("analyze_image: a blind model asks, a model that can see describes the image, the answer uses it", async () => {
    const db = await getDb();
    const conversationId = await conversationOnBlindModel();
    const { message } = await insertImageMessage({ conversationId, user: ada, text: "Here is my drawing." });
    const handle = `media_${message.seq}`;
    env.providers.script(
      blindModelAsksAbout(handle),
      { kind: "text", text: "A small square of coloured pixels.", match: { path: "/v1/chat" } },
      {
        kind: "text",
        text: "Your drawing is a small square of coloured pixels.",
        match: { path: "/compat/" },
      },
    );

    const { text } = await runTurn(ada, conversationId, "What did I draw?");
    expect(text).toBe("Your drawing is a small square of coloured pixels.");
    const [first, analysis, answer] = env.providers.requests;
    // The blind model was told about the image and offered the tool, never given the bytes.
    expect(first.path).toContain("/compat/");
    expect(first.body).toContain(`${handle}) contains an image`);
    expect(first.body).toContain("analyze_image");
    expect(first.body).not.toContain("data:image/png;base64");
    // The model that can see got the image and the description prompt.
    expect(analysis.path).toContain("/v1/chat/completions");
    expect(analysis.body).toContain("data:image/png;base64,");
    expect(analysis.body).toContain("Describe this image");
    // The blind model's answer came with the description as the tool's output.
    expect(answer.body).toContain("A small square of coloured pixels.");
    const [, , reply] = await storedMessages(conversationId);
    const outputs = await db
      .select()
      .from(artifacts)
      .where(and(eq(artifacts.messageId, reply.id), eq(artifacts.type, "function_call_output")));
    expect(outputs[0].payload.output).toMatchObject({
      mediaId: handle,
      describedBy: "openai:gpt-4.1-mini",
      description: "A small square of coloured pixels.",
    });
  });

  test("analyze_image takes an attachment's own handle (media_<seq>_<n>) in a message with several", async () => {
    const db = await getDb();
    const conversationId = await conversationOnBlindModel();
    const { message, attachment } = await insertImageMessage({
      conversationId,
      user: ada,
      text: "Two drawings.",
    });
    const { id: _id, createdAt: _createdAt, ...copy } = attachment;
    const [second] = await db
      .insert(attachments)
      .values({ ...copy, filename: "second.png" })
      .returning();
    await db
      .update(messages)
      .set({ parts: [...message.parts, { type: "media", attachmentId: second.id }] })
      .where(eq(messages.id, message.id));
    const handle = `media_${message.seq}_2`;
    env.providers.script(
      blindModelAsksAbout(handle),
      { kind: "text", text: "The second square.", match: { path: "/v1/chat" } },
      { kind: "text", text: "That is the second square.", match: { path: "/compat/" } },
    );

    const { text } = await runTurn(ada, conversationId, "What is the second one?");
    expect(text).toBe("That is the second square.");
    const [first, analysis] = env.providers.requests;
    expect(first.body).toContain(`media_${message.seq}_1`);
    expect(first.body).toContain(handle);
    // Only the named attachment is described.
    expect(analysis.body.split("data:image/png;base64,")).toHaveLength(2);
    const [, , reply] = await storedMessages(conversationId);
    const outputs = await db
      .select()
      .from(artifacts)
      .where(and(eq(artifacts.messageId, reply.id), eq(artifacts.type, "function_call_output")));
    expect(outputs[0].payload.output).toMatchObject({ mediaId: handle, description: "The second square." });
  });

  test("a model without tool support is offered none; a persona without tools offers none", async () => {
    const blind = await insertPersona({ modelId: "openai-compatible:local", toolNames: ["current_time"] });
    const first = await createConversation(ada, blind);
    env.providers.script({ kind: "text", text: "Hello." });
    await runTurn(ada, first, "Hi");
    expect(body(0).tools).toBeUndefined();

    env.providers.reset();
    const plain = await insertPersona({ modelId: "openai:gpt-4.1-mini" });
    const second = await createConversation(ada, plain);
    env.providers.script({ kind: "text", text: "Hello." });
    await runTurn(ada, second, "Hi");
    expect(body(0).tools).toBeUndefined();
  });
});
