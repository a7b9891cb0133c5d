import { beforeAll, describe, expect, test } from "vitest";
import * as personaPreviewRoute from "@/app/api/admin/personas/[id]/preview/route";
import * as personaRoute from "@/app/api/admin/personas/[id]/route";
import * as personasRoute from "@/app/api/admin/personas/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import { getDb } from "@/db/client";
import { listPersonas } from "@/db/persona-queries";
import type { Persona } from "@/db/schema";
import { call, expectError, signUp, type TestUser } from "../api-client";
import { createConversation } from "../fixtures/personas";
import { storeAlternatingMessages } from "../fixtures/turns";
import { createAdminPersona, isolateDatabase, putAdminItem, signUpAdmin } from "./admin-helpers";
import { itemText, type PreviewItem, preview } from "./preview-helpers";

isolateDatabase("admin_personas");

let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  admin = await signUpAdmin("Persona Admin");
  member = await signUp("Member");
});

const createPersona = (body: Record<string, unknown>) => createAdminPersona(admin, body);
const putPersona = (id: string, body: unknown) => putAdminItem(admin, personaRoute.PUT, "personas", id, body);

async function personaCount() {
  return (await listPersonas({ db: await getDb() })).length;
}

describe("persona CRUD", () => {
  test("create with defaults, read, list with usage, update, delete", async () => {
    const created = await createPersona({ name: "  Archivist  ", modelId: "offline:echo" });
    expect(created).toMatchObject({
      name: "Archivist",
      avatar: null,
      systemPrompt: "",
      modelId: "offline:echo",
      fallbackModelIds: [],
      toolNames: [],
      settingsOverride: {},
    });

    const read = await call(personaRoute.GET, `/api/admin/personas/${created.id}`, {
      user: admin,
      params: { id: created.id },
    });
    expect(((await read.json()) as { persona: Persona }).persona).toMatchObject({
      id: created.id,
      name: "Archivist",
    });

    const updated = await putPersona(created.id, {
      avatar: "📚",
      systemPrompt: "You keep records.",
      fallbackModelIds: ["openai:gpt-4.1-mini", "google:gemini-2.5-flash"],
      toolNames: ["current_time", "remember"],
      settingsOverride: {
        contextNote: { text: "Cite the shelf.", depth: 2, role: "system", frequency: 3 },
        stop: { strings: ["\nUser:"], speakerPattern: true },
        thinking: { enabled: true, budgetTokens: 1024 },
        history: { maxItems: 40 },
      },
    });
    expect(updated.status, await updated.clone().text()).toBe(200);
    const { persona } = (await updated.json()) as { persona: Persona };
    expect(persona).toMatchObject({
      name: "Archivist",
      avatar: "📚",
      systemPrompt: "You keep records.",
      fallbackModelIds: ["openai:gpt-4.1-mini", "google:gemini-2.5-flash"],
      toolNames: ["current_time", "remember"],
    });
    // Only the keys given are stored: nothing is filled in with defaults.
    expect(persona.settingsOverride).toEqual({
      contextNote: { text: "Cite the shelf.", depth: 2, role: "system", frequency: 3 },
      stop: { strings: ["\nUser:"], speakerPattern: true },
      thinking: { enabled: true, budgetTokens: 1024 },
      history: { maxItems: 40 },
    });

    const list = await call(personasRoute.GET, "/api/admin/personas", { user: admin });
    const listed = (await list.json()) as {
      personas: Array<Persona & { conversationCount: number }>;
      tools: Array<{ name: string }>;
    };
    expect(listed.personas.map((row) => [row.name, row.conversationCount])).toEqual([
      ["Glassbox Guide", 0],
      ["Archivist", 0],
    ]);
    expect(listed.tools.map((tool) => tool.name)).toEqual(["current_time", "remember", "analyze_image"]);

    const deleted = await call(personaRoute.DELETE, `/api/admin/personas/${created.id}`, {
      user: admin,
      method: "DELETE",
      params: { id: created.id },
    });
    expect(deleted.status).toBe(204);
    const again = await call(personaRoute.GET, `/api/admin/personas/${created.id}`, {
      user: admin,
      params: { id: created.id },
    });
    await expectError(again, 404, "not_found");
  });

  test("deleting a persona that conversations use is a 409 naming it; nothing is deleted", async () => {
    const persona = await createPersona({ name: "Busy", modelId: "offline:echo" });
    const conversationId = await createConversation(member, persona);
    const response = await call(personaRoute.DELETE, `/api/admin/personas/${persona.id}`, {
      user: admin,
      method: "DELETE",
      params: { id: persona.id },
    });
    expect(await expectError(response, 409, "conflict")).toBe(
      "Persona Busy is used by 1 conversation: delete or move those conversations first.",
    );
    const still = await call(personaRoute.GET, `/api/admin/personas/${persona.id}`, {
      user: admin,
      params: { id: persona.id },
    });
    expect(still.status).toBe(200);
    const conversation = await call(conversationRoute.GET, `/api/conversations/${conversationId}`, {
      user: member,
      params: { id: conversationId },
    });
    expect(conversation.status).toBe(200);
  });

  test("unknown ids are 404", async () => {
    const unknown = "0190aaaa-0000-7000-8000-000000000000";
    await expectError(
      await call(personaRoute.GET, "/x", { user: admin, params: { id: unknown } }),
      404,
      "not_found",
    );
    await expectError(await putPersona(unknown, { name: "Ghost" }), 404, "not_found");
    await expectError(
      await call(personaRoute.DELETE, "/x", { user: admin, method: "DELETE", params: { id: unknown } }),
      404,
      "not_found",
    );
    await expectError(
      await call(personaRoute.GET, "/x", { user: admin, params: { id: "not-a-uuid" } }),
      404,
      "not_found",
    );
  });
});

