import { getDb } from "@/db/client";
import { getSettingsVersion } from "@/db/settings-queries";
import { respond } from "@/lib/api/respond";
import { requireAdmin, route } from "@/lib/api/route";
import { parseVersion } from "../../../params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ version: string }> };

/** One version of the policy, to open or compare with another. */
export const GET = route(async (request: Request, { params }: Context) => {
  await requireAdmin(request);
  const version = parseVersion((await params).version);
  return respond("GET /api/admin/settings/versions/:version", {
    version: await getSettingsVersion({ db: await getDb(), version }),
  });
});
