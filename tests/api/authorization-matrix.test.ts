// The authorisation matrix: every route file under app/api, every method it exports, called as five people —
// no session, a stranger, a member of the room, its owner and an admin — with the status each must get. The list
// of routes comes from the files themselves, so a new route (or a new method) without a row here fails the test.
// Allowed calls that would change something send a body the route refuses (400) or act on a resource made for
// that call alone, so every row sees the same fixtures.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { listMessages } from "@/db/message-queries";
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
/** The status each caller gets: no session, a stranger, a member, the owner, an admin. */
const answers = (none: number, stranger: number, member: number, owner: number, admin: number) => ({
  none,
  stranger,
  member,
  owner,
  admin,
});
const signedIn = (allowed: number) => answers(401, allowed, allowed, allowed, allowed);
const adminOnly = (allowed: number) => answers(401, 403, 403, 403, allowed);
const roomReader = (allowed: number) => answers(401, 404, allowed, allowed, 404);
const roomReaderAndAdmins = (allowed: number) => answers(401, 404, allowed, allowed, allowed);
// Members may look but not change (403); only the owner, and for some routes admins, may.
const roomOwner = (allowed: number) => answers(401, 404, 403, allowed, 404);
const roomOwnerAndAdmins = (allowed: number) => answers(401, 404, 403, allowed, allowed);
// A memory is its owner's alone: anyone else is told it is not found.
const memoryOwner = (allowed: number) => answers(401, 404, 404, allowed, 404);
const everyone = (status: number) => answers(status, status, status, status, status);
const INVALID = { "unknown field": true };
// Summaries are the owner's and the admins' to manage (admins see every conversation's summaries), members read.

type Params = Record<string, string>;

/**
 * The row of a call to the route's own address: each `[name]` in it filled in from `params` (which may make a
 * resource for this call alone), then `query`.
 */
function row(
  route: string,
  method: Method,
  expected: Record<Role, number>,
  options: {
    params?: (fx: Fixtures, role: Role) => Params | Promise<Params>;
    query?: string;
    body?: unknown;
  } = {},
): Row {
  return {
    route,
    method,
    expected,
    target: async (fx, role) => {
      const params = (await options.params?.(fx, role)) ?? {};
      const address = route.replace(/\[(\w+)\]/g, (_, name: string) => params[name]);
      return { params, path: `/api/${address}${options.query ? `?${options.query}` : ""}` };
    },
    body: options.body,
  };
}

const inTheRoom = (fx: Fixtures) => ({ id: fx.conversationId });
const thePersona = (fx: Fixtures) => ({ id: fx.personaId });
const theAttempt = (fx: Fixtures) => ({ id: fx.attemptId });
const theSummary = (fx: Fixtures) => ({ id: fx.conversationId, summaryId: fx.summaryId });
const theFirstMessage = async (fx: Fixtures) => ({
  id: fx.conversationId,
  messageId: await firstMessageOf(fx.conversationId),
});
const anOwnersMemory = async (fx: Fixtures) => ({ memoryId: await memoryOf(fx.users.owner) });
const anOwnersKey = async (fx: Fixtures) => ({ id: await apiKeyOf(fx.users.owner) });
const anOwnersDataset = async (fx: Fixtures) => ({ id: await datasetOf(fx) });
const anOwnersExperiment = async (fx: Fixtures) => ({ id: await experimentOf(fx) });

