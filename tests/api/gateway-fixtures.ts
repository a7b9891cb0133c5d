// Test fixture: the gateway as the official `openai` client sees it. The client's fetch hands each request to the
// route handlers in-process (no cookie, no origin: a bearer secret only), so the client's own parsing, streaming
// and error classes are what the tests exercise.
import OpenAI from "openai";
import { expect } from "vitest";
import * as keyRoute from "@/app/api/keys/[id]/route";
import * as keysRoute from "@/app/api/keys/route";
import * as chatCompletionsRoute from "@/app/v1/chat/completions/route";
import * as modelsRoute from "@/app/v1/models/route";
import * as responsesRoute from "@/app/v1/responses/route";
import { getDb } from "@/db/client";
import { listPersonasWithSlugs } from "@/db/persona-queries";
import type { Persona } from "@/db/schema";
import { call, type TestUser } from "../api-client";
import { insertPersona, type PersonaFixture } from "../fixtures/personas";

export const GATEWAY_BASE_URL = "http://localhost:3000/v1";

const V1_ROUTES: Record<string, (request: Request) => Promise<Response>> = {
  "GET /v1/models": modelsRoute.GET,
  "POST /v1/chat/completions": chatCompletionsRoute.POST,
  "POST /v1/responses": responsesRoute.POST,
};

/** What the client's requests reach: the /v1 route handlers. */
export const gatewayFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const handler = V1_ROUTES[`${request.method} ${new URL(request.url).pathname}`];
  if (!handler) return new Response("no such route", { status: 404 });
  return handler(request);
};

export function gatewayClient(secret: string, options: { headers?: Record<string, string> } = {}): OpenAI {
  return new OpenAI({
    apiKey: secret,
    baseURL: GATEWAY_BASE_URL,
    fetch: gatewayFetch,
    maxRetries: 0,
    defaultHeaders: options.headers,
  });
}

export interface KeyView {
  id: string;
  name: string;
  personaIds: string[] | null;
  createdAt: string;
  lastUsedAt: string | null;
}

/** POST /api/keys as `user`: the key and its secret. */
export async function createKey(
  user: TestUser,
  body: { name: string; personaIds?: string[] | null },
): Promise<{ key: KeyView; secret: string }> {
  const response = await call(keysRoute.POST, "/api/keys", { user, body });
  if (response.status !== 201)
    throw new Error(`create key failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { key: KeyView; secret: string };
}

export async function listKeys(user: TestUser): Promise<Response> {
  return call(keysRoute.GET, "/api/keys", { user });
}

export async function revokeKey(user: TestUser, id: string): Promise<Response> {
  return call(keyRoute.DELETE, `/api/keys/${id}`, { method: "DELETE", user, params: { id } });
}

/** A call the gateway refuses: the client's BadRequestError, a 400 matching `expected` (its `param`, …). */
export async function refusedAsBadRequest(call: Promise<unknown>, expected: Record<string, unknown>) {
  const error = await call.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  expect(error).toMatchObject({ status: 400, ...expected });
  return error as InstanceType<typeof OpenAI.BadRequestError>;
}

/**
 * A new persona on the fake OpenAI model, named `name` and a unique suffix (and `fields`), as the gateway lists it
 * (its slug).
 */
export async function gatewayPersona(name: string, fields: Partial<PersonaFixture> = {}): Promise<Persona> {
  const row = await insertPersona({
    modelId: "openai:gpt-4.1-mini",
    name: `${name} ${crypto.randomUUID()}`,
    ...fields,
  });
  return (await listPersonasWithSlugs({ db: await getDb() })).find(
    (candidate) => candidate.id === row.id,
  ) as Persona;
}
