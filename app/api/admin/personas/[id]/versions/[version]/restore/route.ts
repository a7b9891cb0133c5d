import { assertModelsExist } from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { getPersonaVersion, updatePersonaWithVersion } from "@/db/persona-version-queries";
import { respond } from "@/lib/api/respond";
import { requireAdmin, route } from "@/lib/api/route";
import { assertSettingsAgree } from "@/lib/settings-agreement";
import { type PersonaVersionContext, parsePersonaVersionPath } from "../../../../../params";

export const dynamic = "force-dynamic";

/**
 * Saves an earlier version's fields again, as a new version. Its models must still exist and its settings agree
 * with today's policy, as on any save.
 */
export const POST = route(async (request: Request, { params }: PersonaVersionContext) => {
  const admin = await requireAdmin(request);
  const { personaId, version } = await parsePersonaVersionPath(params);
  const db = await getDb();
  const { fields } = await getPersonaVersion({ db, personaId, version });
  await assertModelsExist({ db, field: "modelId", modelIds: [fields.modelId] });
  await assertModelsExist({ db, field: "fallbackModelIds", modelIds: fields.fallbackModelIds });
  await assertSettingsAgree(db, fields.settingsOverride);
  const persona = await updatePersonaWithVersion({ db, personaId, changes: fields, changedBy: admin.id });
  return respond(
    "POST /api/admin/personas/:id/versions/:version/restore",
    { persona, restoredFrom: version },
    { status: 201 },
  );
});
