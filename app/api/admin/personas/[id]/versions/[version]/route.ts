import { getDb } from "@/db/client";
import { getPersonaVersion } from "@/db/persona-version-queries";
import { respond } from "@/lib/api/respond";
import { requireAdmin, route } from "@/lib/api/route";
import { type PersonaVersionContext, parsePersonaVersionPath } from "../../../../params";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: PersonaVersionContext) => {
  await requireAdmin(request);
  const { personaId, version } = await parsePersonaVersionPath(params);
  return respond("GET /api/admin/personas/:id/versions/:version", {
    version: await getPersonaVersion({ db: await getDb(), personaId, version }),
  });
});
