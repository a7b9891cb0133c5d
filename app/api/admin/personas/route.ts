import { assertModelsExist, createPersona, listPersonasWithUsage } from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { respond } from "@/lib/api/respond";
import { readJson, requireAdmin, route } from "@/lib/api/route";
import { TOOL_CATALOG } from "@/lib/chat/turn/tools";
import { createPersonaSchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  await requireAdmin(request);
  return respond("GET /api/admin/personas", {
    personas: await listPersonasWithUsage({ db: await getDb() }),
    tools: TOOL_CATALOG.map(({ name, description }) => ({ name, description })),
  });
});

export const POST = route(async (request: Request) => {
  await requireAdmin(request);
  const body = await readJson(request, createPersonaSchema);
  const db = await getDb();
  await assertModelsExist({ db, field: "modelId", modelIds: [body.modelId] });
  await assertModelsExist({ db, field: "fallbackModelIds", modelIds: body.fallbackModelIds });
  const persona = await createPersona({ db, fields: body });
  return respond("POST /api/admin/personas", { persona }, { status: 201 });
});
