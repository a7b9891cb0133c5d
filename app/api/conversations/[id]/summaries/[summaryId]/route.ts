// GET one summary; PUT { content } edits the active summary (the owner or an admin): the next payload's SUMMARY
// item says the new text.
import { getDb } from "@/db/client";
import {
  getConversationForSummaries,
  getSummary,
  listSummaries,
  updateSummaryContent,
} from "@/db/summary-queries";
import { parseId, readJson, requireUser, route } from "@/lib/api/route";
import { toSummaryViews } from "@/lib/chat/summary-view";
import { updateSummarySchema } from "./schema";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; summaryId: string }> };

async function viewOf(db: Awaited<ReturnType<typeof getDb>>, conversationId: string, summaryId: string) {
  return toSummaryViews(await listSummaries({ db, conversationId })).find((view) => view.id === summaryId);
}

export const GET = route(async (request: Request, { params }: Context) => {
  const user = await requireUser(request);
  const { id, summaryId: rawSummaryId } = await params;
  const conversationId = parseId(id, "Conversation");
  const summaryId = parseId(rawSummaryId, "Summary");
  const db = await getDb();
  await getConversationForSummaries({ db, conversationId, user, write: false });
  await getSummary({ db, conversationId, summaryId });
  return Response.json({ summary: await viewOf(db, conversationId, summaryId) });
});

export const PUT = route(async (request: Request, { params }: Context) => {
  const user = await requireUser(request);
  const { id, summaryId: rawSummaryId } = await params;
  const conversationId = parseId(id, "Conversation");
  const summaryId = parseId(rawSummaryId, "Summary");
  const body = await readJson(request, updateSummarySchema);
  const db = await getDb();
  await getConversationForSummaries({ db, conversationId, user, write: true });
  await getSummary({ db, conversationId, summaryId });
  await updateSummaryContent({ db, conversationId, summaryId, content: body.content });
  return Response.json({ summary: await viewOf(db, conversationId, summaryId) });
});
