import { assertModelsExist, deletePersona } from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { getPersona } from "@/db/persona-queries";
import { updatePersonaWithVersion } from "@/db/persona-version-queries";
import { respond } from "@/lib/api/respond";
import { parseId, readJson, requireAdmin, route } from "@/lib/api/route";
import { assertSettingsAgree } from "@/lib/settings-agreement";
import { updatePersonaSchema } from "../schema";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = route(async (request: Request, { params }: Context) => {
  await requireAdmin(request);
  const personaId = parseId((await params).id, "Persona");
  return respond("GET /api/admin/personas/:id", {
    persona: await getPersona({ db: await getDb(), personaId }),
  });
});

/** Changes the persona for the turns to come; stored messages are never rewritten. */
export const PUT = route(async (request: Request, { params }: Context) => {
  const admin = await requireAdmin(request);
  const personaId = parseId((await params).id, "Persona");
  const body = await readJson(request, updatePersonaSchema);
  const db = await getDb();
  await getPersona({ db, personaId });
  if (body.modelId) await assertModelsExist({ db, field: "modelId", modelIds: [body.modelId] });
  if (body.fallbackModelIds)
    await assertModelsExist({ db, field: "fallbackModelIds", modelIds: body.fallbackModelIds });
  if (body.settingsOverride) await assertSettingsAgree(db, body.settingsOverride);
  return respond("PUT /api/admin/personas/:id", {
    persona: await updatePersonaWithVersion({ db, personaId, changes: body, changedBy: admin.id }),
  });
});

/** Refused (409) while conversations use the persona; its blocks and memories go with it. */
export const DELETE = route(async (request: Request, { params }: Context) => {
  await requireAdmin(request);
  const personaId = parseId((await params).id, "Persona");
  await deletePersona({ db: await getDb(), personaId });
  return new Response(null, { status: 204 });
});
