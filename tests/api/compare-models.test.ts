// Compare models on a turn: POST /api/chat/:id/compare runs the latest turn again on each named model, one after
// another; each answer is a variant of the reply with its own attempts, and the variant chosen afterwards is
// what the next turn sends.
import { describe, expect, test } from "vitest";
import * as compareRoute from "@/app/api/chat/[id]/compare/route";
import { call, expectError, readUIStream, type TestUser } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { GEMINI_MODEL_ID as GEMINI, insertModel, OPENAI_MODEL_ID as OPENAI } from "../fixtures/models";
import { createConversation, insertPersona } from "../fixtures/personas";
import { fetchTurns, runTurn, storedMessages, streamedText, UIStreamReader } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";
import { patchMessage, stop, transcript, wireHistory } from "./reply-helpers";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");
const bob = signedUpForFile("Bob");

function postCompare(user: TestUser, conversationId: string, body: unknown) {
  return call(compareRoute.POST, `/api/chat/${conversationId}/compare`, {
    user,
    method: "POST",
    params: { id: conversationId },
    body,
  });
}

/** A conversation on the fake OpenAI model with one answered turn; its reply. */
async function answeredConversation() {
  const persona = await insertPersona({ modelId: OPENAI });
  const conversationId = await createConversation(ada, persona);
  env.providers.script({ kind: "text", text: "First answer.", protocol: "openai-chat" });
  await runTurn(ada, conversationId, "Which answer is best?");
  const [question, reply] = await storedMessages(conversationId);
  return { conversationId, question, reply };
}

/** Each model's part of the comparison's stream: the model it names and the text that followed. */
function comparedParts(chunks: Array<Record<string, unknown>>) {
  const parts: Array<{ modelId: string; text: string; messageId?: string; error?: string }> = [];
  for (const chunk of chunks) {
    if (chunk.type === "data-compare") {
      const data = chunk.data as { modelId: string; error?: string };
      parts.push({ modelId: data.modelId, text: "", ...(data.error ? { error: data.error } : {}) });
      continue;
    }
    const part = parts.at(-1);
    if (part && chunk.type === "start") part.messageId = chunk.messageId as string;
    else if (part && chunk.type === "text-delta") part.text += streamedText([chunk]);
  }
  return parts;
}

