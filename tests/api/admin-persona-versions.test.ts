// Persona versions: every admin save adds one; they are listed newest first, opened, and restored as a new version,
// and the next turn's payload is built with the restored persona.
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import * as personaRoute from "@/app/api/admin/personas/[id]/route";
import * as restoreRoute from "@/app/api/admin/personas/[id]/versions/[version]/restore/route";
import * as versionRoute from "@/app/api/admin/personas/[id]/versions/[version]/route";
import * as versionsRoute from "@/app/api/admin/personas/[id]/versions/route";
import { getDb } from "@/db/client";
import { personaVersions } from "@/db/schema";
import { call, expectError } from "../api-client";
import { createConversation } from "../fixtures/personas";
import { signedUpForFile } from "../fixtures/users";
import { createAdminPersona, isolateDatabase, putAdminItem } from "./admin-helpers";
import { preview } from "./preview-helpers";

isolateDatabase("persona_versions");

const admin = signedUpForFile("Version Admin", { admin: true });
const user = signedUpForFile("Version User");

interface VersionRow {
  version: number;
  fields: { name: string; systemPrompt: string; settingsOverride: unknown };
  changedByName: string | null;
}

const createPersona = (body: unknown) => createAdminPersona(admin, body);
const putPersona = (id: string, body: unknown) => putAdminItem(admin, personaRoute.PUT, "personas", id, body);

async function versionsOf(id: string): Promise<VersionRow[]> {
  const response = await call(versionsRoute.GET, `/api/admin/personas/${id}/versions`, {
    user: admin,
    params: { id },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { versions: VersionRow[] }).versions;
}

const openVersion = (id: string, version: string) =>
  call(versionRoute.GET, `/api/admin/personas/${id}/versions/${version}`, {
    user: admin,
    params: { id, version },
  });

const restore = (id: string, version: string) =>
  call(restoreRoute.POST, `/api/admin/personas/${id}/versions/${version}/restore`, {
    user: admin,
    method: "POST",
    params: { id, version },
  });

describe("persona versions", () => {
  test("create and two saves make three versions; restoring the first adds a fourth the next turn uses", async () => {
    const persona = await createPersona({
      name: "Keeper",
      modelId: "offline:echo",
      systemPrompt: "First prompt.",
    });
    expect((await putPersona(persona.id, { systemPrompt: "Second prompt." })).status).toBe(200);
    expect((await putPersona(persona.id, { systemPrompt: "Third prompt.", name: "Keeper II" })).status).toBe(
      200,
    );

    const versions = await versionsOf(persona.id);
    expect(
      versions.map((row) => [row.version, row.fields.name, row.fields.systemPrompt, row.changedByName]),
    ).toEqual([
      [3, "Keeper II", "Third prompt.", "Version Admin"],
      [2, "Keeper", "Second prompt.", "Version Admin"],
      [1, "Keeper", "First prompt.", "Version Admin"],
    ]);
    const opened = await openVersion(persona.id, "2");
    expect(((await opened.json()) as { version: VersionRow }).version).toMatchObject({
      version: 2,
      fields: { systemPrompt: "Second prompt." },
    });

    const restored = await restore(persona.id, "1");
    expect(restored.status, await restored.clone().text()).toBe(201);
    expect(await restored.json()).toMatchObject({
      persona: { id: persona.id, name: "Keeper", systemPrompt: "First prompt." },
      restoredFrom: 1,
    });
    expect((await versionsOf(persona.id)).map((row) => [row.version, row.fields.systemPrompt])).toEqual([
      [4, "First prompt."],
      [3, "Third prompt."],
      [2, "Second prompt."],
      [1, "First prompt."],
    ]);
    const conversationId = await createConversation(user, persona);
    const draft = await preview(user, conversationId, "Hello?");
    expect(draft.items.map((item) => JSON.stringify(item)).join("\n")).toContain("First prompt.");
    expect(draft.items.map((item) => JSON.stringify(item)).join("\n")).not.toContain("Third prompt.");
  });

  test("a persona saved before it had versions keeps its earlier state as version 1", async () => {
    const persona = await createPersona({
      name: "Old timer",
      modelId: "offline:echo",
      systemPrompt: "Seeded.",
    });
    // As the seeded persona: no versions recorded.
    await (await getDb()).delete(personaVersions).where(eq(personaVersions.personaId, persona.id));
    expect(await versionsOf(persona.id)).toEqual([]);

    expect((await putPersona(persona.id, { systemPrompt: "Edited." })).status).toBe(200);
    expect(
      (await versionsOf(persona.id)).map((row) => [row.version, row.fields.systemPrompt, row.changedByName]),
    ).toEqual([
      [2, "Edited.", "Version Admin"],
      [1, "Seeded.", null],
    ]);
  });

  test("unknown versions and personas are not found; a refused save adds no version", async () => {
    const persona = await createPersona({ name: "Strict", modelId: "offline:echo" });
    for (const version of ["0", "2", "x"]) {
      await expectError(await openVersion(persona.id, version), 404, "not_found");
      await expectError(await restore(persona.id, version), 404, "not_found");
    }
    await expectError(await putPersona(persona.id, { modelId: "openai:gpt-9" }), 400, "bad_request");
    expect((await versionsOf(persona.id)).map((row) => row.version)).toEqual([1]);
    const missing = "00000000-0000-7000-8000-000000000000";
    await expectError(
      await call(versionsRoute.GET, `/api/admin/personas/${missing}/versions`, {
        user: admin,
        params: { id: missing },
      }),
      404,
      "not_found",
    );
  });
});
