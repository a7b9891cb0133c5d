// The opening the routes of one summary share: who asks, the conversation and the summary of the path. Reading
// needs read access to the conversation, a change needs its owner or an admin; an unknown summary is not found.
import type { ConversationContext } from "@/app/api/conversations/readable-conversation";
import { getDb } from "@/db/client";
import { getConversationForSummaries, getSummary } from "@/db/summary-queries";
import { parseId, requireUser } from "@/lib/api/route";

export type SummaryContext = ConversationContext<"summaryId">;

export async function requireSummary(
  request: Request,
  { params }: SummaryContext,
  { write }: { write: boolean },
) {
  const user = await requireUser(request);
  const { id, summaryId: rawSummaryId } = await params;
  const conversationId = parseId(id, "Conversation");
  const summaryId = parseId(rawSummaryId, "Summary");
  const db = await getDb();
  await getConversationForSummaries({ db, conversationId, user, write });
  await getSummary({ db, conversationId, summaryId });
  return { db, conversationId, summaryId };
}
