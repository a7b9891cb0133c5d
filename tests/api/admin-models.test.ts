import { afterEach, beforeAll, describe, expect, test } from "vitest";
import * as modelRoute from "@/app/api/admin/models/[id]/route";
import * as modelsRoute from "@/app/api/admin/models/route";
import * as personaRoute from "@/app/api/admin/personas/[id]/route";
import * as personasRoute from "@/app/api/admin/personas/route";
import * as settingsRoute from "@/app/api/admin/settings/route";
import { getDb } from "@/db/client";
import { getModel, listModels } from "@/db/model-queries";
import type { Model, Persona } from "@/db/schema";
import { defaultSettings } from "@/lib/domain/settings";
import { call, expectError, type TestUser } from "../api-client";
import { isolateDatabase, putAdminItem, signUpAdmin } from "./admin-helpers";

isolateDatabase("admin_models");

let admin: TestUser;

beforeAll(async () => {
  admin = await signUpAdmin("Model Admin");
});

const savedEnv = { ...process.env };
afterEach(() => {
  for (const key of ["OPENAI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "OPENAI_COMPATIBLE_BASE_URL"]) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
});

const capabilities = {
  vision: false,
  video: false,
  tools: true,
  reasoning: false,
  systemInstruction: true,
  strictAlternation: true,
  maxStopSequences: 4,
};

function newModel(id: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    provider: "openai-compatible",
    providerModelName: "llama-3.1-8b",
    label: "Local Llama",
    capabilities,
    contextWindow: 8_192,
    maxOutputTokens: 2_048,
    tokenizer: "estimate",
    ...overrides,
  };
}

async function createModel(id: string, overrides: Record<string, unknown> = {}): Promise<Model> {
  const response = await call(modelsRoute.POST, "/api/admin/models", {
    user: admin,
    body: newModel(id, overrides),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { model: Model }).model;
}

function put(id: string, body: unknown) {
  return putAdminItem(admin, modelRoute.PUT, "models", id, body);
}

function remove(id: string) {
  return call(modelRoute.DELETE, `/api/admin/models/${id}`, {
    user: admin,
    method: "DELETE",
    params: { id },
  });
}

describe("the model registry", () => {
  test("GET lists the seeded models and which providers are configured, as booleans only", async () => {
    process.env.OPENAI_API_KEY = "sk-secret-never-returned";
    delete process.env.GOOGLE_GENERATIVE_AI_API_KEY;
    process.env.OPENAI_COMPATIBLE_BASE_URL = "http://127.0.0.1:1/secret-path";
    const response = await call(modelsRoute.GET, "/api/admin/models", { user: admin });
    const text = await response.text();
    expect(text).not.toContain("sk-secret-never-returned");
    expect(text).not.toContain("secret-path");
    const body = JSON.parse(text) as { models: Model[]; configuredProviders: Record<string, boolean> };
    expect(body.configuredProviders).toEqual({
      openai: true,
      google: false,
      anthropic: false,
      "openai-compatible": true,
      offline: true,
    });
    expect(body.models.map((model) => model.id)).toContain("offline:echo");
    expect(
      body.models.find((model) => model.id === "google:gemma-3-27b-it")?.capabilities.systemInstruction,
    ).toBe(false);
  });

  test("create, update and delete a model", async () => {
    const created = await createModel("openai-compatible:llama-test");
    expect(created).toMatchObject({
      id: "openai-compatible:llama-test",
      apiKind: "chat",
      enabled: true,
      capabilities,
    });

    const updated = await put(created.id, {
      label: "Llama (edited)",
      capabilities: { ...capabilities, vision: true },
      contextWindow: 16_384,
      enabled: false,
    });
    expect(updated.status, await updated.clone().text()).toBe(200);
    expect(((await updated.json()) as { model: Model }).model).toMatchObject({
      label: "Llama (edited)",
      contextWindow: 16_384,
      enabled: false,
      capabilities: { vision: true },
    });

    expect(created.prices).toBeNull();
    const priced = await put(created.id, {
      prices: { inputPerMillion: 0.5, cachedInputPerMillion: 0.05, outputPerMillion: 1.5 },
    });
    expect(((await priced.json()) as { model: Model }).model.prices).toEqual({
      inputPerMillion: 0.5,
      cachedInputPerMillion: 0.05,
      outputPerMillion: 1.5,
    });

    expect((await remove(created.id)).status).toBe(204);
    expect(await getModel({ db: await getDb(), modelId: created.id })).toBeNull();
    await expectError(await remove(created.id), 404, "not_found");
  });

  test("a duplicate id is a 409", async () => {
    await createModel("openai-compatible:twice");
    const again = await call(modelsRoute.POST, "/api/admin/models", {
      user: admin,
      body: newModel("openai-compatible:twice"),
    });
    expect(await expectError(again, 409, "conflict")).toBe(
      "A model with id openai-compatible:twice already exists.",
    );
  });

  test("deleting a model in use by a persona (main or fallback) or the policy is a 409 naming the users", async () => {
    const main = await createModel("openai-compatible:main-use");
    const fallback = await createModel("openai-compatible:fallback-use");
    const summariser = await createModel("openai-compatible:summary-use");
    const created = await call(personasRoute.POST, "/api/admin/personas", {
      user: admin,
      body: { name: "User Of Models", modelId: main.id, fallbackModelIds: [fallback.id] },
    });
    const { persona } = (await created.json()) as { persona: Persona };

    expect(await expectError(await remove(main.id), 409, "conflict")).toBe(
      "Model openai-compatible:main-use is in use by persona User Of Models: point them at another model first.",
    );
    expect(await expectError(await remove(fallback.id), 409, "conflict")).toMatch(
      /in use by persona User Of Models/,
    );

    const policy = {
      ...defaultSettings(),
      summary: { ...defaultSettings().summary, modelId: summariser.id },
    };
    expect(
      (await call(settingsRoute.PUT, "/x", { user: admin, method: "PUT", body: { settings: policy } }))
        .status,
    ).toBe(200);
    expect(await expectError(await remove(summariser.id), 409, "conflict")).toMatch(
      /the context policy's summary.modelId/,
    );

    const db = await getDb();
    for (const id of [main.id, fallback.id, summariser.id])
      expect(await getModel({ db, modelId: id })).not.toBeNull();

    // Once nothing uses them, they go.
    await call(personaRoute.DELETE, "/x", { user: admin, method: "DELETE", params: { id: persona.id } });
    await call(settingsRoute.PUT, "/x", {
      user: admin,
      method: "PUT",
      body: { settings: defaultSettings() },
    });
    for (const id of [main.id, fallback.id, summariser.id]) expect((await remove(id)).status).toBe(204);
  });

  test("a built-in model cannot be deleted (it would come back at start-up): disable it instead", async () => {
    const message = await expectError(await remove("openai:gpt-4o"), 409, "conflict");
    expect(message).toMatch(/built in .* disable it instead/);
    expect((await put("openai:gpt-4o", { enabled: false })).status).toBe(200);
    expect((await getModel({ db: await getDb(), modelId: "openai:gpt-4o" }))?.enabled).toBe(false);
    await put("openai:gpt-4o", { enabled: true });
  });
});

describe("model validation: a clear 400, nothing stored", () => {
  const cases: Array<{ name: string; body: unknown; message: RegExp }> = [
    { name: "no id", body: { ...newModel("x:y"), id: undefined }, message: /^id: id must be text$/ },
    { name: "an id with a slash", body: newModel("bad/id"), message: /id must be 1–200 letters/ },
    {
      name: "an unknown provider",
      body: newModel("x:a", { provider: "mistral" }),
      message: /provider must be one of: openai, openai-compatible, google, anthropic, offline/,
    },
    {
      name: "responses on a non-OpenAI provider",
      body: newModel("x:b", { apiKind: "responses" }),
      message: /apiKind: apiKind responses is only for the openai provider/,
    },
    {
      name: "a missing capability",
      body: newModel("x:c", { capabilities: { ...capabilities, vision: undefined } }),
      message: /capabilities.vision must be true or false/,
    },
    {
      name: "an unknown capability",
      body: newModel("x:d", { capabilities: { ...capabilities, telepathy: true } }),
      message: /Unrecognized key: "telepathy"/,
    },
    {
      name: "too many stop sequences",
      body: newModel("x:e", { capabilities: { ...capabilities, maxStopSequences: 65 } }),
      message: /maxStopSequences must be a whole number from 0 to 64/,
    },
    {
      name: "a tiny context window",
      body: newModel("x:f", { contextWindow: 10 }),
      message: /contextWindow must be a whole number from 256 to 100000000/,
    },
    {
      name: "an output larger than the window",
      body: newModel("x:g", { maxOutputTokens: 9_000 }),
      message: /maxOutputTokens must not exceed contextWindow/,
    },
    {
      name: "an unknown tokenizer",
      body: newModel("x:h", { tokenizer: "bpe" }),
      message: /tokenizer must be one of: o200k_base, cl100k_base, estimate/,
    },
    { name: "an empty label", body: newModel("x:i", { label: " " }), message: /label must not be empty/ },
    {
      name: "a negative price",
      body: newModel("x:j", {
        prices: { inputPerMillion: -1, cachedInputPerMillion: 0, outputPerMillion: 1 },
      }),
      message:
        /prices.inputPerMillion: prices.inputPerMillion must be a number of US dollars per million tokens/,
    },
    {
      name: "prices without the cached rate",
      body: newModel("x:k", { prices: { inputPerMillion: 1, outputPerMillion: 1 } }),
      message: /prices.cachedInputPerMillion must be a number/,
    },
  ];

  test.each(cases)("create with $name", async ({ body, message }) => {
    const before = (await listModels({ db: await getDb() })).length;
    const response = await call(modelsRoute.POST, "/api/admin/models", { user: admin, body });
    expect(await expectError(response, 400, "bad_request")).toMatch(message);
    expect((await listModels({ db: await getDb() })).length).toBe(before);
  });

  test("updates are checked against the whole row, and the id cannot change", async () => {
    const model = await createModel("openai-compatible:checked");
    expect(await expectError(await put(model.id, { apiKind: "responses" }), 400, "bad_request")).toMatch(
      /responses is only for the openai provider/,
    );
    expect(await expectError(await put(model.id, { maxOutputTokens: 100_000 }), 400, "bad_request")).toMatch(
      /must not exceed contextWindow/,
    );
    expect(await expectError(await put(model.id, { id: "other:id" }), 400, "bad_request")).toMatch(
      /Unrecognized key: "id"/,
    );
    expect(await expectError(await put(model.id, {}), 400, "bad_request")).toMatch(/Nothing to change/);
    expect(await getModel({ db: await getDb(), modelId: model.id })).toMatchObject({
      apiKind: "chat",
      maxOutputTokens: 2_048,
    });
    await expectError(await put("openai-compatible:nobody", { label: "x" }), 404, "not_found");
  });
});
