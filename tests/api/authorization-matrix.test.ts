// The authorisation matrix: every route file under app/api, every method it exports, called as five people —
// no session, a stranger, a member of the room, its owner and an admin — with the status each must get. The list
// of routes comes from the files themselves, so a new route (or a new method) without a row here fails the test.
// Allowed calls that would change something send a body the route refuses (400) or act on a resource made for
// that call alone, so every row sees the same fixtures.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { listMessages } from "@/db/queries";
import { memories, participants, summaries } from "@/db/schema";
import { TEST_IMAGES } from "@/tests/fixtures/images";
import { call, promoteToAdmin, signUp, type TestUser } from "../api-client";
import { runTurn } from "../fixtures/turns";

const ROLES = ["none", "stranger", "member", "owner", "admin"] as const;
type Role = (typeof ROLES)[number];
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

interface Fixtures {
  users: Record<Exclude<Role, "none">, TestUser>;
  conversationId: string;
  attemptId: string;
  attachmentId: string;
  summaryId: string;
  personaId: string;
}

interface Row {
  /** The route's folder under app/api, as on disk. */
  route: string;
  method: Method;
  expected: Record<Role, number>;
  /** The path params and the address for a call by `role`; may create a resource for this call alone. */
  target: (
    fx: Fixtures,
    role: Role,
  ) =>
    | Promise<{ params: Record<string, string>; path: string }>
    | {
        params: Record<string, string>;
        path: string;
      };
  body?: unknown;
}

// What each kind of route answers: "own" routes are about the caller's own data, "room" routes about Ada's room.
const signedIn = { none: 401, stranger: 200, member: 200, owner: 200, admin: 200 };
const adminOnly = (allowed: number) => ({
  none: 401,
  stranger: 403,
  member: 403,
  owner: 403,
  admin: allowed,
});
const roomReader = (allowed: number) => ({
  none: 401,
  stranger: 404,
  member: allowed,
  owner: allowed,
  admin: 404,
});
const INVALID = { "unknown field": true };
// Summaries are the owner's and the admins' to manage (admins see every conversation's summaries), members read.

const conversationPath = (fx: Fixtures) => ({
  params: { id: fx.conversationId },
  path: `/api/conversations/${fx.conversationId}`,
});

