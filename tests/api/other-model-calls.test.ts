// Every model call is an attempt: a manual compaction, a title and a write-as-me draft each record attempts of
// their kind under the conversation (no turn), with the exact bytes the provider received. They are listed as the
// conversation's other model calls, open through GET /api/attempts/:id, and only the conversation's readers see them.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import * as turnsRoute from "@/app/api/conversations/[id]/turns/route";
import * as writeAsMeRoute from "@/app/api/conversations/[id]/write-as-me/route";
import { settleTitleGenerations } from "@/lib/chat/generated/title";
import { countItemTokens } from "@/lib/context/tokens";
import { call, expectError, signUp, type TestUser } from "../api-client";
import { type FakeProviderEnv, startFakeProviderEnv } from "../fixtures/fake-provider-env";
import { conversationWithPersona } from "../fixtures/personas";
import { type AttemptView, runTurn } from "../fixtures/turns";
import { compactOk, setOverride } from "./summary-helpers";

interface OtherCall extends AttemptView {
  kind: string;
  turnId: string | null;
  budget: { totalTokens: number } | null;
}

let env: FakeProviderEnv;
let ada: TestUser;
let eve: TestUser;
/** The test setup points every title at the offline model; here titles come from the fake provider. */
const titleModelOverride = process.env.TITLE_MODEL_ID;

beforeAll(async () => {
  delete process.env.TITLE_MODEL_ID;
  env = await startFakeProviderEnv();
  [ada, eve] = await Promise.all([signUp("Ada"), signUp("Eve")]);
});

afterAll(async () => {
  if (titleModelOverride !== undefined) process.env.TITLE_MODEL_ID = titleModelOverride;
  await env.close();
});

beforeEach(() => {
  env.providers.reset();
});