describe("persona validation: a clear 400, nothing stored", () => {
  const cases: Array<{ name: string; body: unknown; message: RegExp; status?: number; code?: string }> = [
    { name: "malformed JSON", body: "{", message: /not valid JSON/, code: "invalid_json" },
    { name: "no name", body: { modelId: "offline:echo" }, message: /^name: name must be text$/ },
    {
      name: "an empty name",
      body: { name: "   ", modelId: "offline:echo" },
      message: /name must not be empty/,
    },
    {
      name: "a name over 100 characters",
      body: { name: "n".repeat(101), modelId: "offline:echo" },
      message: /name must be at most 100 characters/,
    },
    {
      name: "an unknown model",
      body: { name: "X", modelId: "openai:gpt-9" },
      message: /^modelId: no model with id openai:gpt-9 exists in the registry$/,
    },
    {
      name: "a malformed model id",
      body: { name: "X", modelId: "bad model/id" },
      message: /modelId must be a model id/,
    },
    {
      name: "an unknown fallback model",
      body: { name: "X", modelId: "offline:echo", fallbackModelIds: ["offline:echo", "nope:none"] },
      message: /^fallbackModelIds: no model with id nope:none exists/,
    },
    {
      name: "an override that contradicts the global policy's kept turns",
      body: { name: "X", modelId: "offline:echo", settingsOverride: { history: { messageFetchLimit: 20 } } },
      message:
        /^settingsOverride\.history\.messageFetchLimit: history\.messageFetchLimit \(20\) cannot hold the 15 turns summary\.keepRecentTurns keeps verbatim/,
    },
    {
      name: "a repeated fallback model",
      body: { name: "X", modelId: "offline:echo", fallbackModelIds: ["offline:echo", "offline:echo"] },
      message: /fallbackModelIds must not repeat a model/,
    },
    {
      name: "an unknown tool",
      body: { name: "X", modelId: "offline:echo", toolNames: ["shell"] },
      message: /toolNames.0: toolNames\[\] must be one of: current_time, remember, analyze_image/,
    },
    {
      name: "a system prompt over 20 000 characters",
      body: { name: "X", modelId: "offline:echo", systemPrompt: "p".repeat(20_001) },
      message: /systemPrompt must be at most 20000 characters/,
    },
    {
      name: "a note depth out of range",
      body: { name: "X", modelId: "offline:echo", settingsOverride: { contextNote: { depth: 1001 } } },
      message: /settingsOverride.contextNote.depth: contextNote.depth must be a whole number from 0 to 1000/,
    },
    {
      name: "a note role that does not exist",
      body: { name: "X", modelId: "offline:echo", settingsOverride: { contextNote: { role: "narrator" } } },
      message: /contextNote.role must be one of: user, system, assistant/,
    },
    {
      name: "a negative note frequency",
      body: { name: "X", modelId: "offline:echo", settingsOverride: { contextNote: { frequency: -1 } } },
      message: /contextNote.frequency must be a whole number from 0 to 1000/,
    },
    {
      name: "a note over 4 000 characters",
      body: {
        name: "X",
        modelId: "offline:echo",
        settingsOverride: { contextNote: { text: "t".repeat(4_001) } },
      },
      message: /contextNote.text must be at most 4000 characters/,
    },
    {
      name: "41 stop strings",
      body: {
        name: "X",
        modelId: "offline:echo",
        settingsOverride: { stop: { strings: Array.from({ length: 41 }, (_, index) => `s${index}`) } },
      },
      message: /stop.strings must have at most 40 entries/,
    },
    {
      name: "a speaker pattern that is not a boolean",
      body: { name: "X", modelId: "offline:echo", settingsOverride: { stop: { speakerPattern: "yes" } } },
      message: /stop.speakerPattern must be true or false/,
    },
    {
      name: "a thinking budget out of range",
      body: { name: "X", modelId: "offline:echo", settingsOverride: { thinking: { budgetTokens: -5 } } },
      message: /thinking.budgetTokens must be a whole number from 0 to 1000000/,
    },
    {
      name: "an unknown override key",
      body: { name: "X", modelId: "offline:echo", settingsOverride: { contextNote: { position: 3 } } },
      message: /settingsOverride.contextNote: Unrecognized key: "position"/,
    },
    {
      name: "an unknown field",
      body: { name: "X", modelId: "offline:echo", colour: "red" },
      message: /Unrecognized key: "colour"/,
    },
  ];

  test.each(cases)("create with $name", async ({ body, message, code }) => {
    const before = await personaCount();
    const response = await call(personasRoute.POST, "/api/admin/personas", { user: admin, body });
    expect(await expectError(response, 400, code ?? "bad_request")).toMatch(message);
    expect(await personaCount()).toBe(before);
  });

  test("an update with a bad field changes nothing", async () => {
    const persona = await createPersona({ name: "Steady", modelId: "offline:echo", systemPrompt: "Stay." });
    for (const body of [
      { modelId: "nope:none" },
      { settingsOverride: { contextNote: { depth: -1 } } },
      {},
      { name: "" },
    ]) {
      const response = await putPersona(persona.id, { ...body });
      await expectError(response, 400, "bad_request");
    }
    const read = await call(personaRoute.GET, "/x", { user: admin, params: { id: persona.id } });
    expect(((await read.json()) as { persona: Persona }).persona).toMatchObject({
      name: "Steady",
      modelId: "offline:echo",
      systemPrompt: "Stay.",
      settingsOverride: {},
    });
  });
});

