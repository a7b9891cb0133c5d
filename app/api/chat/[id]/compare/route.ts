// POST /api/chat/:id/compare { messageId, modelIds } (id: the conversation, owned by the caller): the latest turn
// answered again by each of up to four distinct, callable models, one after another, each answer a new variant of
// the reply. The response is one UI message stream: each model's chunks follow a `data-compare` chunk naming it
// (lib/chat/compare-models.ts).
import { requireOwnedConversation } from "@/app/api/conversations/readable-conversation";
import { route } from "@/lib/api/route";
import { compareModels } from "@/lib/chat/compare-models";
import { REPLY_STREAM_HEADERS } from "@/lib/chat/turn/reply-events";
import { refuseNewTurnWhenShuttingDown } from "@/lib/shutdown-hooks";
import { compareRequestSchema } from "./schema";

export const dynamic = "force-dynamic";

export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  refuseNewTurnWhenShuttingDown();
  const { user, db, conversationId, body } = await requireOwnedConversation(
    request,
    params,
    compareRequestSchema,
  );
  const stream = await compareModels({ db, user, conversationId, ...body });
  return new Response(stream, { headers: REPLY_STREAM_HEADERS });
});
