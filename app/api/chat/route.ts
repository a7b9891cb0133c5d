import { getDb } from "@/db/client";
import { readJson, requireUser, route } from "@/lib/api/route";
import { runChatTurn } from "@/lib/chat/run-turn";
import { AppError } from "@/lib/errors";
import { chatTurnPolicy, enforceRateLimit } from "@/lib/rate-limit";
import { attachmentIds, chatRequestSchema, MAX_MESSAGE_CHARS, messageText } from "./schema";

export const dynamic = "force-dynamic";

export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  await enforceRateLimit(chatTurnPolicy(), user.id);
  const body = await readJson(request, chatRequestSchema);
  const text = messageText(body);
  const imageIds = attachmentIds(body);
  if (!text.trim() && imageIds.length === 0) {
    throw new AppError("bad_request", "message: the message has no text and no image.");
  }
  if (text.length > MAX_MESSAGE_CHARS) {
    throw new AppError(
      "bad_request",
      `message: the text is ${text.length} characters; the limit is ${MAX_MESSAGE_CHARS}.`,
    );
  }
  return runChatTurn({ db: await getDb(), user, conversationId: body.id, text, attachmentIds: imageIds });
});
