import { getDb } from "@/db/client";
import { parseId, readJson, requireUser, route } from "@/lib/api/route";
import { openReadableAttempt, replayAttempt } from "@/lib/chat/attempts/replay-attempt";
import { chatTurnPolicy, enforceRateLimit } from "@/lib/rate-limit";
import { replayRequestSchema } from "./schema";

export const dynamic = "force-dynamic";

export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const user = await requireUser(request);
  // A replay is a model call the user starts, as a chat turn is: it counts against the same limit.
  await enforceRateLimit(chatTurnPolicy(), user.id);
  const attemptId = parseId((await params).id, "Attempt");
  const db = await getDb();
  // Who may not read the attempt learns nothing from the body's validation: the check comes first.
  const readable = await openReadableAttempt({ db, attemptId, userId: user.id });
  const options = await readJson(request, replayRequestSchema);
  const attempt = await replayAttempt({ db, user, readable, options });
  return Response.json({ attempt });
});
