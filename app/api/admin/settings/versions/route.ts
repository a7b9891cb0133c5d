import { listSettingsVersions } from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { respond } from "@/lib/api/respond";
import { requireAdmin, route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

/** The policy's history, newest first: who changed it, when, and the whole document of each version. */
export const GET = route(async (request: Request) => {
  await requireAdmin(request);
  return respond("GET /api/admin/settings/versions", {
    versions: await listSettingsVersions({ db: await getDb() }),
  });
});
