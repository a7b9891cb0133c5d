import { assertModelsExist, listPersonasWithUsage } from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { listPersonasWithSlugs } from "@/db/persona-queries";
import { createPersonaWithVersion } from "@/db/persona-version-queries";
import { respond } from "@/lib/api/respond";
import { readJson, requireAdmin, route } from "@/lib/api/route";
import { TOOL_CATALOG } from "@/lib/chat/turn/tools";
import { assertSettingsAgree } from "@/lib/settings-agreement";
import { createPersonaSchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  await requireAdmin(request);
  const db = await getDb();
  // Personas made since the last gateway call get their slug (model id) now, to be shown here.
  await listPersonasWithSlugs({ db });
  return respond("GET /api/admin/personas", {
    personas: await listPersonasWithUsage({ db }),
    tools: TOOL_CATALOG.map(({ name, description }) => ({ name, description })),
  });
});

export const POST = route(async (request: Request) => {
  const admin = await requireAdmin(request);
  const body = await readJson(request, createPersonaSchema);
  const db = await getDb();
  await assertModelsExist({ db, field: "modelId", modelIds: [body.modelId] });
  await assertModelsExist({ db, field: "fallbackModelIds", modelIds: body.fallbackModelIds });
  await assertSettingsAgree(db, body.settingsOverride);
  const persona = await createPersonaWithVersion({ db, fields: body, changedBy: admin.id });
  return respond("POST /api/admin/personas", { persona }, { status: 201 });
});
