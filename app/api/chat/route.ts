import { type Database, getDb } from "@/db/client";
import { readTurnSnapshotOfSession } from "@/db/turn-snapshot-queries";
import { readJson, requireUser, route } from "@/lib/api/route";
import { plainSessionToken } from "@/lib/auth";
import { runChatTurn } from "@/lib/chat/turn/run-turn";
import { type TurnAction, turnSnapshotOptions } from "@/lib/chat/turn/turn-user-message";
import { AppError } from "@/lib/domain/errors";
import { chatTurnPolicy, enforceRateLimit } from "@/lib/rate-limit";
import { refuseNewTurnWhenShuttingDown } from "@/lib/shutdown-hooks";
import { attachmentIds, type ChatRequest, chatRequestSchema, MAX_MESSAGE_CHARS, messageText } from "./schema";

export const dynamic = "force-dynamic";

export const POST = route(async (request: Request) => {
  // Before anything else: a draining instance stores nothing, so the client's retry is answered elsewhere.
  refuseNewTurnWhenShuttingDown();
  const db = await getDb();
  // The body is read, and the conversation it names read as the session's user, while the session is checked.
  // Nothing read is acted on before the session and the rate limit pass, so refusals keep their order.
  const reading = readTurnRequest(request, db);
  reading.catch(() => {});
  const user = await requireUser(request);
  await enforceRateLimit(chatTurnPolicy(), user.id);
  const { conversationId, action, snapshot } = await reading;
  return runChatTurn({ db, user, conversationId, action, snapshot: (await snapshot) ?? undefined });
});

/** The turn the body asks for, and its conversation's snapshot as the session's user reads it (null if it cannot). */
async function readTurnRequest(request: Request, db: Database) {
  const body = await readJson(request, chatRequestSchema);
  const action = turnAction(body);
  const token = await plainSessionToken(request.headers);
  const snapshot = token
    ? readTurnSnapshotOfSession({ db, token, conversationId: body.id, ...turnSnapshotOptions(action) })
    : Promise.resolve(null);
  // A failed read is the turn's own to make again and report: this one only saves it a round trip.
  return { conversationId: body.id, action, snapshot: snapshot.catch(() => null) };
}

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
