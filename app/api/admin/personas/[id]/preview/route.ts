import { assertModelsExist } from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { getPersona } from "@/db/persona-queries";
import { parseId, readJson, requireAdmin, route } from "@/lib/api/route";
import { previewTurn } from "@/lib/chat/turn/preview-turn";
import { personaPreviewSchema } from "./schema";

export const dynamic = "force-dynamic";

/**
 * The next payload of one of the admin's conversations as this persona would send it, saved and with the unsaved
 * draft applied, so the editor can show exactly what an edit changes. Nothing is stored and no model is called.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const admin = await requireAdmin(request);
  const personaId = parseId((await params).id, "Persona");
  const body = await readJson(request, personaPreviewSchema);
  const db = await getDb();
  const saved = await getPersona({ db, personaId });
  const draft = { ...saved, ...(body.draft ?? {}) };
  await assertModelsExist({ db, field: "draft.modelId", modelIds: [draft.modelId] });
  const common = { db, user: admin, conversationId: body.conversationId, text: body.text };
  const savedPreview = await previewTurn({ ...common, persona: saved });
  const draftPreview = await previewTurn({ ...common, persona: draft });
  return Response.json({ saved: savedPreview, draft: draftPreview });
});
