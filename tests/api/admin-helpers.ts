// Shared set-up for the admin API tests. Admin routes change global state (the context policy, roles, blocks on
// a persona), which would leak into other test files running at the same time against the run's database: each
// admin test file therefore works in a database of its own (a copy of the run's migrated template), created before
// its first query and dropped after.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import * as personasRoute from "@/app/api/admin/personas/route";
import { databaseHandle } from "@/db/client";
import type { Persona } from "@/db/schema";
import { call, promoteToAdmin, signUp, type TestUser } from "../api-client";
import { createFreshDatabase, dropDatabase } from "../database";

export { newModelBody } from "../fixtures/model-body";

type Globals = { glassboxDatabase?: unknown; glassboxAuth?: unknown };

export function isolateDatabase(purpose: string): void {
  const previous = { url: process.env.DATABASE_URL, pgliteDir: process.env.PGLITE_DIR };
  let drop = async () => {};
  beforeAll(async () => {
    // Should a worker be reused across files (isolate: false), the previous file's handle is closed first.
    await forgetDatabaseHandle();
    const baseUrl = process.env.GLASSBOX_BASE_DATABASE_URL;
    if (baseUrl) {
      const { url, name } = await createFreshDatabase(
        baseUrl,
        purpose,
        process.env.GLASSBOX_TEMPLATE_DATABASE,
      );
      process.env.DATABASE_URL = url;
      drop = () => dropDatabase(baseUrl, name);
    } else {
      const dir = mkdtempSync(path.join(tmpdir(), `glassbox-${purpose}-`));
      const template = process.env.GLASSBOX_TEMPLATE_PGLITE_DIR;
      if (template) cpSync(template, dir, { recursive: true });
      process.env.PGLITE_DIR = dir;
      drop = async () => rmSync(dir, { recursive: true, force: true });
    }
    await databaseHandle().ready;
  });
  afterAll(async () => {
    await forgetDatabaseHandle();
    restoreEnv("DATABASE_URL", previous.url);
    restoreEnv("PGLITE_DIR", previous.pgliteDir);
    await drop();
  });
}

/** Close the process's database handle and the auth instance bound to it; the next use opens them afresh. */
async function forgetDatabaseHandle(): Promise<void> {
  const globals = globalThis as Globals;
  if (globals.glassboxDatabase) await databaseHandle().close();
  globals.glassboxDatabase = undefined;
  globals.glassboxAuth = undefined;
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

export async function signUpAdmin(name = "Admin"): Promise<TestUser> {
  return promoteToAdmin(await signUp(name));
}

/** `user` PUTs `body` to the admin item `/api/admin/<collection>/<id>` through its route's `handler`. */
export function putAdminItem(
  user: TestUser,
  handler: Parameters<typeof call>[0],
  collection: "models" | "personas",
  id: string,
  body: unknown,
): Promise<Response> {
  return call(handler, `/api/admin/${collection}/${id}`, { user, method: "PUT", params: { id }, body });
}

/** `admin` creates a persona from `body` through POST /api/admin/personas (201), and gets it back. */
export async function createAdminPersona(admin: TestUser, body: unknown): Promise<Persona> {
  const response = await call(personasRoute.POST, "/api/admin/personas", {
    user: admin,
    method: "POST",
    body,
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { persona: Persona }).persona;
}
