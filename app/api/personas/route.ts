// The personas a user can start a conversation with: only what the picker shows (no prompts, no overrides), and
// each one's slug, its model id on the gateway (/v1).
import { getDb } from "@/db/client";
import { listPersonasWithSlugs } from "@/db/persona-queries";
import { respond } from "@/lib/api/respond";
import { requireUser, route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  await requireUser(request);
  const personas = await listPersonasWithSlugs({ db: await getDb() });
  return respond("GET /api/personas", {
    personas: personas.map(({ id, name, slug, avatar, modelId }) => ({ id, name, slug, avatar, modelId })),
  });
});
