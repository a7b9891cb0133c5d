// Replay and A/B on the wire: a recorded attempt sent again reaches the provider byte for byte; a what-if or another
// model changes the body exactly where it says; the replay is an attempt of kind "replay" listed with the
// conversation's other calls, and the conversation's messages and turns stay as they were.
import { describe, expect, test } from "vitest";
import * as replayRoute from "@/app/api/attempts/[id]/replay/route";
import { settleTitleGenerations } from "@/lib/chat/generated/title";
import { call, expectError, signUp, type TestUser } from "../api-client";
import { insertImageMessage } from "../fixtures/attachments";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { conversationWithPersona } from "../fixtures/personas";
import { type AttemptView, fetchTurns, runTurn, storedMessages } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

interface ReplayView extends AttemptView {
  kind: string;
  turnId: string | null;
  replayOf: string | null;
  cost: unknown;
}

function replay(user: TestUser, attemptId: string, body: unknown) {
  return call(replayRoute.POST, `/api/attempts/${attemptId}/replay`, {
    user,
    body,
    params: { id: attemptId },
  });
}

async function replayOk(attemptId: string, body: unknown): Promise<ReplayView> {
  const response = await replay(ada, attemptId, body);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`replay failed: ${response.status} ${text}`);
  return (JSON.parse(text) as { attempt: ReplayView }).attempt;
}

/** A conversation with one answered turn on the OpenAI chat wire; the fake provider's log is cleared after it. */
async function answeredTurn(systemPrompt = "Old prompt.") {
  const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini", systemPrompt });
  env.providers.script({ kind: "text", text: "The original answer." });
  await runTurn(ada, conversationId, "How deep should tulips be planted?");
  expect(env.providers.requests).toHaveLength(1);
  const original = env.providers.requests[0];
  const { turns } = await fetchTurns(ada, conversationId);
  const attemptId = turns[0].attempts[0].id;
  env.providers.reset();
  return { conversationId, attemptId, original, messages: await storedMessages(conversationId), turns };
}

type ChatBody = { messages: Array<{ role: string; content: unknown }> } & Record<string, unknown>;