const ROWS: Row[] = [
  // Admin area: admins only; a valid-looking call by an admin is refused by validation, so nothing changes.
  {
    route: "admin/blocks",
    method: "GET",
    expected: adminOnly(200),
    target: () => ({ params: {}, path: "/api/admin/blocks" }),
  },
  {
    route: "admin/blocks",
    method: "POST",
    expected: adminOnly(400),
    target: () => ({ params: {}, path: "/api/admin/blocks" }),
    body: INVALID,
  },
  {
    route: "admin/blocks",
    method: "DELETE",
    expected: adminOnly(400),
    target: () => ({ params: {}, path: "/api/admin/blocks" }),
  },
  {
    route: "admin/memories",
    method: "GET",
    expected: adminOnly(200),
    target: () => ({ params: {}, path: "/api/admin/memories" }),
  },
  {
    route: "admin/memories",
    method: "POST",
    expected: adminOnly(400),
    target: () => ({ params: {}, path: "/api/admin/memories" }),
    body: INVALID,
  },
  {
    route: "admin/memories",
    method: "PUT",
    expected: adminOnly(400),
    target: () => ({ params: {}, path: "/api/admin/memories" }),
    body: INVALID,
  },
  {
    route: "admin/memories",
    method: "DELETE",
    expected: adminOnly(400),
    target: () => ({ params: {}, path: "/api/admin/memories" }),
  },
  {
    route: "admin/models",
    method: "GET",
    expected: adminOnly(200),
    target: () => ({ params: {}, path: "/api/admin/models" }),
  },
  {
    route: "admin/models",
    method: "POST",
    expected: adminOnly(400),
    target: () => ({ params: {}, path: "/api/admin/models" }),
    body: INVALID,
  },
  {
    route: "admin/models/[id]",
    method: "PUT",
    expected: adminOnly(400),
    target: () => ({ params: { id: "offline:echo" }, path: "/api/admin/models/offline:echo" }),
    body: INVALID,
  },
  {
    route: "admin/models/[id]",
    method: "DELETE",
    expected: adminOnly(404),
    target: () => ({ params: { id: "no-such-model" }, path: "/api/admin/models/no-such-model" }),
  },
  {
    route: "admin/personas",
    method: "GET",
    expected: adminOnly(200),
    target: () => ({ params: {}, path: "/api/admin/personas" }),
  },
  {
    route: "admin/personas",
    method: "POST",
    expected: adminOnly(400),
    target: () => ({ params: {}, path: "/api/admin/personas" }),
    body: INVALID,
  },
  {
    route: "admin/personas/[id]",
    method: "GET",
    expected: adminOnly(200),
    target: (fx) => ({ params: { id: fx.personaId }, path: `/api/admin/personas/${fx.personaId}` }),
  },
  {
    route: "admin/personas/[id]",
    method: "PUT",
    expected: adminOnly(400),
    target: (fx) => ({ params: { id: fx.personaId }, path: `/api/admin/personas/${fx.personaId}` }),
    body: INVALID,
  },
  {
    route: "admin/personas/[id]",
    method: "DELETE",
    expected: adminOnly(404),
    target: () => ({
      params: { id: "0190aaaa-0000-7000-8000-000000000000" },
      path: "/api/admin/personas/0190aaaa-0000-7000-8000-000000000000",
    }),
  },
  {
    route: "admin/personas/[id]/preview",
    method: "POST",
    expected: adminOnly(400),
    target: (fx) => ({ params: { id: fx.personaId }, path: `/api/admin/personas/${fx.personaId}/preview` }),
    body: INVALID,
  },
  {
    route: "admin/settings",
    method: "GET",
    expected: adminOnly(200),
    target: () => ({ params: {}, path: "/api/admin/settings" }),
  },
  {
    route: "admin/settings",
    method: "PUT",
    expected: adminOnly(400),
    target: () => ({ params: {}, path: "/api/admin/settings" }),
    body: INVALID,
  },
  {
    route: "admin/settings/versions",
    method: "GET",
    expected: adminOnly(200),
    target: () => ({ params: {}, path: "/api/admin/settings/versions" }),
  },
  {
    route: "admin/users",
    method: "GET",
    expected: adminOnly(200),
    target: () => ({ params: {}, path: "/api/admin/users" }),
  },
  {
    route: "admin/users/[id]",
    method: "PUT",
    expected: adminOnly(400),
    target: (fx) => ({ params: { id: fx.users.member.id }, path: `/api/admin/users/${fx.users.member.id}` }),
    body: INVALID,
  },

  // Things of a conversation: its readers (owner and members) see them; nobody else learns they exist (404).
  {
    route: "attachments/[id]",
    method: "GET",
    expected: roomReader(200),
    target: (fx) => ({ params: { id: fx.attachmentId }, path: `/api/attachments/${fx.attachmentId}` }),
  },
  {
    route: "attempts",
    method: "GET",
    expected: signedIn,
    target: () => ({ params: {}, path: "/api/attempts?kind=reply" }),
  },
  {
    route: "attempts/[id]",
    method: "GET",
    expected: roomReader(200),
    target: (fx) => ({ params: { id: fx.attemptId }, path: `/api/attempts/${fx.attemptId}` }),
  },
  {
    route: "attempts/[id]/replay",
    method: "POST",
    expected: roomReader(400),
    target: (fx) => ({ params: { id: fx.attemptId }, path: `/api/attempts/${fx.attemptId}/replay` }),
    body: INVALID,
  },
  {
    route: "chat/[id]/stream",
    method: "GET",
    expected: roomReader(204),
    target: (fx) => ({ params: { id: fx.conversationId }, path: `/api/chat/${fx.conversationId}/stream` }),
  },
  {
    route: "chat",
    method: "POST",
    expected: { none: 401, stranger: 404, member: 200, owner: 200, admin: 404 },
    target: () => ({ params: {}, path: "/api/chat" }),
    body: "CHAT_BODY",
  },
  {
    route: "conversations",
    method: "GET",
    expected: signedIn,
    target: () => ({ params: {}, path: "/api/conversations" }),
  },
  {
    route: "conversations",
    method: "POST",
    expected: { ...signedIn, stranger: 400, member: 400, owner: 400, admin: 400 },
    target: () => ({ params: {}, path: "/api/conversations" }),
    body: INVALID,
  },
  {
    route: "conversations/import",
    method: "POST",
    expected: { ...signedIn, stranger: 400, member: 400, owner: 400, admin: 400 },
    target: () => ({ params: {}, path: "/api/conversations/import" }),
    body: INVALID,
  },
  {
    route: "conversations/[id]/export",
    method: "GET",
    expected: roomReader(200),
    target: (fx) => ({
      params: { id: fx.conversationId },
      path: `/api/conversations/${fx.conversationId}/export`,
    }),
  },
  {
    route: "search",
    method: "GET",
    expected: signedIn,
    target: () => ({ params: {}, path: "/api/search?q=room" }),
  },
  { route: "conversations/[id]", method: "GET", expected: roomReader(200), target: conversationPath },
  {
    route: "conversations/[id]",
    method: "PATCH",
    expected: { none: 401, stranger: 404, member: 403, owner: 200, admin: 404 },
    target: conversationPath,
    body: { title: "Matrix room" },
  },
  {
    route: "conversations/[id]",
    method: "DELETE",
    expected: { none: 401, stranger: 404, member: 403, owner: 204, admin: 404 },
    target: async (fx) => {
      const id = await roomOf(fx);
      return { params: { id }, path: `/api/conversations/${id}` };
    },
  },
  {
    route: "conversations/[id]/attachments",
    method: "POST",
    expected: { ...roomReader(201) },
    target: (fx) => ({
      params: { id: fx.conversationId },
      path: `/api/conversations/${fx.conversationId}/attachments`,
    }),
    body: "UPLOAD",
  },
  {
    route: "conversations/[id]/compact",
    method: "POST",
    expected: { none: 401, stranger: 404, member: 403, owner: 409, admin: 409 },
    target: (fx) => ({
      params: { id: fx.conversationId },
      path: `/api/conversations/${fx.conversationId}/compact`,
    }),
    body: {},
  },
  {
    route: "conversations/[id]/messages",
    method: "GET",
    expected: roomReader(200),
    target: (fx) => ({
      params: { id: fx.conversationId },
      path: `/api/conversations/${fx.conversationId}/messages`,
    }),
  },
  {
    route: "conversations/[id]/participants/[userId]",
    method: "DELETE",
    expected: { none: 401, stranger: 404, member: 204, owner: 204, admin: 404 },
    target: async (fx, role) => {
      const id = await roomOf(fx);
      // A member takes themself out; the owner takes the member out; the others try to take the member out.
      const userId = fx.users.member.id;
      void role;
      return { params: { id, userId }, path: `/api/conversations/${id}/participants/${userId}` };
    },
  },
  {
    route: "conversations/[id]/participants",
    method: "GET",
    expected: roomReader(200),
    target: (fx) => ({
      params: { id: fx.conversationId },
      path: `/api/conversations/${fx.conversationId}/participants`,
    }),
  },
  {
    route: "conversations/[id]/participants",
    method: "POST",
    expected: { none: 401, stranger: 404, member: 403, owner: 202, admin: 404 },
    target: (fx) => ({
      params: { id: fx.conversationId },
      path: `/api/conversations/${fx.conversationId}/participants`,
    }),
    body: { email: "nobody-here@example.test" },
  },
  {
    route: "conversations/[id]/preview",
    method: "POST",
    expected: roomReader(200),
    target: (fx) => ({
      params: { id: fx.conversationId },
      path: `/api/conversations/${fx.conversationId}/preview`,
    }),
    body: { text: "What would you be sent?" },
  },
  {
    route: "conversations/[id]/summaries",
    method: "GET",
    expected: { ...roomReader(200), admin: 200 },
    target: (fx) => ({
      params: { id: fx.conversationId },
      path: `/api/conversations/${fx.conversationId}/summaries`,
    }),
  },
  {
    route: "conversations/[id]/summaries/[summaryId]",
    method: "GET",
    expected: { ...roomReader(200), admin: 200 },
    target: (fx) => ({
      params: { id: fx.conversationId, summaryId: fx.summaryId },
      path: `/api/conversations/${fx.conversationId}/summaries/${fx.summaryId}`,
    }),
  },
  {
    route: "conversations/[id]/summaries/[summaryId]",
    method: "PUT",
    expected: { none: 401, stranger: 404, member: 403, owner: 200, admin: 200 },
    target: (fx) => ({
      params: { id: fx.conversationId, summaryId: fx.summaryId },
      path: `/api/conversations/${fx.conversationId}/summaries/${fx.summaryId}`,
    }),
    body: { content: "Earlier: a matrix was tested." },
  },
  {
    route: "conversations/[id]/summaries/[summaryId]/revert",
    method: "POST",
    expected: { none: 401, stranger: 404, member: 403, owner: 200, admin: 200 },
    target: async (fx) => {
      const summaryId = await summaryOf(fx.conversationId);
      return {
        params: { id: fx.conversationId, summaryId },
        path: `/api/conversations/${fx.conversationId}/summaries/${summaryId}/revert`,
      };
    },
  },
  {
    route: "conversations/[id]/turns",
    method: "GET",
    expected: roomReader(200),
    target: (fx) => ({
      params: { id: fx.conversationId },
      path: `/api/conversations/${fx.conversationId}/turns`,
    }),
  },
  {
    // Nothing runs in the fixture conversation: who may stop gets 409, everyone else what they always get.
    route: "conversations/[id]/stop",
    method: "POST",
    expected: roomReader(409),
    target: (fx) => ({
      params: { id: fx.conversationId },
      path: `/api/conversations/${fx.conversationId}/stop`,
    }),
    body: {},
  },
  {
    // Live rooms: ?follow=0 reads what is stored and ends, so the call returns.
    route: "conversations/[id]/events",
    method: "GET",
    expected: roomReader(200),
    target: (fx) => ({
      params: { id: fx.conversationId },
      path: `/api/conversations/${fx.conversationId}/events?follow=0`,
    }),
  },
  {
    route: "conversations/[id]/typing",
    method: "POST",
    expected: roomReader(204),
    target: (fx) => ({
      params: { id: fx.conversationId },
      path: `/api/conversations/${fx.conversationId}/typing`,
    }),
    body: {},
  },
  {
    route: "conversations/[id]/branch",
    method: "POST",
    expected: roomReader(400),
    target: (fx) => ({
      params: { id: fx.conversationId },
      path: `/api/conversations/${fx.conversationId}/branch`,
    }),
    body: INVALID,
  },
  {
    route: "conversations/[id]/messages/[messageId]",
    method: "GET",
    expected: roomReader(200),
    target: async (fx) => {
      const messageId = await firstMessageOf(fx.conversationId);
      return {
        params: { id: fx.conversationId, messageId },
        path: `/api/conversations/${fx.conversationId}/messages/${messageId}`,
      };
    },
  },
  {
    route: "conversations/[id]/messages/[messageId]",
    method: "PATCH",
    expected: roomReader(400),
    target: async (fx) => {
      const messageId = await firstMessageOf(fx.conversationId);
      return {
        params: { id: fx.conversationId, messageId },
        path: `/api/conversations/${fx.conversationId}/messages/${messageId}`,
      };
    },
    body: INVALID,
  },
  {
    route: "conversations/[id]/write-as-me",
    method: "POST",
    expected: roomReader(200),
    target: (fx) => ({
      params: { id: fx.conversationId },
      path: `/api/conversations/${fx.conversationId}/write-as-me`,
    }),
    body: INVALID,
  },
  {
    // Each caller answers for themself, in a room where the member (only) has a pending invitation.
    route: "conversations/[id]/participants/[userId]",
    method: "PATCH",
    expected: { none: 401, stranger: 404, member: 200, owner: 404, admin: 404 },
    target: async (fx, role) => {
      const id = await roomOf(fx, "invited");
      const userId = role === "none" ? fx.users.member.id : fx.users[role].id;
      return { params: { id, userId }, path: `/api/conversations/${id}/participants/${userId}` };
    },
    body: { status: "accepted" },
  },
  {
    route: "invitations",
    method: "GET",
    expected: signedIn,
    target: () => ({ params: {}, path: "/api/invitations" }),
  },
  {
    route: "personas",
    method: "GET",
    expected: signedIn,
    target: () => ({ params: {}, path: "/api/personas" }),
  },

  // Health for load balancers: no session needed, nothing private in the answer.
  {
    route: "health",
    method: "GET",
    expected: { none: 200, stranger: 200, member: 200, owner: 200, admin: 200 },
    target: () => ({ params: {}, path: "/api/health" }),
  },
  {
    route: "ready",
    method: "GET",
    expected: { none: 200, stranger: 200, member: 200, owner: 200, admin: 200 },
    target: () => ({ params: {}, path: "/api/ready" }),
  },

  // A user's own memories: someone else's is not found, whoever asks; each call gets a memory of the owner's.
  {
    route: "memories",
    method: "GET",
    expected: signedIn,
    target: () => ({ params: {}, path: "/api/memories" }),
  },
  {
    route: "memories/[memoryId]",
    method: "PATCH",
    expected: { none: 401, stranger: 404, member: 404, owner: 200, admin: 404 },
    target: async (fx) => {
      const memoryId = await memoryOf(fx.users.owner);
      return { params: { memoryId }, path: `/api/memories/${memoryId}` };
    },
    body: { content: "Corrected." },
  },
  {
    route: "memories/[memoryId]",
    method: "DELETE",
    expected: { none: 401, stranger: 404, member: 404, owner: 204, admin: 404 },
    target: async (fx) => {
      const memoryId = await memoryOf(fx.users.owner);
      return { params: { memoryId }, path: `/api/memories/${memoryId}` };
    },
  },
  {
    route: "memories/preferences",
    method: "PUT",
    expected: { none: 401, stranger: 400, member: 400, owner: 400, admin: 400 },
    target: () => ({ params: {}, path: "/api/memories/preferences" }),
    body: INVALID,
  },

  // better-auth's own routes: get-session answers everyone (null without a session); a sign-out needs none.
  {
    route: "auth/[...all]",
    method: "GET",
    expected: { none: 200, stranger: 200, member: 200, owner: 200, admin: 200 },
    target: () => ({ params: {}, path: "/api/auth/get-session" }),
  },
  {
    route: "auth/[...all]",
    method: "POST",
    expected: { none: 400, stranger: 400, member: 400, owner: 400, admin: 400 },
    target: () => ({ params: {}, path: "/api/auth/sign-in/email" }),
    body: { email: "not an email" },
  },
];

