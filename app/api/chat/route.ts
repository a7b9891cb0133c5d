import { getDb } from "@/db/client";
import { readJson, requireUser, route } from "@/lib/api/route";
import { runChatTurn } from "@/lib/chat/turn/run-turn";
import type { TurnAction } from "@/lib/chat/turn/turn-user-message";
import { AppError } from "@/lib/domain/errors";
import { chatTurnPolicy, enforceRateLimit } from "@/lib/rate-limit";
import { refuseNewTurnWhenShuttingDown } from "@/lib/shutdown-hooks";
import { attachmentIds, type ChatRequest, chatRequestSchema, MAX_MESSAGE_CHARS, messageText } from "./schema";

export const dynamic = "force-dynamic";

export const POST = route(async (request: Request) => {
  // Before anything else: a draining instance stores nothing, so the client's retry is answered elsewhere.
  refuseNewTurnWhenShuttingDown();
  const user = await requireUser(request);
  await enforceRateLimit(chatTurnPolicy(), user.id);
  const body = await readJson(request, chatRequestSchema);
  return runChatTurn({ db: await getDb(), user, conversationId: body.id, action: turnAction(body) });
});

/**
 * The AI SDK's conventions: `regenerate-message` names the reply to make a new variant of, or the user message to
 * answer (an edited question's fork; the stored one, whatever the body carries); `submit-message` (the default)
 * sends a new message.
 */
function turnAction(body: ChatRequest): TurnAction {
  if (body.trigger === "regenerate-message") {
    if (!body.messageId) {
      throw new AppError(
        "bad_request",
        "messageId: regenerate-message needs the id of the reply to regenerate (or of the question to answer).",
      );
    }
    return { kind: "regenerate", messageId: body.messageId, modelId: body.modelId };
  }
  if (body.modelId) {
    throw new AppError("bad_request", "modelId: only regenerate-message chooses a model for one reply.");
  }
  if (!body.message) throw new AppError("bad_request", "message: submit-message needs the message to send.");
  const text = messageText(body.message);
  const imageIds = attachmentIds(body.message);
  if (!text.trim() && imageIds.length === 0) {
    throw new AppError("bad_request", "message: the message has no text and no attachment.");
  }
  if (text.length > MAX_MESSAGE_CHARS) {
    throw new AppError(
      "bad_request",
      `message: the text is ${text.length} characters; the limit is ${MAX_MESSAGE_CHARS}.`,
    );
  }
  return { kind: "submit", text, attachmentIds: imageIds, clientMessageId: body.message.id };
}
