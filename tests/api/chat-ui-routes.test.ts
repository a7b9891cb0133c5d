// The small routes and fields the chat UI and the prompt inspector need: the persona picker's list, the sidebar's
// title search, the budget and provider on attempts (the inspector's gauge and cURL), and the preview's note.
import { beforeAll, describe, expect, test } from "vitest";
import * as chatRoute from "@/app/api/chat/route";
import * as previewRoute from "@/app/api/conversations/[id]/preview/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import * as turnsRoute from "@/app/api/conversations/[id]/turns/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import * as personasRoute from "@/app/api/personas/route";
import type { Persona } from "@/db/schema";
import { OFFLINE_MODEL_ID } from "@/lib/domain/model-catalog";
import { call, expectError, readUIStream, signUp, type TestUser } from "../api-client";
import { insertPersona } from "../fixtures/personas";

let ada: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ada = await signUp("Ada");
  bob = await signUp("Bob");
});

async function createConversation(user: TestUser, title: string) {
  const response = await call(conversationsRoute.POST, "/api/conversations", { user, body: { title } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function titlesFor(user: TestUser, query: string): Promise<string[]> {
  const response = await call(conversationsRoute.GET, `/api/conversations?q=${encodeURIComponent(query)}`, {
    user,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { conversations: { title: string }[] }).conversations
    .map((c) => c.title)
    .sort();
}

async function send(user: TestUser, conversationId: string, text: string) {
  const body = { id: conversationId, message: { role: "user", parts: [{ type: "text", text }] } };
  await readUIStream(await call(chatRoute.POST, "/api/chat", { user, body }));
}

describe("GET /api/personas", () => {
  test("lists id, name, avatar and model only: no prompts or overrides", async () => {
    const response = await call(personasRoute.GET, "/api/personas", { user: ada });
    expect(response.status).toBe(200);
    const { personas } = (await response.json()) as { personas: Record<string, unknown>[] };
    const guide = personas.find((persona) => persona.name === "Glassbox Guide");
    expect(guide).toBeDefined();
    for (const persona of personas)
      expect(Object.keys(persona).sort()).toEqual(["avatar", "id", "modelId", "name", "slug"]);
  });

  test("needs a session", async () => {
    await expectError(await call(personasRoute.GET, "/api/personas"), 401, "unauthorized");
  });
});

describe("GET /api/conversations?q=", () => {
  test.each([
    { query: "trip", expected: ["Trip to Lisbon", "trip: packing list"] },
    { query: "TRIP TO", expected: ["Trip to Lisbon"] },
    { query: "100%", expected: ["100% done"] },
    { query: "%", expected: ["100% done"] },
    { query: "_", expected: ["a_b"] },
    { query: "  lisbon  ", expected: ["Trip to Lisbon"] },
    { query: "nothing like this", expected: [] },
  ])("q=$query matches titles literally and case-insensitively", async ({ query, expected }) => {
    const searcher = await signUp("Searcher");
    for (const title of ["Trip to Lisbon", "trip: packing list", "100% done", "a_b", "Recipes"]) {
      await createConversation(searcher, title);
    }
    expect(await titlesFor(searcher, query)).toEqual(expected.sort());
  });

  test("an empty q lists everything; another user's titles never match", async () => {
    await createConversation(ada, "Ada's secret plan");
    await createConversation(ada, "Shopping");
    expect(await titlesFor(bob, "secret plan")).toEqual([]);
    expect(await titlesFor(ada, "secret plan")).toEqual(["Ada's secret plan"]);
    expect(await titlesFor(ada, "")).toEqual(expect.arrayContaining(["Ada's secret plan", "Shopping"]));
  });

  test("a q over 200 characters is refused with a message", async () => {
    const response = await call(conversationsRoute.GET, `/api/conversations?q=${"x".repeat(201)}`, {
      user: ada,
    });
    expect(await expectError(response, 400, "bad_request")).toBe("q must be at most 200 characters");
  });
});

describe("attempt views for the inspector", () => {
  test("carry the model's provider and the budget the attempt was built against", async () => {
    const id = await createConversation(ada, "Budget");
    await send(ada, id, "How full is the window?");
    const response = await call(turnsRoute.GET, `/api/conversations/${id}/turns`, {
      user: ada,
      params: { id },
    });
    const { turns } = await response.json();
    const [attempt] = turns[0].attempts;
    expect(attempt.provider).toBe("offline");
    // The offline model: a 128 000-token window, 1 024 reserved for output, the default 20% safety margin.
    expect(attempt.budget).toEqual({
      usableTokens: Math.floor((128_000 - 1_024) * 0.8),
      totalTokens: attempt.items.reduce((sum: number, item: { tokens: number }) => sum + item.tokens, 0),
      reservedOutputTokens: 1_024,
      contextWindow: 128_000,
    });
    expect(attempt.budget.totalTokens).toBeGreaterThan(0);
  });
});

describe("GET /api/conversations/:id/turns?fields=summary", () => {
  test("lists every turn's attempts without items, trace or bodies; the rest matches the full view", async () => {
    const id = await createConversation(ada, "Summary index");
    await send(ada, id, "One");
    await send(ada, id, "Two");
    const full = (
      await (
        await call(turnsRoute.GET, `/api/conversations/${id}/turns`, { user: ada, params: { id } })
      ).json()
    ).turns;
    const response = await call(turnsRoute.GET, `/api/conversations/${id}/turns?fields=summary`, {
      user: ada,
      params: { id },
    });
    expect(response.status).toBe(200);
    const { turns } = await response.json();
    expect(
      turns.map((turn: { id: string; assistantMessageId: string }) => [turn.id, turn.assistantMessageId]),
    ).toEqual(
      full.map((turn: { id: string; assistantMessageId: string }) => [turn.id, turn.assistantMessageId]),
    );
    const [attempt] = turns[1].attempts;
    const [fullAttempt] = full[1].attempts;
    expect(Object.keys(attempt).sort()).toEqual([
      "attemptNumber",
      "cost",
      "createdAt",
      "error",
      "id",
      "kind",
      "modelId",
      "settingsVersion",
      "status",
      "stepNumber",
      "timings",
      "turnId",
      "usage",
    ]);
    for (const key of Object.keys(attempt)) expect(attempt[key]).toEqual(fullAttempt[key]);
    expect(attempt.usage.inputTokens).toBeGreaterThan(0);
  });

  test("an unknown fields value is refused; another user's turns are not found", async () => {
    const id = await createConversation(ada, "Fields");
    const bad = await call(turnsRoute.GET, `/api/conversations/${id}/turns?fields=everything`, {
      user: ada,
      params: { id },
    });
    expect(await expectError(bad, 400, "bad_request")).toBe("fields must be summary when given");
    const other = await call(turnsRoute.GET, `/api/conversations/${id}/turns?fields=summary`, {
      user: bob,
      params: { id },
    });
    await expectError(other, 404, "not_found");
  });
});

describe("POST /api/conversations/:id/preview with a note", () => {
  // A persona of its own: a block another file puts on the shared default persona would add its BLOCKS item here.
  let notePersona: Persona;
  beforeAll(async () => {
    notePersona = await insertPersona({ modelId: OFFLINE_MODEL_ID });
  });
  async function conversationWithNotes(title: string) {
    const response = await call(conversationsRoute.POST, "/api/conversations", {
      user: ada,
      body: { title, personaId: notePersona.id },
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  async function previewTags(conversationId: string, settings: unknown) {
    const response = await call(previewRoute.POST, `/api/conversations/${conversationId}/preview`, {
      user: ada,
      params: { id: conversationId },
      body: { text: "What next?", settings },
    });
    expect(response.status).toBe(200);
    const { preview } = await response.json();
    expect(preview.provider).toBe("offline");
    return (preview.items as { tag: string }[]).map((item) => item.tag);
  }

  test("the preview's note text stands for the conversation's note, placed by the preview's depth", async () => {
    const id = await conversationWithNotes("Notes");
    await send(ada, id, "First");
    await send(ada, id, "Second");
    const history = ["DIALOGUE_HISTORY", "DIALOGUE_HISTORY", "DIALOGUE_HISTORY", "DIALOGUE_HISTORY"];
    expect(await previewTags(id, { contextNote: { text: "Stay on topic.", depth: 0 } })).toEqual([
      "SYSTEM_PROMPT",
      ...history,
      "CONTEXT_NOTE",
      "CURRENT_INPUT",
    ]);
    expect(await previewTags(id, { contextNote: { text: "Stay on topic.", depth: 1_000 } })).toEqual([
      "SYSTEM_PROMPT",
      "CONTEXT_NOTE",
      ...history,
      "CURRENT_INPUT",
    ]);
  });

  test("it replaces a stored conversation note for the dry run only, and an empty text previews no note", async () => {
    const id = await conversationWithNotes("Stored note");
    const patch = await call(conversationRoute.PATCH, `/api/conversations/${id}`, {
      user: ada,
      method: "PATCH",
      params: { id },
      body: { settingsOverride: { contextNote: { text: "Stored note", depth: 0 } } },
    });
    expect(patch.status).toBe(200);
    const response = await call(previewRoute.POST, `/api/conversations/${id}/preview`, {
      user: ada,
      params: { id },
      body: { text: "Hi", settings: { contextNote: { text: "What-if note" } } },
    });
    const { preview } = await response.json();
    const notes = (preview.items as { tag: string; parts: { text: string }[] }[]).filter(
      (item) => item.tag === "CONTEXT_NOTE",
    );
    expect(notes.map((note) => note.parts[0].text)).toEqual(["[System: What-if note]"]);
    expect(await previewTags(id, { contextNote: { text: "" } })).toEqual(["SYSTEM_PROMPT", "CURRENT_INPUT"]);
    const stored = await (
      await call(conversationRoute.GET, `/api/conversations/${id}`, { user: ada, params: { id } })
    ).json();
    expect(stored.conversation.settingsOverride.contextNote).toMatchObject({ text: "Stored note", depth: 0 });
  });
});
