// "Compare": the same turn answered by up to four models, each answer a new variant of the reply with its own
// attempts. The turns run one after another through the regenerate path (run-turn.ts), since a conversation
// writes one reply at a time (turn-control/stop-turn.ts); their streams are sent as one, each model's chunks
// after a `data-compare` chunk that names it. The reply chosen before stays chosen: comparing changes what later
// turns send only once the user chooses an answer (the variant flip).

import "server-only";
import type { Database } from "@/db/client";
import { getMessageInConversation } from "@/db/message-queries";
import { chooseReplyVariant, getMessageToAnswer } from "@/db/message-variant-queries";
import type { SessionUser } from "@/lib/api/route";
import { runChatTurn } from "@/lib/chat/turn/run-turn";
import { callableModel, unavailableModelMessage } from "@/lib/chat/turn/turn-setup";
import { refuseWhileReplyIsWritten } from "@/lib/chat/turn-control/stop-turn";
import { type CompareChunk, DONE_EVENT, forEachEventText } from "@/lib/compare-stream";
import { AppError } from "@/lib/domain/errors";
import { publishTranscriptChange } from "@/lib/live/publish";
import { logger } from "@/lib/logger";
import { chatTurnPolicy, enforceRateLimit } from "@/lib/rate-limit";
import { refuseNewTurnWhenShuttingDown } from "@/lib/shutdown-hooks";

const encoder = new TextEncoder();

/** Each model must be distinct and callable now: a 400 naming the first that is not. */
export async function checkComparedModels(db: Database, modelIds: readonly string[]): Promise<void> {
  const seen = new Set<string>();
  for (const [index, modelId] of modelIds.entries()) {
    if (seen.has(modelId)) {
      throw new AppError(
        "bad_request",
        `modelIds[${index}]: ${modelId} is named twice; compare distinct models.`,
      );
    }
    seen.add(modelId);
  }
  const callable = await Promise.all(modelIds.map((modelId) => callableModel(db, modelId)));
  const refused = callable.indexOf(null);
  if (refused >= 0) {
    throw new AppError(
      "bad_request",
      `modelIds[${refused}]: ${unavailableModelMessage(`Model ${modelIds[refused]}`)}.`,
    );
  }
}

/**
 * Checks what would refuse every turn before anything runs (the models, the message, a reply being written), then
 * returns the stream of the models' turns, run one after another.
 */
export async function compareModels({
  db,
  user,
  conversationId,
  messageId,
  modelIds,
}: {
  db: Database;
  user: SessionUser;
  conversationId: string;
  messageId: string;
  modelIds: readonly string[];
}): Promise<ReadableStream<Uint8Array>> {
  await checkComparedModels(db, modelIds);
  await getMessageToAnswer({ db, conversationId, messageId });
  const shown = await getMessageInConversation({ db, conversationId, messageId });
  const chosenBefore = shown.authorType === "persona" && shown.chosen ? shown.id : null;
  await refuseWhileReplyIsWritten({ db, conversationId, action: "compare models" });
  // Each model's turn counts as a turn of the user's.
  for (const _ of modelIds) await enforceRateLimit(chatTurnPolicy(), user.id);
  // A model's turn, or why it did not start (an instance going away starts none).
  const startTurn = async (modelId: string): Promise<Response | string> => {
    try {
      refuseNewTurnWhenShuttingDown();
      return await runChatTurn({
        db,
        user,
        conversationId,
        action: { kind: "regenerate", messageId, modelId },
      });
    } catch (error) {
      if (error instanceof AppError) return error.message;
      logger.error({ err: error, modelId }, "a compared turn failed");
      return "The turn could not start.";
    }
  };
  let open = true;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (open) controller.enqueue(encoder.encode(text));
      };
      const announce = (chunk: CompareChunk) => send(`data: ${JSON.stringify(chunk)}\n\n`);
      // Once the reader has gone, no further model is started; a turn already running is stored as usual.
      try {
        for (const [index, modelId] of modelIds.entries()) {
          if (!open) break;
          const started = await startTurn(modelId);
          if (started instanceof Response) {
            announce({ type: "data-compare", data: { index, modelId } });
            // The turn is stored and no longer running once its stream ends: the next one may start.
            if (started.body)
              await forEachEventText(started.body, (events) => send(events.replaceAll(DONE_EVENT, "")));
          } else announce({ type: "data-compare", data: { index, modelId, error: started } });
        }
      } catch (error) {
        logger.error({ err: error, conversationId }, "a comparison's stream failed");
      } finally {
        if (chosenBefore) await chooseAgain(db, conversationId, chosenBefore);
        send(DONE_EVENT);
        if (open) controller.close();
        open = false;
      }
    },
    cancel() {
      open = false;
    },
  });
}

/** Each compared turn made its reply the chosen variant; the one chosen before is chosen again. */
async function chooseAgain(db: Database, conversationId: string, messageId: string): Promise<void> {
  try {
    await chooseReplyVariant({ db, conversationId, messageId });
    void publishTranscriptChange({ db, conversationId });
  } catch (error) {
    logger.error({ err: error, conversationId }, "could not choose the compared reply again");
  }
}
