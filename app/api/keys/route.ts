// POST /api/keys { name, personaIds? }: a new API key of the caller for the gateway (/v1), 201 { key, secret }
// with the secret shown this once; GET: the caller's keys that still work, without secrets, each with its usage
// (calls, tokens, cost).
import { getDb } from "@/db/client";
import { listPersonas } from "@/db/persona-queries";
import { respond } from "@/lib/api/respond";
import { readJson, requireUser, route } from "@/lib/api/route";
import { AppError } from "@/lib/domain/errors";
import { createApiKey, listKeysWithUsage } from "@/lib/gateway/api-keys";
import { createKeySchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  const user = await requireUser(request);
  return respond("GET /api/keys", { keys: await listKeysWithUsage({ db: await getDb(), userId: user.id }) });
});

export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  const body = await readJson(request, createKeySchema);
  const db = await getDb();
  const personaIds = body.personaIds ? [...new Set(body.personaIds.map((id) => id.toLowerCase()))] : null;
  if (personaIds) {
    const known = new Set((await listPersonas({ db })).map((persona) => persona.id));
    const unknown = personaIds.filter((id) => !known.has(id));
    if (unknown.length > 0)
      throw new AppError("bad_request", `personaIds: no persona ${unknown.join(", ")}.`);
  }
  const { key, secret } = await createApiKey({ db, userId: user.id, name: body.name, personaIds });
  return respond("POST /api/keys", { key, secret }, { status: 201 });
});
