// POST /api/conversations/:id/summaries/:summaryId/revert: undo the active summary (the owner or an admin). The
// summary it replaced becomes active again, or, when there was none, the messages it covered are unmarked.
import { listSummaries, revertSummary } from "@/db/summary-queries";
import { route } from "@/lib/api/route";
import { toSummaryViews } from "@/lib/chat/views/summary-view";
import { requireSummary, type SummaryContext } from "../summary-access";

export const dynamic = "force-dynamic";

export const POST = route(async (request: Request, context: SummaryContext) => {
  const { db, conversationId, summaryId } = await requireSummary(request, context, { write: true });
  const result = await revertSummary({ db, conversationId, summaryId });
  const views = toSummaryViews(await listSummaries({ db, conversationId }));
  return Response.json({
    reverted: views.find((view) => view.id === result.reverted.id),
    restored: result.restored ? (views.find((view) => view.id === result.restored?.id) ?? null) : null,
    unmarkedMessages: result.unmarkedMessages,
  });
});
