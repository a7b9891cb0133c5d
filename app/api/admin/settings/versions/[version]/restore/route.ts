import { insertSettingsVersion } from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { getSettingsVersion } from "@/db/settings-queries";
import { respond } from "@/lib/api/respond";
import { requireAdmin, route } from "@/lib/api/route";
import { AppError } from "@/lib/domain/errors";
import { settingsSchema } from "@/lib/domain/settings";
import { settingsConflicts } from "@/lib/domain/settings-rules";
import { parseVersion } from "../../../../params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ version: string }> };

/**
 * Puts an earlier version back in force as a new version (versions are never overwritten). Its document is read
 * with today's schema (keys added since take their defaults) and must pass today's rules.
 */
export const POST = route(async (request: Request, { params }: Context) => {
  const admin = await requireAdmin(request);
  const version = parseVersion((await params).version);
  const db = await getDb();
  const earlier = await getSettingsVersion({ db, version });
  const settings = settingsSchema.parse(earlier.settings);
  const [conflict] = settingsConflicts(settings);
  if (conflict) {
    throw new AppError("bad_request", `Version ${version} cannot be restored: ${conflict.message}`);
  }
  const row = await insertSettingsVersion({ db, settings, changedBy: admin.id });
  return respond(
    "POST /api/admin/settings/versions/:version/restore",
    { version: row.version, settings: row.settings, createdAt: row.createdAt, restoredFrom: version },
    { status: 201 },
  );
});
