// A turn's reply as an AI SDK UI message stream: the attempts, then the reply's and the turn's final status, a
// title for a new conversation, and the heartbeat and stop registration while it runs.

import "server-only";
import type { ToolSet } from "ai";
import type { Database } from "@/db/client";
import { deleteReplayedReasoning } from "@/db/message-queries";
import type { Message } from "@/db/schema";
import { finishTurn, HEARTBEAT_INTERVAL_MS, touchTurnHeartbeat } from "@/db/turn-queries";
import { runAttempts } from "@/lib/chat/attempts/run-attempts";
import { startTitleGeneration } from "@/lib/chat/generated/title";
import { registerRunningTurn } from "@/lib/chat/turn-control/turn-stops";
import type { ResolvedContext } from "@/lib/context/resolve-for-model";
import type { BaseContext, TraceEvent } from "@/lib/domain/types";
import { logger } from "@/lib/logger";
import type { ReplyWriter, WriteReply } from "./reply-events";
import { ReplyPersistence } from "./reply-persistence";
import { personaToolSet, runnableToolNames } from "./tools";
import type { ClientTools, TurnContext } from "./turn-context";

/** Writes the reply (reply-events.ts makes the stream): the attempts, then the reply's and the turn's final status. */
export function streamTurn(
  {
    db,
    user,
    persona,
    conversation,
    userMessage,
    assistantMessageId,
    turnId,
    modelRows,
    clientTools,
  }: TurnContext,
  {
    rowsReady,
    base,
    firstResolved,
    settingsVersion,
    titleWanted,
  }: {
    /** The reply's row once it and the turn's row are stored. */
    rowsReady: Promise<Message>;
    base: BaseContext;
    firstResolved: ResolvedContext | undefined;
    settingsVersion: number;
    /**
     * The conversation had its default title when the turn began: a title is generated once the reply is done. A
     * titled conversation keeps its title, so its turns skip even the read that would say so.
     */
    titleWanted: boolean;
  },
): WriteReply {
  const conversationId = conversation.id;
  const reply = new ReplyPersistence(db, conversationId, assistantMessageId, rowsReady);

  // Stop (from this instance or another) aborts the provider request; the reply keeps what the user saw.
  // Node's default limit of ten listeners stays: a retry wait listens only while it waits and an attempt's call
  // listens through AbortSignal.any (no listener on this signal), so more than one at a time would be a leak, which
  // the warning then shows (tests/api/listener-leaks.test.ts).
  const stopController = new AbortController();
  let shownChars: number | undefined;
  // Shutdown after its grace period stops the reply the same way; it is then stored `interrupted`.
  let interruptedByShutdown = false;
  const unregister = registerRunningTurn(turnId, conversationId, (request) => {
    if (request.reason === "shutdown") interruptedByShutdown = true;
    else shownChars = request.shownChars;
    stopController.abort(
      new Error(interruptedByShutdown ? "the server is shutting down" : "stopped by the user"),
    );
  });
  const heartbeat = startTurnHeartbeat(db, turnId, rowsReady);

  return async (out: ReplyWriter) => {
    // The first words reach the client while the reply's rows may still be being stored: a stop or an edit
    // that comes then finds the turn in this process's registry (turnRunningHere), not yet in the database.
    out.write({
      type: "start",
      messageId: assistantMessageId,
      messageMetadata: { userMessageId: userMessage.id, assistantMessageId },
    });
    try {
      const outcome = await runAttempts({
        db,
        conversationId,
        turnId,
        turnReady: rowsReady,
        base,
        firstResolved,
        settingsVersion,
        modelRows,
        enabledToolNames: runnableToolNames(persona.toolNames),
        tools: withClientTools(personaToolSet(persona, { db, userId: user.id, conversationId }), clientTools),
        toolChoice: clientTools?.toolChoice,
        reply,
        writer: out,
        stopSignal: stopController.signal,
      });
      const status = outcome.status === "stopped" && interruptedByShutdown ? "interrupted" : outcome.status;
      if (status === "stopped" && shownChars !== undefined) reply.truncateText(shownChars);
      const messageStatus = status === "ok" ? "complete" : status;
      // The reply's final state and the turn's status: one statement.
      await reply.finish(messageStatus, { turnId, status });
      if (status === "ok" && titleWanted) startTitleGeneration({ db, conversationId });
      if (status === "ok") await deleteReasoningReplayedOnce(db, conversationId, base.trace);
      if (outcome.error) out.write({ type: "error", errorText: outcome.error.message });
      else if (interruptedByShutdown) {
        out.write({ type: "error", errorText: "The server restarted before the reply was finished." });
      }
      // The reply's stored status rides on the finish: the page's own copy then says it has ended, so a live event of
      // an earlier state that arrives after it cannot take it back to `streaming` (components/chat/live-messages.ts).
      out.write({
        type: "finish",
        finishReason: status === "ok" || status === "stopped" ? "stop" : "error",
        messageMetadata: { status: messageStatus },
      });
    } catch (error) {
      logger.error({ err: error, turnId }, "turn failed");
      await reply.finish("error").catch(() => {});
      await finishTurn({ db, turnId, status: "error" }).catch(() => {});
      out.write({ type: "error", errorText: "The reply failed on the server." });
    } finally {
      clearInterval(heartbeat);
      unregister();
    }
  };
}

/** The persona's tools and the caller's own (which have no execute: a call of one ends the tool loop). */
function withClientTools(
  own: ToolSet | undefined,
  clientTools: ClientTools | undefined,
): ToolSet | undefined {
  if (!clientTools) return own;
  return { ...own, ...clientTools.tools };
}

/** While a turn runs, its instance says so every HEARTBEAT_INTERVAL_MS; a turn whose heartbeat stops is recovered. */
function startTurnHeartbeat(db: Database, turnId: string, rowsReady: Promise<unknown>) {
  return setInterval(() => {
    rowsReady
      .then(() => touchTurnHeartbeat({ db, turnId }))
      .catch((error) => logger.warn({ err: error, turnId }, "could not record the turn's heartbeat"));
  }, HEARTBEAT_INTERVAL_MS);
}

/** With `reasoning.persist = next_reply`, what stage 6 replayed for this reply is deleted once it is done. */
async function deleteReasoningReplayedOnce(db: Database, conversationId: string, trace: TraceEvent[]) {
  const event = trace.find(
    (entry) => entry.stage === "artifacts" && entry.action === "replayed-reasoning-once",
  );
  const artifactIds = event?.details?.artifactIds;
  if (!Array.isArray(artifactIds) || artifactIds.length === 0) return;
  try {
    await deleteReplayedReasoning({ db, conversationId, artifactIds: artifactIds as string[] });
  } catch (error) {
    // The reply is stored; the reasoning simply stays until the next reply tries again.
    logger.error({ err: error, conversationId }, "could not delete the reasoning replayed once");
  }
}
