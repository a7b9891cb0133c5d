// DELETE /api/keys/:id: revoke one of the caller's API keys (204); the next call with it is refused. Another
// user's key is not found (404), whoever asks.
import { revokeApiKey } from "@/db/api-key-queries";
import { getDb } from "@/db/client";
import { parseId, requireUser, route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const DELETE = route(async (request: Request, { params }: Context) => {
  const user = await requireUser(request);
  const keyId = parseId((await params).id, "API key");
  await revokeApiKey({ db: await getDb(), userId: user.id, keyId });
  return new Response(null, { status: 204 });
});
