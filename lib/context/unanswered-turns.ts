// Phase A's unanswered-turns stage (docs/pipeline.md#unanswered-turns): what the model is told when a turn went
// wrong. A reply that failed before any text (every attempt failed) is not sent, and the user message it should have
// answered carries a short notice, so two user turns in a row do not read as one unexplained burst. A reply the
// user stopped, or one whose stream broke, is sent as the text that was stored (what the user saw), with no
// notice, and the trace says so.

import type { StoredMessage, TraceEvent } from "@/lib/domain/types";
import { hasArtifactParts, hasText, messageText } from "./messages";
import type { PhaseAContext, ReachableHistory } from "./phases";
import type { Stage, StageResult } from "./stage";
import { traceEvent } from "./trace";

/** The notice appended to a user message whose reply failed. */
export const UNANSWERED_NOTICE = "[System: no reply was given to this message: the reply failed]";

function isFailedEmptyReply(message: StoredMessage): boolean {
  return (
    message.authorType === "persona" &&
    message.status === "error" &&
    !hasText(messageText(message)) &&
    !hasArtifactParts(message)
  );
}

export function markUnansweredTurns(history: readonly StoredMessage[]): StageResult<StoredMessage[]> {
  const trace: TraceEvent[] = [];
  let failedAt: Set<string> | null = null;
  for (const message of history) {
    if (isFailedEmptyReply(message) && message.replyToMessageId) {
      failedAt ??= new Set();
      failedAt.add(message.replyToMessageId);
    } else if (
      message.authorType === "persona" &&
      (message.status === "stopped" || message.status === "interrupted")
    ) {
      const how = message.status === "stopped" ? "stopped by the user" : "cut off when its stream broke";
      trace.push(
        traceEvent(
          "unanswered",
          `${message.status}-reply`,
          `reply #${message.seq} was ${how}: sent as it was shown`,
          {
            itemIds: [`msg:${message.id}`],
            messageIds: [message.id],
            counts: { characters: messageText(message).length },
          },
        ),
      );
    }
  }
  if (failedAt === null) return { value: [...history], trace };

  const value: StoredMessage[] = [];
  for (const message of history) {
    if (isFailedEmptyReply(message)) continue;
    if (message.authorType !== "persona" && failedAt.has(message.id)) {
      // The cached token counts no longer cover the text: without them the budget counts the item itself.
      value.push({
        ...message,
        parts: [...message.parts, { type: "text", text: UNANSWERED_NOTICE }],
        tokenCounts: undefined,
        segmentTokenCounts: undefined,
      });
      trace.push(
        traceEvent(
          "unanswered",
          "unanswered",
          `message #${message.seq} got no reply (the reply failed): noted for the model`,
          {
            itemIds: [`msg:${message.id}`],
            messageIds: [message.id],
          },
        ),
      );
      continue;
    }
    value.push(message);
  }
  return { value, trace };
}

/** Phase A: failed replies leave a notice on the message they did not answer; cut replies are traced. */
export const unansweredStage: Stage<ReachableHistory, ReachableHistory, PhaseAContext> = {
  name: "unanswered",
  run({ loaded, history, hiddenMessageIds }) {
    const { value, trace } = markUnansweredTurns(history);
    return { value: { loaded, history: value, hiddenMessageIds }, trace };
  },
};
