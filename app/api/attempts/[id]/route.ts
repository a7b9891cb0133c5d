import { getAttemptWithConversation } from "@/db/attempt-queries";
import { getDb } from "@/db/client";
import { getReadableConversation } from "@/db/conversation-queries";
import { respond } from "@/lib/api/respond";
import { parseId, requireUser, route } from "@/lib/api/route";
import { attemptCacheView } from "@/lib/chat/views/attempt-cache";
import { toAttemptViews } from "@/lib/chat/views/attempt-view";
import { notFound } from "@/lib/domain/errors";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const user = await requireUser(request);
  const attemptId = parseId((await params).id, "Attempt");
  const db = await getDb();
  const { attempt, conversationId } = await getAttemptWithConversation({ db, attemptId });
  // Someone else's attempt is simply not found: its existence is not revealed.
  await getReadableConversation({ db, conversationId, userId: user.id }).catch(() => {
    throw notFound("Attempt");
  });
  const [view] = await toAttemptViews({ db, conversationId, attemptRows: [attempt], readerId: user.id });
  const cache = await attemptCacheView({ db, attempt, view, readerId: user.id });
  return respond("GET /api/attempts/:id", { attempt: view, cache });
});
