// Reasoning and provider metadata on the wire (docs/features.md#reasoning-and-provider-metadata): what a
// reasoning model sent with its reply (Gemini's thought signatures, the Responses API's reasoning items) is stored
// and goes back, unchanged, in later turns' bodies, as `reasoning.persist` says. Real routes, real Postgres, the
// fake providers speaking the real wire protocols; every body checked is the one the fake received.
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import * as exportRoute from "@/app/api/conversations/[id]/export/route";
import * as messagesRoute from "@/app/api/conversations/[id]/messages/route";
import * as importRoute from "@/app/api/conversations/import/route";
import { getDb } from "@/db/client";
import { artifacts } from "@/db/schema";
import type { ReasoningView } from "@/lib/chat/views/reasoning-view";
import type { SettingsOverride } from "@/lib/domain/settings";
import { call } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { conversationWithPersona } from "../fixtures/personas";
import { fetchTurns, runTurn, storedMessages } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";
import { patchConversation } from "./room-helpers";
import { setOverride } from "./summary-helpers";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { name: string; args: unknown };
  functionResponse?: { name: string };
}

/** The parts of every earlier model turn of a Gemini body, in order. */
function modelParts(body: string): GeminiPart[] {
  const contents = (JSON.parse(body) as { contents: { role: string; parts: GeminiPart[] }[] }).contents;
  return contents.filter((content) => content.role === "model").flatMap((content) => content.parts);
}

/** What the fake received, in order, and what each turn's attempts recorded: the same bytes. */
async function expectRecordedBodiesAreReceived(conversationId: string) {
  const { turns } = await fetchTurns(ada, conversationId);
  const recorded = turns.flatMap((turn) =>
    turn.attempts.flatMap((attempt) => attempt.requests.map((request) => request.body)),
  );
  expect(recorded).toEqual(env.providers.requests.map((request) => request.body));
}

/** A conversation with a Gemini persona that may call current_time. */
function geminiWithClock(): Promise<string> {
  return conversationWithPersona(ada, { modelId: "google:gemini-2.5-flash", toolNames: ["current_time"] });
}

describe("Gemini: thought signatures", () => {
  test("a tool loop over three turns carries each call's signature back unchanged", async () => {
    const conversationId = await geminiWithClock();
    const scriptTurn = (turn: number) =>
      env.providers.script(
        {
          kind: "tool-call",
          toolName: "current_time",
          input: {},
          id: `call_${turn}`,
          reasoning: { text: `Thought ${turn}: check the clock.` },
          thoughtSignature: `sig-call-${turn}`,
        },
        { kind: "text", text: `It is noon (${turn}).`, thoughtSignature: `sig-text-${turn}` },
      );

    for (const turn of [1, 2, 3]) {
      scriptTurn(turn);
      await runTurn(ada, conversationId, `What time is it? (${turn})`);
    }
    const bodies = env.providers.requests.map((request) => request.body);
    expect(bodies).toHaveLength(6);

    // The first call of each turn carries every earlier turn's call, thought and text with their signatures. Gemini
    // signs the call, not the thought: the thought goes back with the step it came in, as the loop sent it
    // (docs/pipeline.md#replayable-reasoning).
    const signatures = (body: string) =>
      modelParts(body).map((part) => ({
        kind: part.functionCall ? "call" : part.thought ? "thought" : "text",
        signature: part.thoughtSignature ?? null,
      }));
    expect(signatures(bodies[2] as string)).toEqual([
      { kind: "thought", signature: null },
      { kind: "call", signature: "sig-call-1" },
      { kind: "text", signature: "sig-text-1" },
    ]);
    expect(signatures(bodies[4] as string)).toEqual([
      { kind: "thought", signature: null },
      { kind: "call", signature: "sig-call-1" },
      { kind: "text", signature: "sig-text-1" },
      { kind: "thought", signature: null },
      { kind: "call", signature: "sig-call-2" },
      { kind: "text", signature: "sig-text-2" },
    ]);
    // The thoughts go back as thoughts, with their text, and nothing is traced as left out.
    expect(modelParts(bodies[4] as string).filter((part) => part.thought)).toEqual([
      { text: "Thought 1: check the clock.", thought: true },
      { text: "Thought 2: check the clock.", thought: true },
    ]);
    const { turns } = await fetchTurns(ada, conversationId);
    expect(turns[2]?.attempts[0]?.trace.find((event) => event.action === "not-replayable")).toBeUndefined();
    // Within a turn, the SDK's own loop sends the fresh call's signature with its result.
    expect(
      modelParts(bodies[5] as string).find((part) => part.thoughtSignature === "sig-call-3"),
    ).toBeDefined();

    // Stored as the provider sent them: the call's artifact and the reply's text keep the signature.
    const db = await getDb();
    const [, firstReply] = await storedMessages(conversationId);
    const rows = await db
      .select()
      .from(artifacts)
      .where(eq(artifacts.messageId, firstReply?.id ?? ""));
    const call = rows.find((row) => row.type === "function_call");
    expect(call?.payload.providerMetadata).toEqual({ google: { thoughtSignature: "sig-call-1" } });
    const reasoning = rows.find((row) => row.type === "reasoning");
    expect(reasoning?.payload).toMatchObject({ text: "Thought 1: check the clock." });
    expect(firstReply?.parts.at(-1)).toEqual({
      type: "text",
      text: "It is noon (1).",
      providerMetadata: { google: { thoughtSignature: "sig-text-1" } },
    });
    await expectRecordedBodiesAreReceived(conversationId);
  });
});

