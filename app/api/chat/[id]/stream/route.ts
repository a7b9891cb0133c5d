// GET /api/chat/:id/stream (id: the conversation): resume the reply that is still streaming, from any instance
// (useChat calls it when it mounts). The whole stream so far, then the rest as it comes. 204 when no reply
// is streaming, when the instance writing it died, or, without REDIS_URL, when there is nothing to resume from (the
// stored reply shows what there is).
import { readableConversationRoute } from "@/app/api/conversations/readable-conversation";
import { getRunningTurn } from "@/db/turn-queries";
import { encodedText, REPLY_STREAM_HEADERS } from "@/lib/chat/turn/reply-events";
import { resumableStreams, resumeReplyStream } from "@/lib/chat/turn-control/resumable-streams";
import { logger } from "@/lib/logger";

export const dynamic = "force-dynamic";

export const GET = readableConversationRoute(async ({ db, conversationId }) => {
  const streams = resumableStreams();
  const turn = streams ? await getRunningTurn({ db, conversationId }) : null;
  // The instance writing the reply holds its stream; when that instance died, no one answers the resume (given up
  // after a second, or RESUME_ANSWER_MS at most) and there is nothing to resume: the stored reply shows what there
  // is, and crash recovery marks it interrupted.
  const stream =
    turn && streams ? await resumeReplyStream(streams, turn.id).catch(warnNothingToResume(turn.id)) : null;
  if (!stream) return new Response(null, { status: 204 });
  return new Response(encodedText(stream), { headers: REPLY_STREAM_HEADERS });
});

function warnNothingToResume(turnId: string) {
  return (error: unknown) => {
    logger.warn({ err: error, turnId }, "the reply's instance did not answer the resume: nothing to resume");
    return null;
  };
}
