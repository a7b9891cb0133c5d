// Call parameters through the gateway with the official `openai` client: temperature, top_p, the length
// (max_tokens, max_completion_tokens, max_output_tokens) and stop reach the fake provider's body exactly, within the
// persona's limits (the length never above the output its budget reserves, the stop strings after the persona's
// own under the model's cap); the attempt records them (its body, and a trace event saying what was applied); a
// value outside OpenAI's range is a 400 naming the field.
import { eq } from "drizzle-orm";
import type OpenAI from "openai";
import { describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import { getDb } from "@/db/client";
import { listPersonasWithSlugs } from "@/db/persona-queries";
import { type Persona, personas } from "@/db/schema";
import type { SettingsOverride } from "@/lib/domain/settings";
import type { TraceEvent } from "@/lib/domain/types";
import { call } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { insertPersona } from "../fixtures/personas";
import { signedUpForFile } from "../fixtures/users";
import { createKey, gatewayClient, refusedAsBadRequest } from "./gateway-fixtures";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

type ChatParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

async function persona(
  settingsOverride?: SettingsOverride,
  modelId = "openai:gpt-4.1-mini",
): Promise<Persona> {
  const row = await insertPersona({ modelId, name: `Tuned ${crypto.randomUUID()}` });
  const db = await getDb();
  if (settingsOverride) await db.update(personas).set({ settingsOverride }).where(eq(personas.id, row.id));
  return (await listPersonasWithSlugs({ db })).find((candidate) => candidate.id === row.id) as Persona;
}

async function client() {
  return gatewayClient((await createKey(ada, { name: "params" })).secret);
}

interface AttemptView {
  request: { body: string } | null;
  trace: TraceEvent[];
  warnings: string[];
}

async function recordedAttempt(response: Response): Promise<AttemptView> {
  const attemptId = response.headers.get("x-glassbox-attempt-id") as string;
  const answer = await call(attemptRoute.GET, `/api/attempts/${attemptId}`, {
    user: ada,
    params: { id: attemptId },
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { attempt: AttemptView }).attempt;
}

/** The provider's last body, and the attempt's record of it, which must be the same bytes. */
async function sentAndRecorded(response: Response) {
  const received = env.providers.requests.at(-1)?.body as string;
  const attempt = await recordedAttempt(response);
  expect(attempt.request?.body).toBe(received);
  const applied = attempt.trace.find((event) => event.action === "applied-call-options");
  return { body: JSON.parse(received) as Record<string, unknown>, applied };
}

/** A chat completion to `to` with `params`; its response, what the provider got and what the attempt recorded. */
async function chatCompletion(to: Persona, params: Omit<ChatParams, "model">) {
  const { response } = await (await client()).chat.completions
    .create({ model: to.slug as string, ...params })
    .withResponse();
  return { response, ...(await sentAndRecorded(response)) };
}

describe("chat completions parameters", () => {
  test("temperature, top_p, max_tokens and stop reach the provider exactly, and the attempt shows them", async () => {
    const tuned = await persona();
    const { body, applied } = await chatCompletion(tuned, {
      messages: [{ role: "user", content: "tune me" }],
      temperature: 0.3,
      top_p: 0.85,
      max_tokens: 77,
      stop: ["<<END>>", "###"],
    });
    expect(body).toMatchObject({ temperature: 0.3, top_p: 0.85, max_tokens: 77, stop: ["<<END>>", "###"] });
    expect(applied).toMatchObject({
      stage: "serialise",
      level: "info",
      details: { applied: { temperature: 0.3, topP: 0.85, maxOutputTokens: 77, stop: ["<<END>>", "###"] } },
    });
  });

  test("without parameters, the persona's own request: its reserve as max_tokens, no sampling fields", async () => {
    const tuned = await persona();
    const { body, applied } = await chatCompletion(tuned, { messages: [{ role: "user", content: "plain" }] });
    expect(body.max_tokens).toBe(4_096);
    expect(body).not.toHaveProperty("temperature");
    expect(body).not.toHaveProperty("top_p");
    expect(body).not.toHaveProperty("stop");
    expect(applied).toBeUndefined();
  });

  test("a stop string alone; max_completion_tokens wins over max_tokens", async () => {
    const tuned = await persona();
    const { body } = await chatCompletion(tuned, {
      messages: [{ role: "user", content: "one stop" }],
      stop: "<<END>>",
      max_tokens: 500,
      max_completion_tokens: 60,
    });
    expect(body).toMatchObject({ stop: ["<<END>>"], max_tokens: 60 });
  });

  test("more tokens than the persona reserves are lowered to its reserve, with a warning on the attempt", async () => {
    const tuned = await persona({ budget: { reservedOutputTokens: 1_000 } });
    const { body, applied } = await chatCompletion(tuned, {
      messages: [{ role: "user", content: "long" }],
      max_completion_tokens: 20_000,
    });
    expect(body.max_tokens).toBe(1_000);
    expect(applied).toMatchObject({
      level: "warning",
      details: { asked: { maxOutputTokens: 20_000 }, applied: { maxOutputTokens: 1_000 } },
    });
  });

  test("the client's stop strings follow the persona's, under the model's cap of 4 (the rest traced)", async () => {
    const tuned = await persona({ stop: { strings: ["P1", "P2", "P3"] } });
    const { body, response } = await chatCompletion(tuned, {
      messages: [{ role: "user", content: "stops" }],
      stop: ["C1", "P1", "C2"],
    });
    expect(body.stop).toEqual(["P1", "P2", "P3", "C1"]);
    const attempt = await recordedAttempt(response);
    expect(attempt.trace.find((event) => event.action === "dropped-stop-strings")).toMatchObject({
      details: { dropped: ["C2"], limit: 4 },
    });
  });
});

describe("where the persona's model takes no such setting", () => {
  test("a reasoning model: no temperature or top_p on the wire (the adapter's warnings say so), no stop at a cap of 0", async () => {
    const thinker = await persona({}, "openai:gpt-5-mini");
    const { body, response } = await chatCompletion(thinker, {
      messages: [{ role: "user", content: "think" }],
      temperature: 0.3,
      top_p: 0.5,
      stop: "<<END>>",
      max_tokens: 90,
    });
    expect(body).not.toHaveProperty("temperature");
    expect(body).not.toHaveProperty("top_p");
    expect(body).not.toHaveProperty("stop");
    expect(body.max_output_tokens).toBe(90);
    const attempt = await recordedAttempt(response);
    expect(attempt.warnings.join("\n")).toMatch(/temperature/);
    expect(attempt.trace.find((event) => event.action === "dropped-stop-strings")).toMatchObject({
      details: { dropped: ["<<END>>"], limit: 0 },
    });
  });
});

describe("responses parameters", () => {
  test("temperature, top_p and max_output_tokens reach the provider exactly", async () => {
    const tuned = await persona();
    const { response } = await (await client()).responses
      .create({
        model: tuned.slug as string,
        input: "tune the response",
        temperature: 1.4,
        top_p: 0.5,
        max_output_tokens: 123,
      })
      .withResponse();
    const { body, applied } = await sentAndRecorded(response);
    expect(body).toMatchObject({ temperature: 1.4, top_p: 0.5, max_tokens: 123 });
    expect(applied?.details).toMatchObject({
      applied: { temperature: 1.4, topP: 0.5, maxOutputTokens: 123 },
    });
  });
});

describe("out of range: BadRequestError naming the field, nothing sent", () => {
  test.each([
    [{ temperature: 2.5 }, "temperature"],
    [{ temperature: -0.1 }, "temperature"],
    [{ temperature: "hot" }, "temperature"],
    [{ top_p: 1.5 }, "top_p"],
    [{ max_tokens: 0 }, "max_tokens"],
    [{ max_tokens: 12.5 }, "max_tokens"],
    [{ max_completion_tokens: -3 }, "max_completion_tokens"],
    [{ stop: ["a", "b", "c", "d", "e"] }, "stop"],
    [{ stop: ["ok", ""] }, "stop[1]"],
    [{ stop: 42 }, "stop"],
  ])("chat %j: %s", async (fields, param) => {
    const tuned = await persona();
    await refusedAsBadRequest(
      (await client()).chat.completions.create({
        model: tuned.slug as string,
        messages: [{ role: "user", content: "x" }],
        ...fields,
      } as unknown as ChatParams),
      { param, type: "invalid_request_error" },
    );
    expect(env.providers.requests).toHaveLength(0);
  });

  test.each([
    [{ temperature: 3 }, "temperature"],
    [{ top_p: -1 }, "top_p"],
    [{ max_output_tokens: 0 }, "max_output_tokens"],
  ])("responses %j: %s", async (fields, param) => {
    const tuned = await persona();
    await refusedAsBadRequest(
      (await client()).responses.create({
        model: tuned.slug as string,
        input: "x",
        ...fields,
      } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming),
      { param },
    );
    expect(env.providers.requests).toHaveLength(0);
  });
});
