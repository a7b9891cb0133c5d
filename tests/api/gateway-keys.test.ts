// API keys: created by a signed-in user with the secret shown once, listed without secrets and with their usage
// (calls, tokens, cost), revoked by their owner only; a revoked key is refused on its next call. GET /v1/models
// lists the personas a key may use by slug.
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import * as keysRoute from "@/app/api/keys/route";
import { slugOf } from "@/db/persona-queries";
import { call, expectError } from "../api-client";
import { fakeProvidersAndUsersForFile } from "../fixtures/file-setup";
import { insertPersona } from "../fixtures/personas";
import { METERED_REPLIES } from "../fixtures/turns";
import {
  createKey,
  GATEWAY_BASE_URL,
  gatewayClient,
  gatewayFetch,
  gatewayPersona,
  listKeys,
  revokeKey,
} from "./gateway-fixtures";

const { env, ada, bob } = fakeProvidersAndUsersForFile("Ada", "Bob");

interface ListedUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

async function usageByKey(user: typeof ada): Promise<Map<string, ListedUsage>> {
  const listed = (await (await listKeys(user)).json()) as { keys: { id: string; usage: ListedUsage }[] };
  return new Map(listed.keys.map((row) => [row.id, row.usage]));
}

describe("API keys", () => {
  test("created with a gbx_ secret shown once, listed without it, revoked by the owner only", async () => {
    const { key, secret } = await createKey(ada, { name: "  my script  " });
    expect(secret).toMatch(/^gbx_[A-Za-z0-9_-]{43}$/);
    expect(key).toEqual({
      id: expect.any(String),
      name: "my script",
      personaIds: null,
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
    });

    const listed = await listKeys(ada);
    expect(listed.status).toBe(200);
    const text = await listed.text();
    expect(text).not.toContain(secret);
    expect(text).not.toContain("secretHash");
    expect((JSON.parse(text) as { keys: { id: string }[] }).keys.map((row) => row.id)).toContain(key.id);
    // Bob sees none of Ada's keys, and cannot revoke one.
    const bobs = (await (await listKeys(bob)).json()) as { keys: { id: string }[] };
    expect(bobs.keys.map((row) => row.id)).not.toContain(key.id);
    await expectError(await revokeKey(bob, key.id), 404, "not_found");

    // The key works, and its use is recorded; once revoked it is refused at once.
    await gatewayClient(secret).models.list();
    await expect
      .poll(async () => {
        const rows = (await (await listKeys(ada)).json()) as {
          keys: { id: string; lastUsedAt: string | null }[];
        };
        return rows.keys.find((row) => row.id === key.id)?.lastUsedAt ?? null;
      })
      .not.toBeNull();
    expect((await revokeKey(ada, key.id)).status).toBe(204);
    await expectError(await revokeKey(ada, key.id), 404, "not_found");
    const error = await gatewayClient(secret)
      .models.list()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe("invalid_api_key");
    const remaining = (await (await listKeys(ada)).json()) as { keys: { id: string }[] };
    expect(remaining.keys.map((row) => row.id)).not.toContain(key.id);
  });

  test("each key's usage: its calls, the tokens its attempts reported and their cost, from one list", async () => {
    const model = (await gatewayPersona("Metered")).slug as string;
    const busy = await createKey(ada, { name: "busy" });
    const light = await createKey(ada, { name: "light" });
    const idle = await createKey(ada, { name: "idle" });
    env.providers.script(...METERED_REPLIES, {
      kind: "text",
      text: "Three.",
      usage: { inputTokens: 10, outputTokens: 5 },
    });
    const client = gatewayClient(busy.secret);
    const first = await client.chat.completions.create({
      model,
      messages: [{ role: "user", content: "one" }],
    });
    expect(first.choices[0].message.content).toBe("One.");
    // The second call continues the conversation, streaming, after a 429 that is retried: three attempts, two calls.
    let streamed = "";
    const stream = await client.chat.completions.create({
      model,
      stream: true,
      messages: [
        { role: "user", content: "one" },
        { role: "assistant", content: "One." },
        { role: "user", content: "two" },
      ],
    });
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? "";
    expect(streamed).toBe("Two.");
    await gatewayClient(light.secret).chat.completions.create({
      model,
      messages: [{ role: "user", content: "three" }],
    });
    expect(env.providers.requests).toHaveLength(4);

    const usage = await usageByKey(ada);
    expect(usage.get(busy.key.id)).toEqual({
      calls: 2,
      inputTokens: 3_000,
      outputTokens: 150,
      costUsd: expect.any(Number),
    });
    // 200 uncached × $0.40 + 800 cached × $0.10 + 100 × $1.60, then 2 000 × $0.40 + 50 × $1.60 (per million).
    expect(usage.get(busy.key.id)?.costUsd).toBeCloseTo(0.00032 + 0.00088, 12);
    expect(usage.get(light.key.id)).toEqual({
      calls: 1,
      inputTokens: 10,
      outputTokens: 5,
      costUsd: expect.any(Number),
    });
    expect(usage.get(light.key.id)?.costUsd).toBeCloseTo(0.000012, 12);
    expect(usage.get(idle.key.id)).toEqual({ calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });
    expect([...(await usageByKey(bob)).keys()]).not.toContain(busy.key.id);
  });

  test.each([
    [{ name: "" }, "name: name must not be empty"],
    [{ name: "x", personaIds: [] }, "personaIds: personaIds must name at least one persona"],
    [{ name: "x", personaIds: ["nope"] }, "personaIds.0: personaIds must hold persona ids"],
    [{ name: "x", personaIds: [crypto.randomUUID()] }, "personaIds: no persona"],
    [{ name: "x", secret: "mine" }, "Unrecognized key"],
  ])("%j is refused with 400: %s", async (body, message) => {
    const response = await call(keysRoute.POST, "/api/keys", { user: ada, body });
    expect(await expectError(response, 400, "bad_request")).toContain(message);
  });

  test("signed out: 401", async () => {
    await expectError(await call(keysRoute.GET, "/api/keys"), 401, "unauthorized");
    await expectError(await call(keysRoute.POST, "/api/keys", { body: { name: "x" } }), 401, "unauthorized");
  });
});