describe("replay", () => {
  test("unchanged: the provider receives the original body byte for byte; the conversation is untouched", async () => {
    const { conversationId, attemptId, original, messages, turns } = await answeredTurn();
    env.providers.script({ kind: "text", text: "The replayed answer." });

    const replayed = await replayOk(attemptId, {});

    expect(env.providers.requests).toHaveLength(1);
    const received = env.providers.requests[0];
    expect(received.path).toBe(original.path);
    expect(received.body).toBe(original.body);
    expect(replayed).toMatchObject({
      kind: "replay",
      turnId: null,
      replayOf: attemptId,
      modelId: "openai:gpt-4.1-mini",
      status: "ok",
      error: null,
      response: { text: "The replayed answer.", finishReason: "stop" },
    });
    expect(replayed.requests.map((request) => request.body)).toEqual([original.body]);
    // What the resent body was built from is the source's: the payload diff shows nothing changed.
    expect(replayed.items).toEqual(turns[0].attempts[0].items);
    expect(replayed.usage?.inputTokens).toBeGreaterThan(0);
    expect(replayed.timings.doneMs).toBeGreaterThan(0);

    expect(await storedMessages(conversationId)).toEqual(messages);
    const after = await fetchTurns(ada, conversationId);
    expect(after.turns).toEqual(turns);
    const listed = (JSON.parse(after.raw) as { otherCalls: Array<{ id: string; kind: string }> }).otherCalls;
    // Beside the conversation's title call (offline in tests), the replay is listed with its kind.
    expect(
      listed.filter((attempt) => attempt.kind !== "title").map((attempt) => [attempt.id, attempt.kind]),
    ).toEqual([[replayed.id, "replay"]]);
  });

  test("unchanged with an image in the history: the media is put back, the body is the same bytes", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    const image = await insertImageMessage({ conversationId, user: ada, text: "A picture of my tulips." });
    env.providers.script({ kind: "text", text: "Lovely tulips." });
    await runTurn(ada, conversationId, "What do you see?");
    const original = env.providers.requests[0];
    expect(original.body).toContain(image.base64);
    const { turns } = await fetchTurns(ada, conversationId);
    env.providers.reset();
    env.providers.script({ kind: "text", text: "Still lovely." });

    const replayed = await replayOk(turns[0].attempts[0].id, {});

    expect(env.providers.requests.map((request) => request.body)).toEqual([original.body]);
    expect(replayed.requests.map((request) => request.body)).toEqual([original.body]);
  });

  test("what-if persona prompt: only the system message changes, and only by the prompt", async () => {
    const { attemptId, original } = await answeredTurn("Old prompt.");
    env.providers.script({ kind: "text", text: "A newer answer." });

    const replayed = await replayOk(attemptId, { systemPrompt: "New prompt." });

    const before = JSON.parse(original.body) as ChatBody;
    const after = JSON.parse(env.providers.requests[0].body) as ChatBody;
    expect(JSON.stringify(before.messages[0])).toContain("Old prompt.");
    expect(after.messages[0]).toEqual(
      JSON.parse(JSON.stringify(before.messages[0]).replace("Old prompt.", "New prompt.")),
    );
    expect({ ...after, messages: after.messages.slice(1) }).toEqual({
      ...before,
      messages: before.messages.slice(1),
    });
    expect(replayed.response?.text).toBe("A newer answer.");
  });

  test("what-if context note at depth 0: exactly one message is added, the note", async () => {
    const { attemptId, original } = await answeredTurn();
    env.providers.script({ kind: "text", text: "Noted." });

    await replayOk(attemptId, { settings: { contextNote: { text: "Remember the fox.", depth: 0 } } });

    const before = JSON.parse(original.body) as ChatBody;
    const after = JSON.parse(env.providers.requests[0].body) as ChatBody;
    const noteIndexes = after.messages
      .map((message, index) => (JSON.stringify(message).includes("Remember the fox.") ? index : -1))
      .filter((index) => index >= 0);
    expect(noteIndexes).toHaveLength(1);
    expect(original.body).not.toContain("Remember the fox.");
    const withoutNote = after.messages.filter((_, index) => index !== noteIndexes[0]);
    expect({ ...after, messages: withoutNote }).toEqual(before);
  });

  test("another model: the turn is rebuilt in Gemini's wire format", async () => {
    const { attemptId } = await answeredTurn();
    env.providers.script({ kind: "text", text: "Gemini says ten centimetres." });

    const replayed = await replayOk(attemptId, { modelId: "google:gemini-2.5-flash" });

    expect(env.providers.requests).toHaveLength(1);
    const received = env.providers.requests[0];
    expect(received.protocol).toBe("gemini");
    expect(received.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    const body = JSON.parse(received.body) as {
      contents: Array<{ role: string; parts: Array<{ text?: string }> }>;
      systemInstruction: unknown;
    };
    expect(body.contents.at(-1)).toEqual({
      role: "user",
      parts: [{ text: "How deep should tulips be planted?" }],
    });
    expect(JSON.stringify(body.systemInstruction)).toContain("Old prompt.");
    expect(replayed).toMatchObject({
      kind: "replay",
      replayOf: attemptId,
      modelId: "google:gemini-2.5-flash",
      response: { text: "Gemini says ten centimetres." },
    });
    expect(replayed.requests.map((request) => request.body)).toEqual([received.body]);
  });

  test("a title call, generated whole: resent byte for byte; it cannot be rebuilt with another model", async () => {
    const titleModelOverride = process.env.TITLE_MODEL_ID;
    delete process.env.TITLE_MODEL_ID;
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    try {
      env.providers.script({ kind: "text", text: "Soil acidity." }, { kind: "text", text: "Garden Soil" });
      await runTurn(ada, conversationId, "How do I test my garden soil?");
      await settleTitleGenerations();
    } finally {
      if (titleModelOverride !== undefined) process.env.TITLE_MODEL_ID = titleModelOverride;
    }
    const titleBody = env.providers.requests[1].body;
    expect(JSON.parse(titleBody).stream).toBeFalsy();
    const { raw } = await fetchTurns(ada, conversationId);
    const [title] = (JSON.parse(raw) as { otherCalls: Array<{ id: string; kind: string }> }).otherCalls;
    expect(title.kind).toBe("title");
    env.providers.reset();
    env.providers.script({ kind: "text", text: "Testing Garden Soil" });

    const replayed = await replayOk(title.id, {});

    expect(env.providers.requests.map((request) => request.body)).toEqual([titleBody]);
    expect(replayed).toMatchObject({
      kind: "replay",
      replayOf: title.id,
      response: { text: "Testing Garden Soil" },
    });
    expect(
      await expectError(
        await replay(ada, title.id, { modelId: "google:gemini-2.5-flash" }),
        400,
        "bad_request",
      ),
    ).toMatch(/Only a reply's attempt can be rebuilt/);
  });

  test("a stranger gets 404, bad input 400, an unknown model 422, a replay of a replay 400", async () => {
    const { attemptId } = await answeredTurn();
    const eve = await signUp("Eve");
    await expectError(await replay(eve, attemptId, {}), 404, "not_found");
    expect(await expectError(await replay(ada, attemptId, { model: "x" }), 400, "bad_request")).toMatch(
      /model/,
    );
    await expectError(await replay(ada, attemptId, { modelId: 7 }), 400, "bad_request");
    await expectError(
      await replay(ada, attemptId, { settings: { history: { messageFetchLimit: -1 } } }),
      400,
      "bad_request",
    );
    await expectError(
      await replay(ada, attemptId, { modelId: "openai:no-such-model" }),
      422,
      "model_unavailable",
    );
    expect(env.providers.requests).toEqual([]);

    env.providers.script({ kind: "text", text: "Again." });
    const replayed = await replayOk(attemptId, {});
    expect(await expectError(await replay(ada, replayed.id, {}), 400, "bad_request")).toMatch(
      /cannot be replayed/,
    );
  });

  test("rate-limited like chat: over the per-minute limit is 429 with retry-after", async () => {
    const previous = process.env.CHAT_RATE_LIMIT_PER_MINUTE;
    const { attemptId } = await answeredTurn();
    process.env.CHAT_RATE_LIMIT_PER_MINUTE = "1";
    try {
      // The turn above already counted for Ada: a fresh user owns nothing, and 404s still count against the limit.
      const carol = await signUp("Carol");
      await expectError(await replay(carol, attemptId, {}), 404, "not_found");
      const refused = await replay(carol, attemptId, {});
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await expectError(refused, 429, "rate_limited")).toMatch(/at most 1 per 60 seconds/);
    } finally {
      if (previous === undefined) delete process.env.CHAT_RATE_LIMIT_PER_MINUTE;
      else process.env.CHAT_RATE_LIMIT_PER_MINUTE = previous;
    }
    expect(env.providers.requests).toEqual([]);
  });
});
