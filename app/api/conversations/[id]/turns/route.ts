import { readableConversationRoute } from "@/app/api/conversations/readable-conversation";
import { listOtherModelCallSummaries } from "@/db/attempt-queries";
import { listTurnSummaries } from "@/db/turn-queries";
import { withCosts } from "@/lib/chat/attempts/turn-costs";
import { conversationAttemptViews } from "@/lib/chat/views/attempt-view";
import { AppError } from "@/lib/domain/errors";

export const dynamic = "force-dynamic";

export const GET = readableConversationRoute(async ({ user, db, conversationId }, request) => {
  // `?fields=summary`: each attempt without its items, trace and bodies (the inspector's index; full attempts
  // come from GET /api/attempts/:id), so the answer stays small however large the payloads are.
  // `otherCalls`: the model calls that answer no turn (summaries, titles, write-as-me drafts), with their kind.
  const fields = new URL(request.url).searchParams.get("fields");
  if (fields !== null && fields !== "summary")
    throw new AppError("bad_request", "fields must be summary when given");
  if (fields === "summary") {
    const [turns, otherCalls] = await Promise.all([
      listTurnSummaries({ db, conversationId }),
      listOtherModelCallSummaries({ db, conversationId }),
    ]);
    return Response.json(await withCosts({ db, turns, otherCalls }));
  }
  const {
    turns: turnRows,
    otherCalls: otherCallRows,
    views,
  } = await conversationAttemptViews({ db, conversationId, readerId: user.id });
  const viewsById = new Map(views.map((view) => [view.id, view]));
  const turns = turnRows.map(({ attempts, ...turn }) => ({
    ...turn,
    attempts: attempts.flatMap((attempt) => viewsById.get(attempt.id) ?? []),
  }));
  const otherCalls = otherCallRows.flatMap((attempt) => viewsById.get(attempt.id) ?? []);
  return Response.json(await withCosts({ db, turns, otherCalls }));
});
