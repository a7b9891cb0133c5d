import { beforeAll, describe, expect, test } from "vitest";
import * as memoriesRoute from "@/app/api/admin/memories/route";
import type { Memory, Persona } from "@/db/schema";
import { call, expectError, signUp, type TestUser } from "../api-client";
import { createConversation } from "../fixtures/personas";
import { createAdminPersona, isolateDatabase, signUpAdmin } from "./admin-helpers";
import { itemText, preview } from "./preview-helpers";

isolateDatabase("admin_memories");

let admin: TestUser;
let ada: TestUser;
let bob: TestUser;
let sage: Persona;
let other: Persona;

type MemoryRow = Memory & { userName: string | null; personaName: string | null };

beforeAll(async () => {
  admin = await signUpAdmin("Memory Admin");
  ada = await signUp("Ada");
  bob = await signUp("Bob");
  sage = await createPersona("Sage");
  other = await createPersona("Other");
});

const createPersona = (name: string) =>
  createAdminPersona(admin, { name, modelId: "offline:echo", systemPrompt: `You are ${name}.` });

async function addMemory(body: Record<string, unknown>): Promise<Memory> {
  const response = await call(memoriesRoute.POST, "/api/admin/memories", { user: admin, body });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { memory: Memory }).memory;
}

async function list(query = ""): Promise<MemoryRow[]> {
  const response = await call(memoriesRoute.GET, `/api/admin/memories${query}`, { user: admin });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { memories: MemoryRow[] }).memories;
}

function edit(body: Record<string, unknown>) {
  return call(memoriesRoute.PUT, "/api/admin/memories", { user: admin, method: "PUT", body });
}

function remove(id: string) {
  return call(memoriesRoute.DELETE, `/api/admin/memories?id=${id}`, { user: admin, method: "DELETE" });
}

async function coreMemories(user: TestUser, personaId: string): Promise<string | null> {
  const conversationId = await createConversation(user, { id: personaId });
  const { items: payload } = await preview(user, conversationId, "What do you remember?");
  const items = payload.filter((item) => item.tag === "CORE_MEMORIES");
  expect(items.length).toBeLessThanOrEqual(1);
  return items[0] ? itemText(items[0]) : null;
}

/** Ada's fact, Sage's own preference, and Bob × Sage's fact, stored in that order (the payload lists them so). */
async function addOneInEachScope() {
  const fields = [
    { scope: "user", userId: ada.id, area: "fact", content: "Ada keeps bees." },
    { scope: "persona", personaId: sage.id, area: "preference", content: "Sage answers in haiku." },
    {
      scope: "user_persona",
      userId: bob.id,
      personaId: sage.id,
      area: "fact",
      content: "Bob asked Sage about tides.",
    },
  ];
  const stored = [];
  for (const memory of fields) stored.push(await addMemory(memory));
  return stored;
}