/** Every route file's folder under app/api and the methods it exports. */
function routeFiles(): Array<{ route: string; file: string }> {
  const root = path.join(process.cwd(), "app", "api");
  const found: Array<{ route: string; file: string }> = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) visit(full);
      else if (entry === "route.ts")
        found.push({ route: path.relative(root, dir).split(path.sep).join("/"), file: full });
    }
  };
  visit(root);
  return found.sort((a, b) => a.route.localeCompare(b.route));
}

let fx: Fixtures;

async function roomOf(fixtures: Fixtures, memberRole: "member" | "invited" = "member"): Promise<string> {
  const conversationsRoute = await import("@/app/api/conversations/route");
  const created = await call(conversationsRoute.POST, "/api/conversations", {
    user: fixtures.users.owner,
    body: {},
  });
  const { id } = (await created.json()) as { id: string };
  const db = await getDb();
  await db
    .insert(participants)
    .values({ conversationId: id, userId: fixtures.users.member.id, role: memberRole });
  return id;
}

async function memoryOf(user: TestUser): Promise<string> {
  const [row] = await (await getDb())
    .insert(memories)
    .values({ scope: "user", userId: user.id, area: "fact", content: "Likes trams." })
    .returning({ id: memories.id });
  return row.id;
}

async function summaryOf(conversationId: string): Promise<string> {
  const db = await getDb();
  const [row] = await db
    .insert(summaries)
    .values({
      conversationId,
      content: "Earlier: nothing much.",
      coversThroughSeq: 0,
      messageCount: 0,
      trigger: "manual",
    })
    .returning();
  return row.id;
}

