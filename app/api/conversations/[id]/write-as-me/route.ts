// POST /api/conversations/:id/write-as-me: a draft of the user's next message in their own voice,
// for the composer. Anyone who may read the conversation; no message is stored (each model call is recorded as
// an attempt). 200 with { draft, modelId }; 409 while a reply is still being written; 422 when no model could
// write one.
import { getDb } from "@/db/client";
import { parseId, requireUser, route } from "@/lib/api/route";
import { draftAsUser } from "@/lib/chat/generated/write-as-me";
import { chatTurnPolicy, enforceRateLimit } from "@/lib/rate-limit";

export const dynamic = "force-dynamic";

export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  // A draft costs a model call, like a turn: the same limit.
  await enforceRateLimit(chatTurnPolicy(), user.id);
  const result = await draftAsUser({ db: await getDb(), user, conversationId });
  return Response.json(result);
});