async function otherCalls(user: TestUser, conversationId: string, fields?: "summary") {
  const query = fields ? "?fields=summary" : "";
  const response = await call(turnsRoute.GET, `/api/conversations/${conversationId}/turns${query}`, {
    user,
    params: { id: conversationId },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { otherCalls: OtherCall[] }).otherCalls;
}

function getAttempt(user: TestUser, attemptId: string) {
  return call(attemptRoute.GET, `/api/attempts/${attemptId}`, { user, params: { id: attemptId } });
}

/** The conversation's single other call of this kind, opened through GET /api/attempts/:id by its owner. */
async function openOnly(conversationId: string, kind: string): Promise<OtherCall> {
  const listed = (await otherCalls(ada, conversationId)).filter((attempt) => attempt.kind === kind);
  expect(listed).toHaveLength(1);
  const light = (await otherCalls(ada, conversationId, "summary")).filter((attempt) => attempt.kind === kind);
  expect(light.map((attempt) => [attempt.id, attempt.kind, attempt.turnId])).toEqual([
    [listed[0].id, kind, null],
  ]);
  const response = await getAttempt(ada, listed[0].id);
  expect(response.status).toBe(200);
  const { attempt } = (await response.json()) as { attempt: OtherCall };
  expect(attempt).toEqual(listed[0]);
  return attempt;
}

/** An item's text as the body carries it: JSON-escaped, without the quotes. */
function asInBody(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** The attempt lists what it sent: items with text, each found in the body after the one before it. */
function expectItemsInBody(attempt: OtherCall, body: string) {
  const texts = attempt.items
    .map((item) =>
      item.parts.flatMap((part) => (part.type === "text" && part.text ? [part.text] : [])).join(""),
    )
    .filter((text) => text.length > 0);
  expect(texts.length).toBeGreaterThan(0);
  let from = 0;
  for (const text of texts) {
    const at = body.indexOf(asInBody(text), from);
    expect(
      at,
      `item text ${JSON.stringify(text.slice(0, 60))} in the body after offset ${from}`,
    ).toBeGreaterThanOrEqual(0);
    from = at + 1;
  }
}

/** A plain call's two items (instructions, prompt) are exactly the system and user messages the body holds. */
function expectPlainCallItems(attempt: OtherCall, body: string) {
  const messages = (JSON.parse(body) as { messages: { role: string; content: string }[] }).messages;
  expect(messages.map((message) => message.role)).toEqual(["system", "user"]);
  const items = attempt.items as unknown as {
    id: string;
    role: string;
    tag: string;
    parts: { type: "text"; text: string }[];
    tokens: number;
    wirePaths?: string[];
  }[];
  expect(items.map((item) => [item.id, item.role, item.tag, item.parts])).toEqual([
    ["call:instructions", "system", "SYSTEM_PROMPT", [{ type: "text", text: messages[0].content }]],
    ["call:prompt", "user", "CURRENT_INPUT", [{ type: "text", text: messages[1].content }]],
  ]);
  // Each points at its message in the body (docs/features.md#wire-reconciliation).
  expect(items.map((item) => item.wirePaths)).toEqual([["/messages/0"], ["/messages/1"]]);
  // Counted with the model's tokenizer (gpt-4.1-mini: o200k_base), as the budget counts a reply's items.
  expect(items.map((item) => item.tokens)).toEqual(items.map((item) => countItemTokens(item, "o200k_base")));
  expect(items.every((item) => item.tokens > 4)).toBe(true);
  expect(attempt.budget?.totalTokens).toBe(items[0].tokens + items[1].tokens);
}

describe("other model calls are attempts of their kind", () => {
  test("a title: the recorded body is the bytes the provider received; strangers cannot read it", async () => {
    const id = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    env.providers.script(
      { kind: "text", text: "Soil acidity." },
      { kind: "text", text: "Garden Soil Testing" },
    );
    await runTurn(ada, id, "How do I test my garden soil?");
    await settleTitleGenerations();

    const titleCall = env.providers.requests[1];
    const attempt = await openOnly(id, "title");
    expect(attempt).toMatchObject({
      turnId: null,
      attemptNumber: 1,
      modelId: "openai:gpt-4.1-mini",
      status: "ok",
      error: null,
      response: { text: "Garden Soil Testing", finishReason: "stop" },
    });
    expect(attempt.requests.map((request) => request.body)).toEqual([titleCall.body]);
    expect(JSON.parse(titleCall.body).stream).toBeFalsy();
    // Listed like a reply's items: what was sent, with token counts.
    expectPlainCallItems(attempt, titleCall.body);
    expectItemsInBody(attempt, titleCall.body);

    await expectError(await getAttempt(eve, attempt.id), 404, "not_found");
    await expectError(
      await call(turnsRoute.GET, `/api/conversations/${id}/turns`, { user: eve, params: { id } }),
      404,
      "not_found",
    );
  });

  test("a manual compaction: one summary attempt with the summariser's exact request", async () => {
    const id = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    await setOverride(ada, id, { summary: { mode: "manual", keepRecentTurns: 1 } });
    process.env.TITLE_MODEL_ID = "offline:echo";
    try {
      for (let turn = 1; turn <= 3; turn++) await runTurn(ada, id, `Question ${turn}.`);
      await settleTitleGenerations();
    } finally {
      delete process.env.TITLE_MODEL_ID;
    }
    env.providers.reset();
    env.providers.script({ kind: "text", text: "Ada asked three questions." });
    const summary = await compactOk(ada, id);
    expect(summary.content).toBe("Ada asked three questions.");

    expect(env.providers.requests).toHaveLength(1);
    const attempt = await openOnly(id, "summary");
    expect(attempt).toMatchObject({
      modelId: "openai:gpt-4.1-mini",
      status: "ok",
      response: { text: "Ada asked three questions." },
    });
    expect(attempt.requests.map((request) => request.body)).toEqual([env.providers.requests[0].body]);
    expect(env.providers.requests[0].body).toContain("Question 1.");
    expectPlainCallItems(attempt, env.providers.requests[0].body);
    expectItemsInBody(attempt, env.providers.requests[0].body);
    await expectError(await getAttempt(eve, attempt.id), 404, "not_found");
  });

  test("a write-as-me draft: failed tries are attempts too, each with its own body", async () => {
    const id = await conversationWithPersona(ada, {
      modelId: "openai:gpt-4.1-mini",
      fallbackModelIds: ["openai:gpt-4o"],
    });
    process.env.TITLE_MODEL_ID = "offline:echo";
    try {
      await runTurn(ada, id, "I want to visit Lisbon in May.");
      await settleTitleGenerations();
    } finally {
      delete process.env.TITLE_MODEL_ID;
    }
    env.providers.reset();
    // The first model refuses (not retried: a 400), the fallback writes the draft.
    env.providers.script(
      { kind: "error", status: 400, message: "bad request from the fake" },
      { kind: "text", text: "The 12th to the 16th, please." },
    );
    const response = await call(writeAsMeRoute.POST, `/api/conversations/${id}/write-as-me`, {
      user: ada,
      method: "POST",
      params: { id },
    });
    expect(await response.json()).toEqual({
      draft: "The 12th to the 16th, please.",
      modelId: "openai:gpt-4o",
    });

    const listed = (await otherCalls(ada, id)).filter((attempt) => attempt.kind === "write_as_me");
    expect(listed.map((attempt) => [attempt.attemptNumber, attempt.modelId, attempt.status])).toEqual([
      [1, "openai:gpt-4.1-mini", "error"],
      [2, "openai:gpt-4o", "ok"],
    ]);
    expect(listed.map((attempt) => attempt.requests.map((request) => request.body))).toEqual(
      env.providers.requests.map((request) => [request.body]),
    );
    expect(listed[0].error).toMatchObject({ code: "provider_error", status: 400 });
    // The draft is built by the pipeline: each try lists the items it sent, in the order its body holds them.
    for (const [index, attempt] of listed.entries()) {
      const opened = (await (await getAttempt(ada, attempt.id)).json()) as { attempt: OtherCall };
      expect(opened.attempt.items.map((item) => item.tag)).toContain("CURRENT_INPUT");
      expectItemsInBody(opened.attempt, env.providers.requests[index].body);
    }
    for (const attempt of listed) await expectError(await getAttempt(eve, attempt.id), 404, "not_found");
  });
});
