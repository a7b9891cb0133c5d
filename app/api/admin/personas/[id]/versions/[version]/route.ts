import { getDb } from "@/db/client";
import { getPersonaVersion } from "@/db/persona-version-queries";
import { respond } from "@/lib/api/respond";
import { parseId, requireAdmin, route } from "@/lib/api/route";
import { parseVersion } from "../../../../params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; version: string }> };

export const GET = route(async (request: Request, { params }: Context) => {
  await requireAdmin(request);
  const path = await params;
  const personaId = parseId(path.id, "Persona");
  const version = parseVersion(path.version);
  return respond("GET /api/admin/personas/:id/versions/:version", {
    version: await getPersonaVersion({ db: await getDb(), personaId, version }),
  });
});
