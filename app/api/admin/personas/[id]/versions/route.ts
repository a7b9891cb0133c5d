import { getDb } from "@/db/client";
import { getPersona } from "@/db/persona-queries";
import { listPersonaVersions } from "@/db/persona-version-queries";
import { respond } from "@/lib/api/respond";
import { parseId, requireAdmin, route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** The persona's versions, newest first: who saved each, when, and its fields. */
export const GET = route(async (request: Request, { params }: Context) => {
  await requireAdmin(request);
  const personaId = parseId((await params).id, "Persona");
  const db = await getDb();
  await getPersona({ db, personaId });
  return respond("GET /api/admin/personas/:id/versions", {
    versions: await listPersonaVersions({ db, personaId }),
  });
});
