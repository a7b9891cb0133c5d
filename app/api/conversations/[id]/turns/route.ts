import { getDb } from "@/db/client";
import { getReadableConversation, listTurnsWithAttempts } from "@/db/queries";
import { parseId, requireUser, route } from "@/lib/api/route";
import { toAttemptViews } from "@/lib/chat/attempt-view";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  const db = await getDb();
  await getReadableConversation({ db, conversationId, userId: user.id });
  const turnRows = await listTurnsWithAttempts({ db, conversationId });
  const views = await toAttemptViews({ db, conversationId, attemptRows: turnRows.flatMap((turn) => turn.attempts) });
  const viewsById = new Map(views.map((view) => [view.id, view]));
  return Response.json({
    turns: turnRows.map(({ attempts, ...turn }) => ({
      ...turn,
      attempts: attempts.map((attempt) => viewsById.get(attempt.id)),
    })),
  });
});
