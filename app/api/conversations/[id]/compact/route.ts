// POST /api/conversations/:id/compact: summarise now ("Compact now", whatever summary.mode says). The owner or an
// admin only. 201 with `{ compacted: true, summary }`; 200 with `{ compacted: false, reason }` when there is nothing
// to summarise yet (a short chat: an answer, not a failure, which the button shows as information); 409 while a
// reply is still being written; 422 when the summary model fails or answers nothing (then nothing is changed).
import { getDb } from "@/db/client";
import { getPersona } from "@/db/persona-queries";
import { getConversationForSummaries } from "@/db/summary-queries";
import { parseId, readJson, requireUser, route } from "@/lib/api/route";
import { summariseConversation } from "@/lib/chat/summary/summarise";
import { refuseWhileReplyIsWritten } from "@/lib/chat/turn-control/stop-turn";
import { toSummaryViews } from "@/lib/chat/views/summary-view";
import { AppError } from "@/lib/domain/errors";
import { compactRequestSchema } from "./schema";

export const dynamic = "force-dynamic";

export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  // No body, or an empty one, means "use the conversation's settings".
  const body = await readJson(request, compactRequestSchema, { whenEmpty: {} });
  const db = await getDb();
  const conversation = await getConversationForSummaries({ db, conversationId, user, write: true });
  // A summary of a half-written reply would stand for the whole one later turns should see.
  await refuseWhileReplyIsWritten({ db, conversationId, action: "compact" });
  const persona = await getPersona({ db, personaId: conversation.personaId });
  const outcome = await summariseConversation({
    db,
    conversation,
    persona,
    trigger: "manual",
    keepRecentTurns: body.keepRecentTurns,
  });
  if (outcome.status === "skipped") {
    // The plan's reason may end by saying "nothing to summarise" itself; the sentence says it once, first.
    const why = outcome.reason.replace(/:? nothing to summarise$/, "");
    return Response.json({ compacted: false, reason: `Nothing to summarise yet: ${why}.` });
  }
  if (outcome.status === "failed" || !outcome.summary) {
    throw new AppError(
      "model_unavailable",
      `The summary could not be made: ${outcome.reason}. Nothing was changed.`,
    );
  }
  const [summary] = toSummaryViews([outcome.summary]);
  return Response.json({ compacted: true, summary }, { status: 201 });
});