beforeAll(async () => {
  const [owner, member, stranger, admin] = await Promise.all([
    signUp("Owner"),
    signUp("Member"),
    signUp("Stranger"),
    signUp("Admin"),
  ]);
  // Whoever signed up first in this run's database is admin: make the roles exactly what the matrix says.
  const { user: userTable } = await import("@/db/schema");
  const { inArray } = await import("drizzle-orm");
  await (await getDb())
    .update(userTable)
    .set({ role: "user" })
    .where(inArray(userTable.id, [owner.id, member.id, stranger.id]));
  await promoteToAdmin(admin);
  const users = { owner, member, stranger, admin };
  const partial = { users } as Fixtures;
  const conversationId = await roomOf(partial);
  await runTurn(owner, conversationId, "Hello, matrix.");
  const turnsRoute = await import("@/app/api/conversations/[id]/turns/route");
  const turns = await call(turnsRoute.GET, `/api/conversations/${conversationId}/turns`, {
    user: owner,
    params: { id: conversationId },
  });
  const attemptId = ((await turns.json()) as { turns: Array<{ attempts: Array<{ id: string }> }> }).turns[0]
    .attempts[0].id;
  const uploadRoute = await import("@/app/api/conversations/[id]/attachments/route");
  const uploaded = await call(uploadRoute.POST, `/api/conversations/${conversationId}/attachments`, {
    user: owner,
    params: { id: conversationId },
    body: uploadForm(),
  });
  const attachmentId = ((await uploaded.json()) as { attachment: { id: string } }).attachment.id;
  const personasRoute = await import("@/app/api/admin/personas/route");
  const personas = await call(personasRoute.GET, "/api/admin/personas", { user: admin });
  const personaId = ((await personas.json()) as { personas: Array<{ id: string }> }).personas[0].id;
  fx = {
    users,
    conversationId,
    attemptId,
    attachmentId,
    summaryId: await summaryOf(conversationId),
    personaId,
  };
});

