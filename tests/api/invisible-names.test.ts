// Titles, names and labels are shown to people: text with no visible character (zero-width spaces, joiners, a
// BOM, bidi marks, Hangul fillers) is refused like an empty one, with a 400 naming the field, and nothing is
// stored or changed. Every such field goes through nonEmptyTextField (app/api/request-fields.ts).
import { beforeAll, describe, expect, test } from "vitest";
import * as memoriesRoute from "@/app/api/admin/memories/route";
import * as modelRoute from "@/app/api/admin/models/[id]/route";
import * as modelsRoute from "@/app/api/admin/models/route";
import * as personaRoute from "@/app/api/admin/personas/[id]/route";
import * as personasRoute from "@/app/api/admin/personas/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { call, expectError, type TestUser } from "../api-client";
import { isolateDatabase, newModelBody, signUpAdmin } from "./admin-helpers";
import { tableRowCounts } from "./row-counts";

isolateDatabase("invisible_names");

let admin: TestUser;
let conversationId: string;
let personaId: string;
let memoryId: string;

const MODEL_ID = "local:visible";

async function created<T>(response: Response, key: string): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as Record<string, T>)[key];
}

beforeAll(async () => {
  admin = await signUpAdmin("Names Admin");
  const conversation = await call(conversationsRoute.POST, "/api/conversations", { user: admin, body: {} });
  conversationId = ((await conversation.json()) as { id: string }).id;
  personaId = (
    await created<{ id: string }>(
      await call(personasRoute.POST, "/api/admin/personas", {
        user: admin,
        body: { name: "Sage", modelId: "offline:echo" },
      }),
      "persona",
    )
  ).id;
  await created(
    await call(modelsRoute.POST, "/api/admin/models", { user: admin, body: newModelBody(MODEL_ID) }),
    "model",
  );
  memoryId = (
    await created<{ id: string }>(
      await call(memoriesRoute.POST, "/api/admin/memories", {
        user: admin,
        body: { scope: "persona", personaId, area: "fact", content: "Sage likes tea." },
      }),
      "memory",
    )
  ).id;
});

const INVISIBLE: Array<{ name: string; text: string }> = [
  { name: "zero-width spaces", text: "\u200b\u200b\u200b" },
  { name: "a BOM, joiners and a word joiner", text: "\ufeff\u200c\u200d\u2060" },
  { name: "bidi marks around spaces", text: "\u200e \u202e \u200f" },
  { name: "Hangul fillers", text: "\u3164\u3164" },
  { name: "no-break spaces and a soft hyphen", text: "\u00a0\u00ad\u00a0" },
];

interface Field {
  label: string;
  field: string;
  send: (text: string) => Promise<Response>;
}

function fields(): Field[] {
  const asAdmin = { user: admin };
  const conversation = { id: conversationId };
  /** An admin's PUT of `body` to the route at `path`, for the row `id`. */
  const put = (handler: typeof personaRoute.PUT, path: string, id: string, body: unknown) =>
    call(handler, path, { ...asAdmin, method: "PUT", params: { id }, body });
  return [
    {
      label: "POST /api/conversations title",
      field: "title",
      send: (title) => call(conversationsRoute.POST, "/api/conversations", { ...asAdmin, body: { title } }),
    },
    {
      label: "PATCH /api/conversations/:id title",
      field: "title",
      send: (title) =>
        call(conversationRoute.PATCH, `/api/conversations/${conversationId}`, {
          ...asAdmin,
          method: "PATCH",
          params: conversation,
          body: { title },
        }),
    },
    {
      label: "POST /api/admin/personas name",
      field: "name",
      send: (name) =>
        call(personasRoute.POST, "/api/admin/personas", {
          ...asAdmin,
          body: { name, modelId: "offline:echo" },
        }),
    },
    {
      label: "PUT /api/admin/personas/:id name",
      field: "name",
      send: (name) => put(personaRoute.PUT, `/api/admin/personas/${personaId}`, personaId, { name }),
    },
    {
      label: "POST /api/admin/models label",
      field: "label",
      send: (label) =>
        call(modelsRoute.POST, "/api/admin/models", {
          ...asAdmin,
          body: newModelBody("local:other", { label }),
        }),
    },
    {
      label: "PUT /api/admin/models/:id providerModelName",
      field: "providerModelName",
      send: (providerModelName) =>
        put(modelRoute.PUT, `/api/admin/models/${MODEL_ID}`, MODEL_ID, { providerModelName }),
    },
    {
      label: "POST /api/admin/memories content",
      field: "content",
      send: (content) =>
        call(memoriesRoute.POST, "/api/admin/memories", {
          ...asAdmin,
          body: { scope: "persona", personaId, area: "fact", content },
        }),
    },
    {
      label: "PUT /api/admin/memories content",
      field: "content",
      send: (content) =>
        call(memoriesRoute.PUT, "/api/admin/memories", {
          ...asAdmin,
          method: "PUT",
          body: { id: memoryId, content },
        }),
    },
  ];
}

describe("a title or name with no visible character is refused, naming the field", () => {
  test("every field × every invisible text: 400, the field named, nothing stored or changed", async () => {
    const stored = await storedNames();
    const counts = await tableRowCounts();
    for (const target of fields()) {
      for (const invisible of INVISIBLE) {
        const message = await expectError(await target.send(invisible.text), 400, "bad_request").catch(
          (error: Error) => {
            throw new Error(`${target.label} with ${invisible.name}: ${error.message}`);
          },
        );
        expect(message, `${target.label} with ${invisible.name}`).toMatch(
          new RegExp(`^${target.field}: ${target.field} must not be empty.*visible character`),
        );
      }
    }
    expect(await tableRowCounts()).toEqual(counts);
    expect(await storedNames()).toEqual(stored);
  });

  test("a visible character among invisible ones is accepted, kept as written", async () => {
    const title = "\u200bPlans\u200b";
    const response = await call(conversationRoute.PATCH, `/api/conversations/${conversationId}`, {
      user: admin,
      method: "PATCH",
      params: { id: conversationId },
      body: { title },
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await storedNames()).title).toBe(title);
  });
});

/** The stored values the update routes above would change. */
async function storedNames() {
  const conversation = await call(conversationRoute.GET, `/api/conversations/${conversationId}`, {
    user: admin,
    params: { id: conversationId },
  });
  const persona = await call(personaRoute.GET, `/api/admin/personas/${personaId}`, {
    user: admin,
    params: { id: personaId },
  });
  const memories = await call(memoriesRoute.GET, "/api/admin/memories", { user: admin });
  const { memories: rows } = (await memories.json()) as { memories: Array<{ id: string; content: string }> };
  const models = await call(modelsRoute.GET, "/api/admin/models", { user: admin });
  const { models: modelRows } = (await models.json()) as {
    models: Array<{ id: string; providerModelName: string }>;
  };
  return {
    title: ((await conversation.json()) as { conversation: { title: string } }).conversation.title,
    name: ((await persona.json()) as { persona: { name: string } }).persona.name,
    memory: rows.find((row) => row.id === memoryId)?.content,
    providerModelName: modelRows.find((row) => row.id === MODEL_ID)?.providerModelName,
  };
}
