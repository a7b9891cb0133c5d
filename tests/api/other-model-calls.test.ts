// Every model call is an attempt: a manual compaction, a title and a write-as-me draft each record attempts of
// their kind under the conversation (no turn), with the exact bytes the provider received. They are listed as the
// conversation's other model calls, open through GET /api/attempts/:id, and only the conversation's readers see them.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import * as turnsRoute from "@/app/api/conversations/[id]/turns/route";
import * as writeAsMeRoute from "@/app/api/conversations/[id]/write-as-me/route";
import { settleTitleGenerations } from "@/lib/chat/title";
import { call, expectError, signUp, type TestUser } from "../api-client";
import { type FakeProviderEnv, startFakeProviderEnv } from "../fixtures/fake-provider-env";
import { conversationWithPersona } from "../fixtures/personas";
import { type AttemptView, runTurn } from "../fixtures/turns";
import { compactOk, setOverride } from "./summary-helpers";

interface OtherCall extends AttemptView {
  kind: string;
  turnId: string | null;
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
    for (const attempt of listed) await expectError(await getAttempt(eve, attempt.id), 404, "not_found");
  });
});
