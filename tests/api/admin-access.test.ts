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
import { getDefaultPersona, listModels, listPersonas } from "@/db/queries";
import { call, expectError, signUp, type TestUser } from "../api-client";
import { isolateDatabase, signUpAdmin } from "./admin-helpers";

isolateDatabase("admin_access");

type AnyHandler = Parameters<typeof call>[0];

let admin: TestUser;
let member: TestUser;
let personaId: string;

beforeAll(async () => {
  admin = await signUpAdmin("Root");
  member = await signUp("Member");
  personaId = (await getDefaultPersona({ db: await getDb() })).id;
});

// Every admin route and method, with a body that would be valid for an admin, so only the role decides.
const routes: Array<{
  name: string;
  handler: () => AnyHandler;
  path: () => string;
  method: string;
  params?: () => Record<string, string>;
  body?: () => unknown;
}> = [
  {
    name: "GET /api/admin/settings",
    handler: () => settingsRoute.GET,
    path: () => "/api/admin/settings",
    method: "GET",
  },
  {
    name: "PUT /api/admin/settings",
    handler: () => settingsRoute.PUT,
    path: () => "/api/admin/settings",
    method: "PUT",
    body: () => ({ settings: {} }),
  },
  {
    name: "GET /api/admin/settings/versions",
    handler: () => versionsRoute.GET,
    path: () => "/api/admin/settings/versions",
    method: "GET",
  },
  {
    name: "GET /api/admin/personas",
    handler: () => personasRoute.GET,
    path: () => "/api/admin/personas",
    method: "GET",
  },
  {
    name: "POST /api/admin/personas",
    handler: () => personasRoute.POST,
    path: () => "/api/admin/personas",
    method: "POST",
    body: () => ({ name: "Sneaky", modelId: "offline:echo" }),
  },
  {
    name: "GET /api/admin/personas/:id",
    handler: () => personaRoute.GET,
    path: () => `/api/admin/personas/${personaId}`,
    method: "GET",
    params: () => ({ id: personaId }),
  },
  {
    name: "PUT /api/admin/personas/:id",
    handler: () => personaRoute.PUT,
    path: () => `/api/admin/personas/${personaId}`,
    method: "PUT",
    params: () => ({ id: personaId }),
    body: () => ({ name: "Hijacked" }),
  },
  {
    name: "DELETE /api/admin/personas/:id",
    handler: () => personaRoute.DELETE,
    path: () => `/api/admin/personas/${personaId}`,
    method: "DELETE",
    params: () => ({ id: personaId }),
  },
  {
    name: "POST /api/admin/personas/:id/preview",
    handler: () => personaPreviewRoute.POST,
    path: () => `/api/admin/personas/${personaId}/preview`,
    method: "POST",
    params: () => ({ id: personaId }),
    body: () => ({ conversationId: personaId, text: "hi" }),
  },
  {
    name: "GET /api/admin/models",
    handler: () => modelsRoute.GET,
    path: () => "/api/admin/models",
    method: "GET",
  },
  {
    name: "POST /api/admin/models",
    handler: () => modelsRoute.POST,
    path: () => "/api/admin/models",
    method: "POST",
    body: () => ({ id: "x:y" }),
  },
  {
    name: "PUT /api/admin/models/:id",
    handler: () => modelRoute.PUT,
    path: () => "/api/admin/models/offline:echo",
    method: "PUT",
    params: () => ({ id: "offline:echo" }),
    body: () => ({ enabled: false }),
  },
  {
    name: "DELETE /api/admin/models/:id",
    handler: () => modelRoute.DELETE,
    path: () => "/api/admin/models/offline:echo",
    method: "DELETE",
    params: () => ({ id: "offline:echo" }),
  },
  {
    name: "GET /api/admin/blocks",
    handler: () => blocksRoute.GET,
    path: () => "/api/admin/blocks",
    method: "GET",
  },
  {
    name: "POST /api/admin/blocks",
    handler: () => blocksRoute.POST,
    path: () => "/api/admin/blocks",
    method: "POST",
    body: () => ({ personaId, userId: member.id, blockType: "block", durationMinutes: null }),
  },
  {
    name: "DELETE /api/admin/blocks",
    handler: () => blocksRoute.DELETE,
    path: () => `/api/admin/blocks?personaId=${personaId}&userId=${member.id}`,
    method: "DELETE",
  },
  {
    name: "GET /api/admin/memories",
    handler: () => memoriesRoute.GET,
    path: () => "/api/admin/memories",
    method: "GET",
  },
  {
    name: "POST /api/admin/memories",
    handler: () => memoriesRoute.POST,
    path: () => "/api/admin/memories",
    method: "POST",
    body: () => ({ scope: "user", userId: member.id, area: "fact", content: "x" }),
  },
  {
    name: "PUT /api/admin/memories",
    handler: () => memoriesRoute.PUT,
    path: () => "/api/admin/memories",
    method: "PUT",
    body: () => ({ id: personaId, content: "x" }),
  },
  {
    name: "DELETE /api/admin/memories",
    handler: () => memoriesRoute.DELETE,
    path: () => `/api/admin/memories?id=${personaId}`,
    method: "DELETE",
  },
  {
    name: "GET /api/admin/users",
    handler: () => usersRoute.GET,
    path: () => "/api/admin/users",
    method: "GET",
  },
  {
    name: "PUT /api/admin/users/:id",
    handler: () => userRoute.PUT,
    path: () => `/api/admin/users/${member.id}`,
    method: "PUT",
    params: () => ({ id: member.id }),
    body: () => ({ role: "admin" }),
  },
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