describe("the persona's context note reaches the payload, previewed before saving", () => {
  test("the draft note appears at its depth in the draft preview, the saved one in the saved preview, and nothing is stored", async () => {
    const persona = await createPersona({
      name: "Noted",
      modelId: "offline:echo",
      systemPrompt: "You take notes.",
      settingsOverride: { contextNote: { text: "Old note.", depth: 0 } },
    });
    const conversationId = await createConversation(admin, persona);
    await storeAlternatingMessages(admin, persona, conversationId, 4);
    const response = await call(personaPreviewRoute.POST, `/api/admin/personas/${persona.id}/preview`, {
      user: admin,
      params: { id: persona.id },
      body: {
        conversationId,
        text: "And now?",
        draft: { settingsOverride: { contextNote: { text: "New note.", depth: 2, role: "assistant" } } },
      },
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const { saved, draft } = (await response.json()) as {
      saved: { items: PreviewItem[] };
      draft: { items: PreviewItem[] };
    };
    const shape = (items: PreviewItem[]) =>
      items.map((item) => `${item.tag}/${item.role}: ${itemText(item)}`);
    // Depth 0 is the end of the history (the current input always stays last).
    expect(shape(saved.items)).toEqual([
      "SYSTEM_PROMPT/system: You take notes.",
      "DIALOGUE_HISTORY/user: message 1",
      "DIALOGUE_HISTORY/assistant: message 2",
      "DIALOGUE_HISTORY/user: message 3",
      "DIALOGUE_HISTORY/assistant: message 4",
      "CONTEXT_NOTE/user: [System: Old note.]",
      "CURRENT_INPUT/user: And now?",
    ]);
    // Depth 2 of 4 history items: target = 4 − 2, so the note goes before the third.
    expect(shape(draft.items)).toEqual([
      "SYSTEM_PROMPT/system: You take notes.",
      "DIALOGUE_HISTORY/user: message 1",
      "DIALOGUE_HISTORY/assistant: message 2",
      "CONTEXT_NOTE/assistant: [System: New note.]",
      "DIALOGUE_HISTORY/user: message 3",
      "DIALOGUE_HISTORY/assistant: message 4",
      "CURRENT_INPUT/user: And now?",
    ]);
    const read = await call(personaRoute.GET, "/x", { user: admin, params: { id: persona.id } });
    expect(((await read.json()) as { persona: Persona }).persona.settingsOverride).toEqual({
      contextNote: { text: "Old note.", depth: 0 },
    });

    // Saved, the next preview of the conversation (what the next turn sends) has the new note.
    await putPersona(persona.id, {
      settingsOverride: { contextNote: { text: "New note.", depth: 2, role: "assistant" } },
    });
    const next = await preview(admin, conversationId, "And now?");
    expect(shape(next.items)).toEqual(shape(draft.items));
  });

  test("preview refuses a conversation the admin cannot read, an invalid draft and an unknown persona", async () => {
    const persona = await createPersona({ name: "Private", modelId: "offline:echo" });
    const othersConversation = await createConversation(member, persona);
    const notYours = await call(personaPreviewRoute.POST, "/x", {
      user: admin,
      params: { id: persona.id },
      body: { conversationId: othersConversation, text: "hi" },
    });
    await expectError(notYours, 404, "not_found");
    const own = await createConversation(admin, persona);
    const bad = await call(personaPreviewRoute.POST, "/x", {
      user: admin,
      params: { id: persona.id },
      body: {
        conversationId: own,
        text: "hi",
        draft: { settingsOverride: { contextNote: { depth: 5000 } } },
      },
    });
    expect(await expectError(bad, 400, "bad_request")).toMatch(
      /contextNote.depth must be a whole number from 0 to 1000/,
    );
    const badModel = await call(personaPreviewRoute.POST, "/x", {
      user: admin,
      params: { id: persona.id },
      body: { conversationId: own, text: "hi", draft: { modelId: "nope:none" } },
    });
    expect(await expectError(badModel, 400, "bad_request")).toMatch(
      /draft.modelId: no model with id nope:none/,
    );
    const unknown = await call(personaPreviewRoute.POST, "/x", {
      user: admin,
      params: { id: "0190aaaa-0000-7000-8000-000000000000" },
      body: { conversationId: own, text: "hi" },
    });
    await expectError(unknown, 404, "not_found");
  });
});