describe("compare models on a turn", () => {
  test("each model's answer is a variant with its own attempts; the one the user chooses is what the next turn sends", async () => {
    const { conversationId, question, reply } = await answeredConversation();
    const other = await insertModel();
    env.providers.script(
      { kind: "text", text: "Gemini's answer.", protocol: "gemini" },
      { kind: "text", text: "The other model's answer.", protocol: "openai-chat" },
    );
    const response = await postCompare(ada, conversationId, {
      messageId: reply.id,
      modelIds: [GEMINI, other.id],
    });
    expect(response.status).toBe(200);
    const parts = comparedParts(await readUIStream(response));
    expect(parts.map(({ modelId, text }) => ({ modelId, text }))).toEqual([
      { modelId: GEMINI, text: "Gemini's answer." },
      { modelId: other.id, text: "The other model's answer." },
    ]);
    // One request per model, each with that model's id (after the first turn's).
    expect(env.providers.requests.map((request) => request.model)).toEqual([
      "gpt-4.1-mini",
      "gemini-2.5-flash",
      other.providerModelName,
    ]);

    const view = await transcript(ada, conversationId);
    const variants = view.variants[question.id];
    expect(variants.map((variant) => variant.id)).toEqual([reply.id, parts[0].messageId, parts[1].messageId]);
    // The reply shown before stays chosen until the user chooses an answer.
    expect(variants.map((variant) => variant.chosen)).toEqual([true, false, false]);
    expect(view.replyModels[parts[0].messageId as string]).toEqual({
      modelId: GEMINI,
      fallbackFromModelId: null,
    });
    expect(view.replyModels[parts[1].messageId as string]).toEqual({
      modelId: other.id,
      fallbackFromModelId: null,
    });

    // Each variant has its own turn and its own attempts, with the model that answered.
    const { turns } = await fetchTurns(ada, conversationId);
    const attemptsOf = (messageId: string | undefined) =>
      turns
        .filter((turn) => turn.assistantMessageId === messageId)
        .flatMap((turn) => turn.attempts.map((attempt) => [attempt.modelId, attempt.response?.text]));
    expect(attemptsOf(reply.id)).toEqual([[OPENAI, "First answer."]]);
    expect(attemptsOf(parts[0].messageId)).toEqual([[GEMINI, "Gemini's answer."]]);
    expect(attemptsOf(parts[1].messageId)).toEqual([[other.id, "The other model's answer."]]);

    // Use the second model's answer: the next turn's payload carries it, not the others.
    expect(
      (await patchMessage(ada, conversationId, parts[1].messageId as string, { chosen: true })).status,
    ).toBe(200);
    env.providers.script({ kind: "text", text: "Going on.", protocol: "openai-chat" });
    await runTurn(ada, conversationId, "Go on.");
    expect(wireHistory(env.providers.requests[3])).toEqual([
      ["user", "Which answer is best?"],
      ["assistant", "The other model's answer."],
      ["user", "Go on."],
    ]);
  });

  test.each([
    {
      what: "more than four models",
      modelIds: [OPENAI, GEMINI, "a:1", "b:2", "c:3"],
      message: "modelIds: at most 4 models are compared at once",
    },
    { what: "no model", modelIds: [], message: "modelIds must name at least one model" },
    {
      what: "a model named twice",
      modelIds: [GEMINI, OPENAI, GEMINI],
      message: `modelIds[2]: ${GEMINI} is named twice; compare distinct models.`,
    },
    {
      what: "an unknown model",
      modelIds: [GEMINI, "openai:no-such-model"],
      message:
        "modelIds[1]: Model openai:no-such-model is unknown, disabled or its provider is not configured.",
    },
  ])(
    "$what is refused with 400 naming the field, before any model is called",
    async ({ modelIds, message }) => {
      const { conversationId, reply } = await answeredConversation();
      const refused = await postCompare(ada, conversationId, { messageId: reply.id, modelIds });
      expect(await expectError(refused, 400, "bad_request")).toContain(message);
      expect(env.providers.requests).toHaveLength(1);
      expect(await storedMessages(conversationId)).toHaveLength(2);
    },
  );

  test("a disabled model is refused; only the owner may compare", async () => {
    const { conversationId, reply } = await answeredConversation();
    const disabled = await insertModel({ enabled: false });
    expect(
      await expectError(
        await postCompare(ada, conversationId, { messageId: reply.id, modelIds: [GEMINI, disabled.id] }),
        400,
        "bad_request",
      ),
    ).toBe(`modelIds[1]: Model ${disabled.id} is unknown, disabled or its provider is not configured.`);
    await expectError(
      await postCompare(bob, conversationId, { messageId: reply.id, modelIds: [GEMINI] }),
      404,
      "not_found",
    );
    expect(env.providers.requests).toHaveLength(1);
  });

  test("stopped: the answer being written is stopped, no further model starts, the reply stays chosen", async () => {
    const { conversationId, question, reply } = await answeredConversation();
    env.providers.script(
      {
        kind: "text",
        text: "A long answer, word by word.",
        protocol: "gemini",
        chunks: 20,
        chunkDelayMs: 100,
      },
      { kind: "text", text: "Never asked.", protocol: "openai-chat" },
    );
    const response = await postCompare(ada, conversationId, {
      messageId: reply.id,
      modelIds: [GEMINI, OPENAI],
    });
    const reader = new UIStreamReader(response);
    // The first model has begun its answer.
    expect(await reader.readDeltas(1)).toBe(true);
    // As the page does: the stream is let go, and the reply being written is stopped.
    await reader.cancel();
    expect((await stop(ada, conversationId, { shownChars: 1 })).status).toBe(200);

    const view = await waitFor(async () => {
      const current = await transcript(ada, conversationId);
      const variants = current.variants[question.id] ?? [];
      return variants.length === 2 && variants[0].chosen ? current : null;
    });
    expect(view.variants[question.id].map((variant) => variant.status)).toEqual(["complete", "stopped"]);
    expect(env.providers.requests.map((request) => request.model)).toEqual([
      "gpt-4.1-mini",
      "gemini-2.5-flash",
    ]);
  });
});

/** Polls `read` until it gives a value (a comparison goes on a moment after its reader has gone). */
async function waitFor<Value>(read: () => Promise<Value | null>): Promise<Value> {
  for (let tries = 0; tries < 100; tries++) {
    const value = await read();
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("still not there after 5 s");
}
