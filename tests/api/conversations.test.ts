import { beforeAll, describe, expect, test } from "vitest";
import * as messagesRoute from "@/app/api/conversations/[id]/messages/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { getDb } from "@/db/client";
import { listMessages } from "@/db/message-queries";
import { badRequest, call, expectError, signUp, type TestUser } from "../api-client";

let ada: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ada = await signUp("Ada");
  bob = await signUp("Bob");
});

async function createConversation(user: TestUser, body: unknown = {}) {
  const response = await call(conversationsRoute.POST, "/api/conversations", { user, body });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

describe("conversations", () => {
  test("create, list, read, rename and delete", async () => {
    const id = await createConversation(ada, { title: "  Trip planning " });
    const list = await (await call(conversationsRoute.GET, "/api/conversations", { user: ada })).json();
    expect(list.conversations.map((c: { id: string }) => c.id)).toContain(id);
    expect(list.conversations.find((c: { id: string }) => c.id === id).title).toBe("Trip planning");

    const read = await call(conversationRoute.GET, `/api/conversations/${id}`, { user: ada, params: { id } });
    expect(read.status).toBe(200);
    const body = await read.json();
    expect(body.conversation.isOwner).toBe(true);
    expect(body.persona.name).toBe("Glassbox Guide");

    const renamed = await call(conversationRoute.PATCH, `/api/conversations/${id}`, {
      user: ada,
      method: "PATCH",
      params: { id },
      body: { title: "Renamed" },
    });
    expect((await renamed.json()).conversation.title).toBe("Renamed");

    const deleted = await call(conversationRoute.DELETE, `/api/conversations/${id}`, {
      user: ada,
      method: "DELETE",
      params: { id },
    });
    expect(deleted.status).toBe(204);
    const gone = await call(conversationRoute.GET, `/api/conversations/${id}`, { user: ada, params: { id } });
    await expectError(gone, 404, "not_found");
  });

  test("another user's conversation is a 404 on every route, and stays untouched", async () => {
    const id = await createConversation(ada, { title: "Private" });
    const asBob = { user: bob, params: { id } };
    await expectError(await call(conversationRoute.GET, `/api/conversations/${id}`, asBob), 404, "not_found");
    await expectError(
      await call(messagesRoute.GET, `/api/conversations/${id}/messages`, asBob),
      404,
      "not_found",
    );
    await expectError(
      await call(conversationRoute.PATCH, `/api/conversations/${id}`, {
        ...asBob,
        method: "PATCH",
        body: { title: "Mine now" },
      }),
      404,
      "not_found",
    );
    await expectError(
      await call(conversationRoute.DELETE, `/api/conversations/${id}`, { ...asBob, method: "DELETE" }),
      404,
      "not_found",
    );
    const list = await (await call(conversationsRoute.GET, "/api/conversations", { user: bob })).json();
    expect(list.conversations.map((c: { id: string }) => c.id)).not.toContain(id);
    const read = await (
      await call(conversationRoute.GET, `/api/conversations/${id}`, { user: ada, params: { id } })
    ).json();
    expect(read.conversation.title).toBe("Private");
  });

  test("the transcript lists every message in seq order", async () => {
    const id = await createConversation(ada);
    const response = await call(messagesRoute.GET, `/api/conversations/${id}/messages`, {
      user: ada,
      params: { id },
    });
    expect(await response.json()).toEqual({
      messages: [],
      media: {},
      toolNames: {},
      reasoning: {},
      variants: {},
      questionVersions: {},
      replyModels: {},
      modelView: null,
    });
  });
});

describe("bad input gets a clear 4xx and stores nothing", () => {
  const cases: Array<{ name: string; body: unknown; status: number; code: string; message?: RegExp }> = [
    {
      name: "malformed JSON",
      body: "{not json",
      status: 400,
      code: "invalid_json",
      message: /not valid JSON/,
    },
    badRequest("title of the wrong type", { title: 5 }, /title must be text/),
    badRequest("empty title", { title: "   " }, /title must not be empty/),
    badRequest("unknown key", { owner: "x" }, /owner/),
    badRequest("persona id that is not an id", { personaId: "abc" }, /personaId/),
    {
      name: "unknown persona",
      body: { personaId: "0190aaaa-0000-7000-8000-000000000000" },
      status: 404,
      code: "not_found",
      message: /Persona/,
    },
    {
      name: "1 MB body",
      body: JSON.stringify({ title: "x".repeat(1024 * 1024) }),
      status: 413,
      code: "payload_too_large",
    },
  ];

  test.each(cases)("POST /api/conversations: $name", async ({ body, status, code, message }) => {
    const before = await (await call(conversationsRoute.GET, "/api/conversations", { user: bob })).json();
    const response = await call(conversationsRoute.POST, "/api/conversations", { user: bob, body });
    const text = await expectError(response, status, code);
    if (message) expect(text).toMatch(message);
    const after = await (await call(conversationsRoute.GET, "/api/conversations", { user: bob })).json();
    expect(after.conversations.length).toBe(before.conversations.length);
  });

  test("no session: 401 on every conversation route", async () => {
    const id = "0190aaaa-0000-7000-8000-000000000000";
    await expectError(await call(conversationsRoute.GET, "/api/conversations"), 401, "unauthorized");
    await expectError(
      await call(conversationsRoute.POST, "/api/conversations", { body: {} }),
      401,
      "unauthorized",
    );
    await expectError(
      await call(conversationRoute.GET, `/api/conversations/${id}`, { params: { id } }),
      401,
      "unauthorized",
    );
    await expectError(
      await call(messagesRoute.GET, `/api/conversations/${id}/messages`, { params: { id } }),
      401,
      "unauthorized",
    );
  });

  test("an id that is not a UUID is simply not found", async () => {
    const response = await call(conversationRoute.GET, "/api/conversations/../../etc", {
      user: ada,
      params: { id: "../../etc" },
    });
    await expectError(response, 404, "not_found");
  });

  test("PATCH with an out-of-range override names the key and its range", async () => {
    const id = await createConversation(ada);
    const response = await call(conversationRoute.PATCH, `/api/conversations/${id}`, {
      user: ada,
      method: "PATCH",
      params: { id },
      body: { settingsOverride: { contextNote: { depth: 5000 } } },
    });
    const message = await expectError(response, 400, "bad_request");
    expect(message).toBe(
      "settingsOverride.contextNote.depth: contextNote.depth must be a whole number from 0 to 1000",
    );
    const db = await getDb();
    expect(await listMessages({ db, conversationId: id })).toEqual([]);
  });

  test("PATCH with an override that contradicts the settings it resolves with names both keys; nothing stored", async () => {
    const id = await createConversation(ada);
    const patch = (settingsOverride: unknown) =>
      call(conversationRoute.PATCH, `/api/conversations/${id}`, {
        user: ada,
        method: "PATCH",
        params: { id },
        body: { settingsOverride },
      });
    const message = await expectError(
      await patch({ summary: { keepRecentTurns: 20 }, history: { messageFetchLimit: 30 } }),
      400,
      "bad_request",
    );
    expect(message).toBe(
      "settingsOverride.history.messageFetchLimit: history.messageFetchLimit (30) cannot hold the 20 turns summary.keepRecentTurns keeps verbatim: every turn would be summarised again. Load at least 42 messages or keep fewer turns.",
    );
    const stored = await call(conversationRoute.GET, `/api/conversations/${id}`, {
      user: ada,
      params: { id },
    });
    expect(
      ((await stored.json()) as { conversation: { settingsOverride: unknown } }).conversation
        .settingsOverride,
    ).toEqual({});
    // The same limit agrees once only Compact summarises.
    const manual = await patch({
      summary: { keepRecentTurns: 20, mode: "manual" },
      history: { messageFetchLimit: 30 },
    });
    expect(manual.status, await manual.clone().text()).toBe(200);
  });
});
