import { beforeAll, describe, expect, test } from "vitest";
import * as blocksRoute from "@/app/api/admin/blocks/route";
import * as memoriesRoute from "@/app/api/admin/memories/route";
import * as modelRoute from "@/app/api/admin/models/[id]/route";
import * as modelsRoute from "@/app/api/admin/models/route";
import * as personaPreviewRoute from "@/app/api/admin/personas/[id]/preview/route";
import * as personaRoute from "@/app/api/admin/personas/[id]/route";
import * as personasRoute from "@/app/api/admin/personas/route";
import * as settingsRoute from "@/app/api/admin/settings/route";
import * as versionsRoute from "@/app/api/admin/settings/versions/route";
import * as userRoute from "@/app/api/admin/users/[id]/route";
import * as usersRoute from "@/app/api/admin/users/route";
import { listSettingsVersions } from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { listModels } from "@/db/model-queries";
import { getDefaultPersona, listPersonas } from "@/db/persona-queries";
import { call, expectError } from "../api-client";
import { signedUpForFile } from "../fixtures/users";
import { isolateDatabase } from "./admin-helpers";

isolateDatabase("admin_access");

type AnyHandler = Parameters<typeof call>[0];

const admin = signedUpForFile("Root", { admin: true });
const member = signedUpForFile("Member");
let personaId: string;

beforeAll(async () => {
  personaId = (await getDefaultPersona({ db: await getDb() })).id;
});

interface AdminCall {
  name: string;
  handler: () => AnyHandler;
  path: () => string;
  method: string;
  params?: () => Record<string, string>;
  body?: () => unknown;
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

/**
 * The row for `method pattern`: the call goes to the pattern with `:id` filled in by `id` (also the route's param)
 * and `query` appended; `body` is one that would be valid for an admin, so only the role decides.
 */
function adminCall(
  route: Partial<Record<Method, AnyHandler>>,
  method: Method,
  pattern: string,
  options: { id?: () => string; query?: () => string; body?: () => unknown } = {},
): AdminCall {
  const { id, query, body } = options;
  return {
    name: `${method} ${pattern}`,
    handler: () => route[method] as AnyHandler,
    path: () => `${id ? pattern.replace(":id", id()) : pattern}${query ? `?${query()}` : ""}`,
    method,
    ...(id ? { params: () => ({ id: id() }) } : {}),
    ...(body ? { body } : {}),
  };
}

const thePersona = () => personaId;
const theEchoModel = () => "offline:echo";

// Every admin route and method.
const routes: AdminCall[] = [
  adminCall(settingsRoute, "GET", "/api/admin/settings"),
  adminCall(settingsRoute, "PUT", "/api/admin/settings", { body: () => ({ settings: {} }) }),
  adminCall(versionsRoute, "GET", "/api/admin/settings/versions"),
  adminCall(personasRoute, "GET", "/api/admin/personas"),
  adminCall(personasRoute, "POST", "/api/admin/personas", {
    body: () => ({ name: "Sneaky", modelId: "offline:echo" }),
  }),
  adminCall(personaRoute, "GET", "/api/admin/personas/:id", { id: thePersona }),
  adminCall(personaRoute, "PUT", "/api/admin/personas/:id", {
    id: thePersona,
    body: () => ({ name: "Hijacked" }),
  }),
  adminCall(personaRoute, "DELETE", "/api/admin/personas/:id", { id: thePersona }),
  adminCall(personaPreviewRoute, "POST", "/api/admin/personas/:id/preview", {
    id: thePersona,
    body: () => ({ conversationId: personaId, text: "hi" }),
  }),
  adminCall(modelsRoute, "GET", "/api/admin/models"),
  adminCall(modelsRoute, "POST", "/api/admin/models", { body: () => ({ id: "x:y" }) }),
  adminCall(modelRoute, "PUT", "/api/admin/models/:id", {
    id: theEchoModel,
    body: () => ({ enabled: false }),
  }),
  adminCall(modelRoute, "DELETE", "/api/admin/models/:id", { id: theEchoModel }),
  adminCall(blocksRoute, "GET", "/api/admin/blocks"),
  adminCall(blocksRoute, "POST", "/api/admin/blocks", {
    body: () => ({ personaId, userId: member.id, blockType: "block", durationMinutes: null }),
  }),
  adminCall(blocksRoute, "DELETE", "/api/admin/blocks", {
    query: () => `personaId=${personaId}&userId=${member.id}`,
  }),
  adminCall(memoriesRoute, "GET", "/api/admin/memories"),
  adminCall(memoriesRoute, "POST", "/api/admin/memories", {
    body: () => ({ scope: "user", userId: member.id, area: "fact", content: "x" }),
  }),
  adminCall(memoriesRoute, "PUT", "/api/admin/memories", { body: () => ({ id: personaId, content: "x" }) }),
  adminCall(memoriesRoute, "DELETE", "/api/admin/memories", { query: () => `id=${personaId}` }),
  adminCall(usersRoute, "GET", "/api/admin/users"),
  adminCall(userRoute, "PUT", "/api/admin/users/:id", {
    id: () => member.id,
    body: () => ({ role: "admin" }),
  }),
];

describe("every admin route refuses without a session and for non-admins", () => {
  test.each(routes)("$name: no session → 401", async ({ handler, path, method, params, body }) => {
    const response = await call(handler(), path(), { method, params: params?.(), body: body?.() });
    const message = await expectError(response, 401, "unauthorized");
    expect(message).toMatch(/sign in/i);
  });

  test.each(routes)("$name: signed-in non-admin → 403", async ({ handler, path, method, params, body }) => {
    const response = await call(handler(), path(), {
      user: member,
      method,
      params: params?.(),
      body: body?.(),
    });
    const message = await expectError(response, 403, "forbidden");
    expect(message).toBe("Admins only.");
  });

  test("the refused calls changed nothing", async () => {
    const db = await getDb();
    expect((await listSettingsVersions({ db })).map((row) => row.version)).toEqual([1]);
    const personas = await listPersonas({ db });
    expect(personas.map((persona) => persona.name)).toEqual(["Glassbox Guide"]);
    expect((await listModels({ db })).find((model) => model.id === "offline:echo")?.enabled).toBe(true);
    const users = await call(usersRoute.GET, "/api/admin/users", { user: admin });
    const { users: list } = (await users.json()) as { users: Array<{ id: string; role: string }> };
    expect(list.find((row) => row.id === member.id)?.role).toBe("user");
    const blocks = await call(blocksRoute.GET, "/api/admin/blocks", { user: admin });
    expect(((await blocks.json()) as { blocks: unknown[] }).blocks).toEqual([]);
    const memories = await call(memoriesRoute.GET, "/api/admin/memories", { user: admin });
    expect(((await memories.json()) as { memories: unknown[] }).memories).toEqual([]);
  });

  test("an admin gets through", async () => {
    const response = await call(settingsRoute.GET, "/api/admin/settings", { user: admin });
    expect(response.status).toBe(200);
  });
});
