// GET /api/conversations/:id/summaries: every summary of the conversation, newest first, with which is active.
import { getDb } from "@/db/client";
import { getConversationForSummaries, listSummaries } from "@/db/summary-queries";
import { parseId, requireUser, route } from "@/lib/api/route";
import { toSummaryViews } from "@/lib/chat/views/summary-view";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  const db = await getDb();
  await getConversationForSummaries({ db, conversationId, user, write: false });
  const summaries = toSummaryViews(await listSummaries({ db, conversationId }));
  return Response.json({
    summaries,
    activeSummaryId: summaries.find((summary) => summary.isActive)?.id ?? null,
  });
});