describe("export and import", () => {
  test("an imported conversation sends the same signatures and reasoning back", async () => {
    const conversationId = await geminiWithClock();
    env.providers.script(
      {
        kind: "tool-call",
        toolName: "current_time",
        input: {},
        reasoning: { text: "Check the clock." },
        thoughtSignature: "sig-call-x",
      },
      { kind: "text", text: "Noon.", thoughtSignature: "sig-text-x" },
    );
    await runTurn(ada, conversationId, "Time?");
    const exported = await call(exportRoute.GET, `/api/conversations/${conversationId}/export`, {
      user: ada,
      params: { id: conversationId },
    });
    expect(exported.status).toBe(200);
    const imported = await call(importRoute.POST, "/api/conversations/import", {
      user: ada,
      body: await exported.json(),
    });
    expect(imported.status).toBe(201);
    const { id: copyId } = (await imported.json()) as { id: string };

    await runTurn(ada, conversationId, "Thanks!");
    await runTurn(ada, copyId, "Thanks!");
    const [original, copy] = env.providers.requests.slice(-2).map((request) => modelParts(request.body));
    expect(copy).toEqual(original);
    // The unsigned thought is not sent back (docs/pipeline.md#replayable-reasoning), in the copy as in the original.
    expect(copy?.map((part) => part.thoughtSignature ?? null)).toEqual([null, "sig-call-x", "sig-text-x"]);
  });
});

interface ResponsesItem {
  type?: string;
  role?: string;
  id?: string;
  encrypted_content?: string;
  summary?: { type: string; text: string }[];
}

function responsesBody(index: number) {
  return JSON.parse(env.providers.requests[index]?.body ?? "{}") as {
    store?: boolean;
    include?: string[];
    input: ResponsesItem[];
  };
}

function reasoningItems(index: number): ResponsesItem[] {
  return responsesBody(index).input.filter((item) => item.type === "reasoning");
}

const SUMMARY = "The user wants Lisbon in one day; start at the castle.";
const ENCRYPTED = "gAAAAB-opaque-reasoning-1";

/** A conversation on a Responses reasoning model whose first reply reasoned, under `persist`. */
async function respondedWithReasoning(persist: NonNullable<SettingsOverride["reasoning"]>["persist"]) {
  const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-5-mini" });
  await setOverride(ada, conversationId, { reasoning: { persist } });
  env.providers.script({
    kind: "text",
    text: "Castle, then Alfama.",
    reasoning: { text: SUMMARY, encryptedContent: ENCRYPTED, durationMs: 1_200 },
  });
  await runTurn(ada, conversationId, "Plan a day in Lisbon.");
  const db = await getDb();
  const [, reply] = await storedMessages(conversationId);
  const [stored] = await db
    .select()
    .from(artifacts)
    .where(eq(artifacts.messageId, reply?.id ?? ""));
  return { db, conversationId, replyId: reply?.id ?? "", stored };
}

