// GET one summary; PUT { content } edits the active summary (the owner or an admin): the next payload's SUMMARY
// item says the new text.
import type { getDb } from "@/db/client";
import { listSummaries, updateSummaryContent } from "@/db/summary-queries";
import { readJson, route } from "@/lib/api/route";
import { toSummaryViews } from "@/lib/chat/views/summary-view";
import { updateSummarySchema } from "./schema";
import { requireSummary, type SummaryContext } from "./summary-access";

export const dynamic = "force-dynamic";

async function viewOf(db: Awaited<ReturnType<typeof getDb>>, conversationId: string, summaryId: string) {
  return toSummaryViews(await listSummaries({ db, conversationId })).find((view) => view.id === summaryId);
}

export const GET = route(async (request: Request, context: SummaryContext) => {
  const { db, conversationId, summaryId } = await requireSummary(request, context, { write: false });
  return Response.json({ summary: await viewOf(db, conversationId, summaryId) });
});

export const PUT = route(async (request: Request, context: SummaryContext) => {
  const { db, conversationId, summaryId } = await requireSummary(request, context, { write: true });
  const body = await readJson(request, updateSummarySchema);
  await updateSummaryContent({ db, conversationId, summaryId, content: body.content });
  return Response.json({ summary: await viewOf(db, conversationId, summaryId) });
});