const ROWS: Row[] = [
  // Admin area: admins only; a valid-looking call by an admin is refused by validation, so nothing changes.
  row("admin/blocks", "GET", adminOnly(200)),
  row("admin/blocks", "POST", adminOnly(400), { body: INVALID }),
  row("admin/blocks", "DELETE", adminOnly(400)),
  row("admin/memories", "GET", adminOnly(200)),
  row("admin/memories", "POST", adminOnly(400), { body: INVALID }),
  row("admin/memories", "PUT", adminOnly(400), { body: INVALID }),
  row("admin/memories", "DELETE", adminOnly(400)),
  row("admin/models", "GET", adminOnly(200)),
  row("admin/models", "POST", adminOnly(400), { body: INVALID }),
  row("admin/models/[id]", "PUT", adminOnly(400), { params: () => ({ id: "offline:echo" }), body: INVALID }),
  row("admin/models/[id]", "DELETE", adminOnly(404), { params: () => ({ id: "no-such-model" }) }),
  row("admin/personas", "GET", adminOnly(200)),
  row("admin/personas", "POST", adminOnly(400), { body: INVALID }),
  row("admin/personas/[id]", "GET", adminOnly(200), { params: thePersona }),
  row("admin/personas/[id]", "PUT", adminOnly(400), { params: thePersona, body: INVALID }),
  row("admin/personas/[id]", "DELETE", adminOnly(404), {
    params: () => ({ id: "0190aaaa-0000-7000-8000-000000000000" }),
  }),
  row("admin/personas/[id]/preview", "POST", adminOnly(400), { params: thePersona, body: INVALID }),
  row("admin/personas/[id]/versions", "GET", adminOnly(200), { params: thePersona }),
  // Versions that do not exist: found by nobody, and the admin's restore changes nothing.
  row("admin/personas/[id]/versions/[version]", "GET", adminOnly(404), {
    params: (fx) => ({ id: fx.personaId, version: "999999" }),
  }),
  row("admin/personas/[id]/versions/[version]/restore", "POST", adminOnly(404), {
    params: (fx) => ({ id: fx.personaId, version: "999999" }),
  }),
  row("admin/settings", "GET", adminOnly(200)),
  row("admin/settings", "PUT", adminOnly(400), { body: INVALID }),
  row("admin/settings/versions", "GET", adminOnly(200)),
  row("admin/settings/versions/[version]", "GET", adminOnly(200), { params: () => ({ version: "1" }) }),
  // A version that does not exist: the admin's call changes nothing either.
  row("admin/settings/versions/[version]/restore", "POST", adminOnly(404), {
    params: () => ({ version: "999999" }),
  }),
  row("admin/users", "GET", adminOnly(200)),
  row("admin/users/[id]", "PUT", adminOnly(400), {
    params: (fx) => ({ id: fx.users.member.id }),
    body: INVALID,
  }),

  // Things of a conversation: its readers (owner and members) see them; nobody else learns they exist (404).
  row("attachments/[id]", "GET", roomReader(200), { params: (fx) => ({ id: fx.attachmentId }) }),
  row("attempts", "GET", signedIn(200), { query: "kind=reply" }),
  row("attempts/[id]", "GET", roomReader(200), { params: theAttempt }),
  row("attempts/[id]/replay", "POST", roomReader(400), { params: theAttempt, body: INVALID }),
  row("chat/[id]/stream", "GET", roomReader(204), { params: inTheRoom }),
  row("chat", "POST", roomReader(200), { body: "CHAT_BODY" }),
  // A message that is not there: the owner gets 404 once the models are checked, a member 403.
  row("chat/[id]/compare", "POST", roomOwner(404), {
    params: inTheRoom,
    body: { messageId: "00000000-0000-4000-8000-000000000000", modelIds: ["offline:echo"] },
  }),
  row("conversations", "GET", signedIn(200)),
  row("conversations", "POST", signedIn(400), { body: INVALID }),
  row("conversations/import", "POST", signedIn(400), { body: INVALID }),
  row("conversations/[id]/export", "GET", roomReader(200), { params: inTheRoom }),
  row("search", "GET", signedIn(200), { query: "q=room" }),
  row("conversations/[id]", "GET", roomReader(200), { params: inTheRoom }),
  row("conversations/[id]", "PATCH", roomOwner(200), { params: inTheRoom, body: { title: "Matrix room" } }),
  row("conversations/[id]", "DELETE", roomOwner(204), { params: async (fx) => ({ id: await roomOf(fx) }) }),
  row("conversations/[id]/attachments", "POST", roomReader(201), { params: inTheRoom, body: "UPLOAD" }),
  row("conversations/[id]/compact", "POST", roomOwnerAndAdmins(200), { params: inTheRoom, body: {} }),
  row("conversations/[id]/messages", "GET", roomReader(200), { params: inTheRoom }),
  // A member takes themself out; the owner takes the member out; the others try to take the member out.
  row("conversations/[id]/participants/[userId]", "DELETE", roomReader(204), {
    params: async (fx) => ({ id: await roomOf(fx), userId: fx.users.member.id }),
  }),
  row("conversations/[id]/participants", "GET", roomReader(200), { params: inTheRoom }),
  row("conversations/[id]/participants", "POST", roomOwner(202), {
    params: inTheRoom,
    body: { email: "nobody-here@example.test" },
  }),
  row("conversations/[id]/preview", "POST", roomReader(200), {
    params: inTheRoom,
    body: { text: "What would you be sent?" },
  }),
  row("conversations/[id]/summaries", "GET", roomReaderAndAdmins(200), { params: inTheRoom }),
  row("conversations/[id]/summaries/[summaryId]", "GET", roomReaderAndAdmins(200), { params: theSummary }),
  row("conversations/[id]/summaries/[summaryId]", "PUT", roomOwnerAndAdmins(200), {
    params: theSummary,
    body: { content: "Earlier: a matrix was tested." },
  }),
  row("conversations/[id]/summaries/[summaryId]/revert", "POST", roomOwnerAndAdmins(200), {
    params: async (fx) => ({ id: fx.conversationId, summaryId: await summaryOf(fx.conversationId) }),
  }),
  row("conversations/[id]/turns", "GET", roomReader(200), { params: inTheRoom }),
  // Nothing runs in the fixture conversation: who may stop gets 409, everyone else what they always get.
  row("conversations/[id]/stop", "POST", roomReader(409), { params: inTheRoom, body: {} }),
  // Live rooms: ?follow=0 reads what is stored and ends, so the call returns.
  row("conversations/[id]/events", "GET", roomReader(200), { params: inTheRoom, query: "follow=0" }),
  row("conversations/[id]/typing", "POST", roomReader(204), { params: inTheRoom, body: {} }),
  row("conversations/[id]/branch", "POST", roomReader(400), { params: inTheRoom, body: INVALID }),
  row("conversations/[id]/messages/[messageId]", "GET", roomReader(200), { params: theFirstMessage }),
  row("conversations/[id]/messages/[messageId]", "PATCH", roomReader(400), {
    params: theFirstMessage,
    body: INVALID,
  }),
  row("conversations/[id]/write-as-me", "POST", roomReader(200), { params: inTheRoom, body: INVALID }),
  // Each caller answers for themself, in a room where the member (only) has a pending invitation.
  row("conversations/[id]/participants/[userId]", "PATCH", answers(401, 404, 200, 404, 404), {
    params: async (fx, role) => ({
      id: await roomOf(fx, "invited"),
      userId: role === "none" ? fx.users.member.id : fx.users[role].id,
    }),
    body: { status: "accepted" },
  }),
  row("invitations", "GET", signedIn(200)),
  row("personas", "GET", signedIn(200)),

  // Health for load balancers: no session needed, nothing private in the answer.
  row("health", "GET", everyone(200)),
  row("ready", "GET", everyone(200)),

  // A user's own memories: someone else's is not found, whoever asks; each call gets a memory of the owner's.
  row("memories", "GET", signedIn(200)),
  row("memories/[memoryId]", "PATCH", memoryOwner(200), {
    params: anOwnersMemory,
    body: { content: "Corrected." },
  }),
  row("memories/[memoryId]", "DELETE", memoryOwner(204), { params: anOwnersMemory }),
  row("memories/preferences", "PUT", signedIn(400), { body: INVALID }),

  // A user's own API keys: someone else's is not found, whoever asks; each call revokes a key made for it.
  row("keys", "GET", signedIn(200)),
  row("keys", "POST", signedIn(400), { body: INVALID }),
  row("keys/[id]", "DELETE", memoryOwner(204), { params: anOwnersKey }),

  // A user's own datasets and experiments: someone else's is not found, whoever asks; each call gets its own.
  row("datasets", "GET", signedIn(200)),
  row("datasets", "POST", signedIn(400), { body: INVALID }),
  row("datasets/[id]", "GET", memoryOwner(200), { params: anOwnersDataset }),
  row("datasets/[id]", "DELETE", memoryOwner(204), { params: anOwnersDataset }),
  row("datasets/[id]/experiments", "POST", memoryOwner(400), { params: anOwnersDataset, body: INVALID }),
  row("experiments/[id]", "GET", memoryOwner(200), { params: anOwnersExperiment }),
  row("experiments/[id]/results/[position]", "GET", memoryOwner(200), {
    params: async (fx) => ({ ...(await anOwnersExperiment(fx)), position: "0" }),
  }),

  // better-auth's own routes: get-session answers everyone (null without a session); a sign-out needs none.
  {
    route: "auth/[...all]",
    method: "GET",
    expected: everyone(200),
    target: () => ({ params: {}, path: "/api/auth/get-session" }),
  },
  {
    route: "auth/[...all]",
    method: "POST",
    expected: everyone(400),
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

async function apiKeyOf(user: TestUser): Promise<string> {
  const { createApiKey } = await import("@/lib/gateway/api-keys");
  const { key } = await createApiKey({
    db: await getDb(),
    userId: user.id,
    name: "matrix",
    personaIds: null,
  });
  return key.id;
}

async function datasetOf(fixtures: Fixtures): Promise<string> {
  const { createDataset } = await import("@/db/dataset-queries");
  const dataset = await createDataset({
    db: await getDb(),
    userId: fixtures.users.owner.id,
    name: "matrix",
    conversationIds: [fixtures.conversationId],
  });
  return dataset.id;
}

/** A finished dry experiment of the owner's over their room, with its one row. */
async function experimentOf(fixtures: Fixtures): Promise<string> {
  const experimentsRoute = await import("@/app/api/datasets/[id]/experiments/route");
  const { settleExperiments } = await import("@/lib/lab/run-experiment");
  const datasetId = await datasetOf(fixtures);
  const started = await call(experimentsRoute.POST, `/api/datasets/${datasetId}/experiments`, {
    user: fixtures.users.owner,
    params: { id: datasetId },
    body: { candidate: {} },
  });
  const { experiment } = (await started.json()) as { experiment: { id: string } };
  await settleExperiments();
  return experiment.id;
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

// The gateway (/v1) answers to an API key alone: a session, whoever's, is no key (401); a key works with no cookie.
const GATEWAY_ROWS = [
  { route: "v1/models", method: "GET", withKey: 200 },
  {
    route: "v1/chat/completions",
    method: "POST",
    withKey: 404,
    body: { model: "no-such-persona", messages: [{ role: "user", content: "hi" }] },
  },
  { route: "v1/responses", method: "POST", withKey: 404, body: { model: "no-such-persona", input: "hi" } },
] as const;

describe("the gateway's routes take an API key, never a session", () => {
  test("every route file under app/v1 has a row", () => {
    const files: string[] = [];
    const visit = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const full = path.join(dir, entry);
        if (statSync(full).isDirectory()) visit(full);
        else if (entry === "route.ts") files.push(path.relative(path.join(process.cwd(), "app"), dir));
      }
    };
    visit(path.join(process.cwd(), "app", "v1"));
    expect(files.sort()).toEqual(GATEWAY_ROWS.map((row) => row.route).sort());
  });

  describe.each(GATEWAY_ROWS)("$method /$route", (row) => {
    test.each(ROLES)("as %s with a session and no key: 401", async (role) => {
      const file = path.join(process.cwd(), "app", ...row.route.split("/"), "route.ts");
      const module = (await import(/* @vite-ignore */ file)) as Record<string, Parameters<typeof call>[0]>;
      const response = await call(module[row.method], `/${row.route}`, {
        user: role === "none" ? null : fx.users[role],
        method: row.method,
        body: "body" in row ? row.body : undefined,
      });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("missing_api_key");
    });

    test("with the owner's key and no cookie or origin", async () => {
      const { createApiKey } = await import("@/lib/gateway/api-keys");
      const { secret } = await createApiKey({
        db: await getDb(),
        userId: fx.users.owner.id,
        name: "matrix",
        personaIds: null,
      });
      const file = path.join(process.cwd(), "app", ...row.route.split("/"), "route.ts");
      const module = (await import(/* @vite-ignore */ file)) as Record<
        string,
        (request: Request) => Promise<Response>
      >;
      const body = "body" in row ? JSON.stringify(row.body) : undefined;
      const response = await module[row.method](
        new Request(`http://localhost:3000/${row.route}`, {
          method: row.method,
          headers: {
            authorization: `Bearer ${secret}`,
            ...(body ? { "content-type": "application/json" } : {}),
          },
          body,
        }),
      );
      expect(response.status, await response.clone().text()).toBe(row.withKey);
    });
  });
});