describe("Responses: reasoning items", () => {
  test("stored with the encrypted content the stateless request asked for, and the time it took", async () => {
    const { conversationId, replyId, stored } = await respondedWithReasoning("conversation");
    const first = responsesBody(0);
    expect(first.store).toBe(false);
    expect(first.include).toContain("reasoning.encrypted_content");
    expect(stored?.type).toBe("reasoning");
    expect(stored?.payload).toMatchObject({
      text: SUMMARY,
      providerMetadata: {
        openai: { itemId: expect.stringMatching(/^rs_/), reasoningEncryptedContent: ENCRYPTED },
      },
    });
    const { startedAt, endedAt } = (stored?.payload ?? {}) as { startedAt?: string; endedAt?: string };
    expect(startedAt).toBeDefined();
    // The fake spreads its 1.2 s of thinking over the reasoning's events; the stream is read as it comes.
    expect(Date.parse(endedAt ?? "") - Date.parse(startedAt ?? "")).toBeGreaterThanOrEqual(600);

    // The transcript says how long the model thought, and what.
    const response = await call(messagesRoute.GET, `/api/conversations/${conversationId}/messages`, {
      user: ada,
      params: { id: conversationId },
    });
    const { reasoning } = (await response.json()) as { reasoning: Record<string, ReasoningView> };
    expect(reasoning[replyId]).toMatchObject({ text: SUMMARY, hidden: false });
    expect(reasoning[replyId]?.durationMs).toBeGreaterThanOrEqual(600);

    // The attempt records the reasoning tokens of its usage.
    const { turns } = await fetchTurns(ada, conversationId);
    expect(turns[0]?.attempts[0]?.usage).toMatchObject({ reasoningTokens: expect.any(Number) });
  });

  test("the attempt that reasoned returns its reasoning with its response; a later one without reasoning, none", async () => {
    const { conversationId } = await respondedWithReasoning("conversation");
    await runTurn(ada, conversationId, "And the evening?");
    const { turns } = await fetchTurns(ada, conversationId);
    const [first, second] = turns.map((turn) => turn.attempts[0]?.id ?? "");
    const open = async (attemptId: string) => {
      const response = await call(attemptRoute.GET, `/api/attempts/${attemptId}`, {
        user: ada,
        params: { id: attemptId },
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { attempt: { response: { reasoning: ReasoningView | null } } })
        .attempt;
    };
    const reasoned = await open(first ?? "");
    expect(reasoned.response.reasoning).toEqual({
      text: SUMMARY,
      hidden: false,
      durationMs: expect.any(Number),
    });
    // The fake spreads its 1.2 s of thinking over the reasoning's events.
    expect(reasoned.response.reasoning?.durationMs).toBeGreaterThanOrEqual(600);
    expect((await open(second ?? "")).response.reasoning).toBeNull();
    // The turns listing returns the same view.
    expect((turns[0]?.attempts[0]?.response as { reasoning?: unknown } | null)?.reasoning).toEqual(
      reasoned.response.reasoning,
    );
  });

  test("conversation: replayed in every later turn with its id, summary and encrypted content", async () => {
    const { conversationId } = await respondedWithReasoning("conversation");
    await runTurn(ada, conversationId, "And the evening?");
    await runTurn(ada, conversationId, "Thanks!");
    const expected = {
      type: "reasoning",
      id: expect.stringMatching(/^rs_/),
      encrypted_content: ENCRYPTED,
      summary: [{ type: "summary_text", text: SUMMARY }],
    };
    expect(reasoningItems(1)).toEqual([expected]);
    // The second reply (the fake's default) did not reason: the first reply's reasoning is the only one.
    expect(reasoningItems(2)).toEqual([expected]);
    // It goes back right before the reply it preceded.
    const input = responsesBody(1).input;
    const at = input.findIndex((item) => item.type === "reasoning");
    expect(input[at + 1]).toMatchObject({ role: "assistant" });
    await expectRecordedBodiesAreReceived(conversationId);
  });

  test("next_reply: replayed in the next reply only, then deleted", async () => {
    const { db, conversationId, stored } = await respondedWithReasoning("next_reply");
    await runTurn(ada, conversationId, "And the evening?");
    expect(reasoningItems(1)).toHaveLength(1);
    expect(reasoningItems(1)[0]?.encrypted_content).toBe(ENCRYPTED);
    expect(
      await db
        .select()
        .from(artifacts)
        .where(eq(artifacts.id, stored?.id ?? "")),
    ).toEqual([]);

    await runTurn(ada, conversationId, "Thanks!");
    // The third request carries only the second reply's own reasoning (the fake's default reply has none).
    expect(reasoningItems(2)).toEqual([]);
    await expectRecordedBodiesAreReceived(conversationId);
  });

  test("disabled: never sent, still stored", async () => {
    const { db, conversationId, stored } = await respondedWithReasoning("disabled");
    await runTurn(ada, conversationId, "And the evening?");
    expect(reasoningItems(1)).toEqual([]);
    expect(env.providers.requests[1]?.body).not.toContain(ENCRYPTED);
    expect(
      await db
        .select()
        .from(artifacts)
        .where(eq(artifacts.id, stored?.id ?? "")),
    ).toHaveLength(1);
    await expectRecordedBodiesAreReceived(conversationId);
  });

  test("switched to Claude: the Responses reasoning is left out, named in the trace and not counted", async () => {
    const { conversationId } = await respondedWithReasoning("conversation");
    expect(
      (await patchConversation(ada, conversationId, { modelId: "anthropic:claude-sonnet-4-5" })).status,
    ).toBe(200);
    await runTurn(ada, conversationId, "And the evening?");
    const body = env.providers.requests[1]?.body ?? "";
    expect(body).toContain("Castle, then Alfama.");
    expect(body).not.toContain(SUMMARY);
    const attempt = (await fetchTurns(ada, conversationId)).turns[1]?.attempts[0];
    // What the token bar and the budget count is what the body holds: no REASONING item.
    expect(attempt?.items.map((item) => item.tag)).not.toContain("REASONING");
    const event = attempt?.trace.find((entry) => entry.action === "not-replayable");
    expect(event).toMatchObject({
      stage: "reasoning",
      reason:
        "Anthropic takes thinking back only with its own signature (anthropic.signature or anthropic.redactedData); it carries only openai metadata: the reasoning of 1 item is left out",
      details: { removedItems: [{ role: "assistant", tag: "REASONING", preview: SUMMARY, partial: false }] },
    });
    await expectRecordedBodiesAreReceived(conversationId);
  });

  test("without its encrypted content a reasoning item is left out of the stateless request", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-5-mini" });
    // A reasoning item the provider sent without encrypted content (as for a request that did not ask for it).
    env.providers.script({ kind: "text", text: "Castle, then Alfama.", reasoning: { text: SUMMARY } });
    await runTurn(ada, conversationId, "Plan a day in Lisbon.");
    await runTurn(ada, conversationId, "And the evening?");
    expect(reasoningItems(1)).toEqual([]);
    const attempt = (await fetchTurns(ada, conversationId)).turns[1]?.attempts[0];
    expect(attempt?.items.map((item) => item.tag)).not.toContain("REASONING");
    const event = attempt?.trace.find((entry) => entry.action === "not-replayable");
    expect(event?.reason).toBe(
      "OpenAI Responses requests are stateless (store: false) and take reasoning back only with its encrypted content (openai.reasoningEncryptedContent); it carries only openai metadata: the reasoning of 1 item is left out",
    );
    await expectRecordedBodiesAreReceived(conversationId);
  });

  test("a model that does not reason is never sent it", async () => {
    const { conversationId } = await respondedWithReasoning("conversation");
    const response = await patchConversation(ada, conversationId, { modelId: "openai:gpt-4.1-mini" });
    expect(response.status).toBe(200);
    await runTurn(ada, conversationId, "And the evening?");
    const body = env.providers.requests[1]?.body ?? "";
    expect(body).toContain("Castle, then Alfama.");
    expect(body).not.toContain(ENCRYPTED);
    expect(body).not.toContain(SUMMARY);
    const { turns } = await fetchTurns(ada, conversationId);
    const actions = turns[1]?.attempts[0]?.trace.map((event) => `${event.stage}/${event.action}`);
    expect(actions).toContain("reasoning/not-replayable");
  });
});
