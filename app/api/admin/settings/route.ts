import { insertSettingsVersion } from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { getCurrentSettings } from "@/db/settings-queries";
import { readJson, requireAdmin, route } from "@/lib/api/route";
import { defaultSettings, SETTING_HELP } from "@/lib/domain/settings";
import { updateSettingsSchema } from "./schema";
import { describeSettingFields } from "./setting-fields";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  await requireAdmin(request);
  const current = await getCurrentSettings({ db: await getDb() });
  return Response.json({
    version: current.version,
    settings: current.settings,
    help: SETTING_HELP,
    defaults: defaultSettings(),
    fields: describeSettingFields(),
  });
});

/** A new version with the whole validated document; earlier versions stay as they were. */
export const PUT = route(async (request: Request) => {
  const admin = await requireAdmin(request);
  const body = await readJson(request, updateSettingsSchema);
  const row = await insertSettingsVersion({
    db: await getDb(),
    settings: body.settings,
    changedBy: admin.id,
    baseVersion: body.baseVersion,
  });
  return Response.json({ version: row.version, settings: row.settings, createdAt: row.createdAt });
});
