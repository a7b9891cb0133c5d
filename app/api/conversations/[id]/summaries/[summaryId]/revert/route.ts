// POST /api/conversations/:id/summaries/:summaryId/revert: undo the active summary (the owner or an admin). The
// summary it replaced becomes active again, or, when there was none, the messages it covered are unmarked.
import { getDb } from "@/db/client";
import { getConversationForSummaries, getSummary, listSummaries, revertSummary } from "@/db/summary-queries";
import { parseId, requireUser, route } from "@/lib/api/route";
import { toSummaryViews } from "@/lib/chat/summary-view";

export const dynamic = "force-dynamic";

export const POST = route(
  async (request: Request, { params }: { params: Promise<{ id: string; summaryId: string }> }) => {
    const user = await requireUser(request);
    const { id, summaryId: rawSummaryId } = await params;
    const conversationId = parseId(id, "Conversation");
    const summaryId = parseId(rawSummaryId, "Summary");
    const db = await getDb();
    await getConversationForSummaries({ db, conversationId, user, write: true });
    await getSummary({ db, conversationId, summaryId });
    const result = await revertSummary({ db, conversationId, summaryId });
    const views = toSummaryViews(await listSummaries({ db, conversationId }));
    return Response.json({
      reverted: views.find((view) => view.id === result.reverted.id),
      restored: result.restored ? (views.find((view) => view.id === result.restored?.id) ?? null) : null,
      unmarkedMessages: result.unmarkedMessages,
    });
  },
);