describe("memories CRUD", () => {
  test("add in each scope, list with filters, edit content, area and active, delete", async () => {
    const [userMemory, personaMemory, pairMemory] = await addOneInEachScope();
    expect(userMemory).toMatchObject({ scope: "user", userId: ada.id, personaId: null, active: true });

    expect((await list()).map((row) => row.content).sort()).toEqual([
      "Ada keeps bees.",
      "Bob asked Sage about tides.",
      "Sage answers in haiku.",
    ]);
    expect((await list(`?userId=${ada.id}`)).map((row) => row.content)).toEqual(["Ada keeps bees."]);
    expect((await list(`?personaId=${sage.id}`)).map((row) => row.content).sort()).toEqual([
      "Bob asked Sage about tides.",
      "Sage answers in haiku.",
    ]);
    expect(
      (await list(`?userId=${bob.id}&personaId=${sage.id}`)).map((row) => [
        row.content,
        row.userName,
        row.personaName,
      ]),
    ).toEqual([["Bob asked Sage about tides.", "Bob", "Sage"]]);
    expect((await list("?scope=persona")).map((row) => row.id)).toEqual([personaMemory.id]);

    const edited = await edit({
      id: pairMemory.id,
      content: "Bob asked Sage about spring tides.",
      area: "session_note",
      active: false,
    });
    expect(edited.status).toBe(200);
    expect(((await edited.json()) as { memory: Memory }).memory).toMatchObject({
      content: "Bob asked Sage about spring tides.",
      area: "session_note",
      active: false,
    });

    for (const memory of [userMemory, personaMemory, pairMemory])
      expect((await remove(memory.id)).status).toBe(204);
    expect(await list()).toEqual([]);
    await expectError(await remove(userMemory.id), 404, "not_found");
    await expectError(await edit({ id: userMemory.id, content: "gone" }), 404, "not_found");
  });

  const bad: Array<{ name: string; body: () => Record<string, unknown>; message: RegExp }> = [
    {
      name: "a bad scope",
      body: () => ({ scope: "team", userId: ada.id, area: "fact", content: "x" }),
      message: /scope must be one of: user, persona, user_persona/,
    },
    {
      name: "a user memory without a user",
      body: () => ({ scope: "user", area: "fact", content: "x" }),
      message: /^userId: a user memory needs a userId$/,
    },
    {
      name: "a user memory with a persona",
      body: () => ({ scope: "user", userId: ada.id, personaId: sage.id, area: "fact", content: "x" }),
      message: /a user memory has no personaId/,
    },
    {
      name: "a persona memory with a user",
      body: () => ({ scope: "persona", userId: ada.id, personaId: sage.id, area: "fact", content: "x" }),
      message: /a persona memory has no userId/,
    },
    {
      name: "a user × persona memory without a persona",
      body: () => ({ scope: "user_persona", userId: ada.id, area: "fact", content: "x" }),
      message: /a user_persona memory needs a personaId/,
    },
    {
      name: "an unknown user",
      body: () => ({ scope: "user", userId: "ghost", area: "fact", content: "x" }),
      message: /^userId: no user with id ghost$/,
    },
    {
      name: "an unknown persona",
      body: () => ({
        scope: "persona",
        personaId: "0190aaaa-0000-7000-8000-000000000000",
        area: "fact",
        content: "x",
      }),
      message: /^personaId: no persona with id/,
    },
    {
      name: "empty content",
      body: () => ({ scope: "user", userId: ada.id, area: "fact", content: "   " }),
      message: /content must not be empty/,
    },
    {
      name: "content over 4 000 characters",
      body: () => ({ scope: "user", userId: ada.id, area: "fact", content: "c".repeat(4_001) }),
      message: /content must be at most 4000 characters/,
    },
    {
      name: "a bad area",
      body: () => ({ scope: "user", userId: ada.id, area: "Drop Table", content: "x" }),
      message: /area must be a short lowercase name/,
    },
  ];

  test.each(bad)("adding $name is a 400 and stores nothing", async ({ body, message }) => {
    const response = await call(memoriesRoute.POST, "/api/admin/memories", { user: admin, body: body() });
    expect(await expectError(response, 400, "bad_request")).toMatch(message);
    expect(await list()).toEqual([]);
  });

  test("bad edits, deletes and filters are 400s that change nothing", async () => {
    const memory = await addMemory({ scope: "user", userId: ada.id, area: "fact", content: "Stays as is." });
    expect(await expectError(await edit({ id: memory.id }), 400, "bad_request")).toMatch(/Nothing to change/);
    expect(await expectError(await edit({ id: memory.id, active: "no" }), 400, "bad_request")).toMatch(
      /active must be true or false/,
    );
    expect(await expectError(await edit({ id: memory.id, scope: "persona" }), 400, "bad_request")).toMatch(
      /Unrecognized key: "scope"/,
    );
    expect(await expectError(await edit({ id: "nope", content: "x" }), 400, "bad_request")).toMatch(
      /id must be a memory id/,
    );
    expect(
      await expectError(
        await call(memoriesRoute.DELETE, "/api/admin/memories", { user: admin, method: "DELETE" }),
        400,
        "bad_request",
      ),
    ).toMatch(/Say which memory/);
    expect(
      await expectError(
        await call(memoriesRoute.GET, "/api/admin/memories?personaId=x", { user: admin }),
        400,
        "bad_request",
      ),
    ).toBe("personaId must be a UUID");
    expect(
      await expectError(
        await call(memoriesRoute.GET, "/api/admin/memories?scope=all", { user: admin }),
        400,
        "bad_request",
      ),
    ).toMatch(/scope must be one of/);
    expect(await list()).toMatchObject([{ id: memory.id, content: "Stays as is.", active: true }]);
    await remove(memory.id);
  });
});

describe("an active core memory shows up in the payload, an inactive one does not", () => {
  test("user, persona and user × persona memories reach the CORE_MEMORIES item of the right people only", async () => {
    const [adaFact] = await addOneInEachScope();

    expect(await coreMemories(ada, sage.id)).toBe(
      "# CORE MEMORIES\n- Ada keeps bees.\n- Sage answers in haiku.",
    );
    expect(await coreMemories(bob, sage.id)).toBe(
      "# CORE MEMORIES\n- Sage answers in haiku.\n- Bob asked Sage about tides.",
    );
    expect(await coreMemories(bob, other.id)).toBeNull();
    expect(await coreMemories(ada, other.id)).toBe("# CORE MEMORIES\n- Ada keeps bees.");

    expect((await edit({ id: adaFact.id, active: false })).status).toBe(200);
    expect(await coreMemories(ada, other.id)).toBeNull();
    expect(await coreMemories(ada, sage.id)).toBe("# CORE MEMORIES\n- Sage answers in haiku.");

    expect((await edit({ id: adaFact.id, active: true, content: "Ada keeps two hives." })).status).toBe(200);
    expect(await coreMemories(ada, other.id)).toBe("# CORE MEMORIES\n- Ada keeps two hives.");
  });
});