function uploadForm(): FormData {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(TEST_IMAGES.png)]), "pixel.png");
  return form;
}

/** The first stored message of a conversation (the fixture conversation has had a turn). */
async function firstMessageOf(conversationId: string): Promise<string> {
  const [first] = await listMessages({ db: await getDb(), conversationId });
  if (!first) throw new Error("the fixture conversation has no message");
  return first.id;
}

function bodyFor(row: Row): unknown {
  if (row.body === "UPLOAD") return uploadForm();
  if (row.body === "CHAT_BODY") {
    return {
      id: fx.conversationId,
      // A fresh message id per call: the same id twice is refused (409) by design.
      message: {
        id: crypto.randomUUID(),
        role: "user",
        parts: [{ type: "text", text: "A turn of the matrix." }],
      },
      trigger: "submit-message",
    };
  }
  return row.body;
}

describe("the route list and the matrix agree", () => {
  test("every exported method of every route file has a row, and every row a route", async () => {
    const missing: string[] = [];
    const exported = new Set<string>();
    for (const { route, file } of routeFiles()) {
      const module = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
      for (const method of METHODS) {
        if (typeof module[method] !== "function") continue;
        exported.add(`${method} ${route}`);
        if (!ROWS.some((row) => row.route === route && row.method === method))
          missing.push(`${method} ${route}`);
      }
    }
    expect(missing, "routes without a row in the authorisation matrix").toEqual([]);
    const stale = ROWS.map((row) => `${row.method} ${row.route}`).filter((key) => !exported.has(key));
    expect(stale, "rows for routes that do not exist").toEqual([]);
  });
});

describe.each(ROWS)("$method /api/$route", (row) => {
  test.each(ROLES)("as %s", async (role) => {
    const file = path.join(process.cwd(), "app", "api", ...row.route.split("/"), "route.ts");
    const module = (await import(/* @vite-ignore */ file)) as Record<string, Parameters<typeof call>[0]>;
    const { params, path: address } = await row.target(fx, role);
    const response = await call(module[row.method], address, {
      user: role === "none" ? null : fx.users[role],
      method: row.method,
      params,
      body: bodyFor(row),
    });
    const text = await response.text();
    expect(response.status, `${row.method} ${address} as ${role}: ${text.slice(0, 200)}`).toBe(
      row.expected[role],
    );
    if (response.status >= 400) {
      const parsed = JSON.parse(text) as { error?: { code?: string; message?: string }; message?: string };
      expect(parsed.error?.message ?? parsed.message, "an error says what").toBeTruthy();
    }
  });
});