describe("GET /v1/models", () => {
  test("lists every persona by slug for an unscoped key, only the scope's for a scoped one", async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const first = await insertPersona({ modelId: "offline:echo", name: `Gateway Tutor ${suffix}` });
    const second = await insertPersona({ modelId: "offline:echo", name: `Gateway Critic ${suffix}` });
    const all = await gatewayClient((await createKey(ada, { name: "all" })).secret).models.list();
    const ids = all.data.map((model) => model.id);
    expect(ids).toContain(`gateway-tutor-${suffix}`);
    expect(ids).toContain(`gateway-critic-${suffix}`);
    expect(new Set(ids).size).toBe(ids.length);
    expect(all.data.find((model) => model.id === `gateway-tutor-${suffix}`)).toEqual({
      id: `gateway-tutor-${suffix}`,
      object: "model",
      created: Math.floor(first.createdAt.getTime() / 1000),
      owned_by: "glassbox",
    });

    const scoped = await createKey(ada, { name: "one", personaIds: [second.id] });
    expect(scoped.key.personaIds).toEqual([second.id]);
    const listed = await gatewayClient(scoped.secret).models.list();
    expect(listed.data.map((model) => model.id)).toEqual([`gateway-critic-${suffix}`]);
  });

  test.each([
    ["Ada's Tutor", "ada-s-tutor"],
    ["  --Émile  Zola--  ", "emile-zola"],
    ["日本", "persona"],
  ])("slug of %j is %j", (name, slug) => {
    expect(slugOf(name)).toBe(slug);
  });

  test("personas whose name another has get the random end of their id after the slug, each its own", async () => {
    const name = `Twin ${crypto.randomUUID().slice(0, 8)}`;
    // Made within the same second: their UUIDv7 ids begin alike, so only the end tells them apart.
    const one = await insertPersona({ modelId: "offline:echo", name });
    const two = await insertPersona({ modelId: "offline:echo", name });
    const three = await insertPersona({ modelId: "offline:echo", name });
    const listed = await gatewayClient((await createKey(ada, { name: "twins" })).secret).models.list();
    const ids = listed.data.map((model) => model.id);
    const idEnd = (id: string) => id.replace(/-/g, "").slice(-12);
    expect(ids).toContain(slugOf(one.name));
    expect(ids).toContain(`${slugOf(two.name)}-${idEnd(two.id)}`);
    expect(ids).toContain(`${slugOf(three.name)}-${idEnd(three.id)}`);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("no key, or a made-up one: 401 in OpenAI's shape, AuthenticationError in its client", async () => {
    const bare = await gatewayFetch(`${GATEWAY_BASE_URL}/models`);
    expect(bare.status).toBe(401);
    expect(await bare.json()).toEqual({
      error: {
        message: expect.stringContaining("API key"),
        type: "invalid_request_error",
        param: null,
        code: "missing_api_key",
      },
    });
    for (const secret of ["gbx_made-up", "sk-not-ours"]) {
      const error = await gatewayClient(secret)
        .models.list()
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    }
  });

  // The body is read, and the persona its model names looked up, while the key is checked (lib/gateway/route.ts):
  // the key's refusal still comes first, then the body's, then the model's.
  test.each([
    {
      fault: "no key and a body that is not JSON",
      key: "none",
      body: "{",
      status: 401,
      code: "missing_api_key",
    },
    {
      fault: "a made-up key and no messages",
      key: "made-up",
      body: { model: "x" },
      status: 401,
      code: "invalid_api_key",
    },
    {
      fault: "a revoked key and an unknown model",
      key: "revoked",
      body: "unknown-model",
      status: 401,
      code: "invalid_api_key",
    },
    { fault: "a good key and a body that is not JSON", key: "good", body: "{", status: 400, code: null },
    {
      fault: "a good key and a body that is an array",
      key: "good",
      body: "[1, 2]",
      status: 400,
      code: "invalid_value",
    },
    {
      fault: "a good key and a body that is a string",
      key: "good",
      body: '"hi"',
      status: 400,
      code: "invalid_value",
    },
    {
      fault: "a good key and an unknown model",
      key: "good",
      body: "unknown-model",
      status: 404,
      code: "model_not_found",
    },
  ] as const)("$fault: $status", async ({ key, body, status, code }) => {
    const { secret, key: created } = await createKey(ada, { name: `refusals ${key}` });
    if (key === "revoked") await revokeKey(ada, created.id);
    const authorization: Record<string, string> =
      key === "none" ? {} : { authorization: `Bearer ${key === "made-up" ? "gbx_made-up" : secret}` };
    const payload =
      body === "unknown-model"
        ? { model: "no-such-persona", messages: [{ role: "user", content: "Hi" }] }
        : body;
    const response = await gatewayFetch(`${GATEWAY_BASE_URL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...authorization },
      body: typeof payload === "string" ? payload : JSON.stringify(payload),
    });
    expect(response.status).toBe(status);
    const { error } = (await response.json()) as { error: { code: string | null; type: string } };
    if (code !== null) expect(error.code).toBe(code);
    else expect(error.type).toBe("invalid_request_error");
  });
});
