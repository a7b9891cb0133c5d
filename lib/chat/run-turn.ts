// One chat turn, end to end: authorise, persist the user message first, build phase A once, run the
// attempts, stream the reply as an AI SDK UI message stream and persist it as it streams. The generation is not
// tied to the browser: if the client disconnects, the reply still completes and is stored.

import { setMaxListeners } from "node:events";
import {
  createUIMessageStream,
  createUIMessageStreamResponse,
  JsonToSseTransformStream,
  UI_MESSAGE_STREAM_HEADERS,
} from "ai";
import { v7 as uuidv7 } from "uuid";
import type { Database } from "@/db/client";
import { findMessageByClientId, getReplyToRegenerate } from "@/db/message-queries";
import {
  appendMessage,
  deleteReplayedReasoning,
  getModel,
  getPersona,
  getReadableConversation,
  listActiveBlocks,
} from "@/db/queries";
import type { Message, Model, Persona } from "@/db/schema";
import { finishTurn, HEARTBEAT_INTERVAL_MS, insertTurn, touchTurnHeartbeat } from "@/db/turn-queries";
import type { SessionUser } from "@/lib/api/route";
import { stageClock } from "@/lib/chat/stage-clock";
import { buildContext } from "@/lib/context/build-context";
import { attemptBudgetsFor } from "@/lib/context/history-reach";
import type { StoredPart, TraceEvent } from "@/lib/context/types";
import { AppError } from "@/lib/errors";
import { publishMessage } from "@/lib/live/publish";
import { logger } from "@/lib/logger";
import { isProviderConfigured } from "@/lib/providers/language-model";
import { loadTurnInput, type TurnInput } from "./load-turn-input";
import { ReplyPersistence } from "./reply-persistence";
import { resumableStreams } from "./resumable-streams";
import { runAttempts, safeWriter } from "./run-attempts";
import { refuseWhileReplyIsWritten } from "./stop-turn";
import { toModelDescriptor } from "./stored-rows";
import { maybeSummariseBeforeTurn } from "./summarise";
import { type BuiltTurn, summariseOnOverflow } from "./summary-overflow";
import { startTitleGeneration } from "./title";
import { runnableToolNames, toolSetFor } from "./tools";
import { instanceId } from "./turn-recovery";
import { registerRunningTurn } from "./turn-stops";

/** What starts a turn: a new message of the user, or a new variant of the latest reply (regenerate, retry). */
export type TurnAction =
  | {
      kind: "submit";
      text: string;
      /** Images uploaded for this message (POST /api/conversations/:id/attachments), in order. */
      attachmentIds?: string[];
      /** The client's id for the message: the same id twice never stores a second message. */
      clientMessageId?: string;
    }
  | { kind: "regenerate"; replyMessageId: string };

export interface TurnRequest {
  db: Database;
  user: SessionUser;
  conversationId: string;
  action: TurnAction;
}

export async function runChatTurn({ db, user, conversationId, action }: TurnRequest): Promise<Response> {
  const conversation = await getReadableConversation({ db, conversationId, userId: user.id });
  const persona = await getPersona({ db, personaId: conversation.personaId });
  // Who may ask and which models may answer are checked first: nothing is stored for a turn that is refused.
  const checked = Promise.all([
    refuseIfMuted(db, persona.id, persona.name, user.id),
    turnModels(db, persona),
    action.kind === "submit" && action.clientMessageId
      ? refuseIfAlreadySent(db, conversationId, action.clientMessageId)
      : refuseWhileReplyIsWritten({ db, conversationId, action: "regenerate" }),
  ]);
  // Then the user's words are stored before anything can fail downstream (a regenerate answers a stored message).
  // The turn's load starts at once, beside the checks and the insert (it takes the stored row once it exists).
  const stored = checked.then(async ([, models]) => {
    if (models.usable.length === 0) {
      throw new AppError(
        "model_unavailable",
        `Persona ${persona.name} has no usable model: ${persona.modelId} is unknown or its provider is not configured.`,
      );
    }
    if (action.kind === "regenerate") {
      return (await getReplyToRegenerate({ db, conversationId, replyMessageId: action.replyMessageId }))
        .userMessage;
    }
    const attachmentIds = action.attachmentIds ?? [];
    const parts: StoredPart[] = [
      ...(action.text ? [{ type: "text" as const, text: action.text }] : []),
      ...attachmentIds.map((attachmentId) => ({ type: "media" as const, attachmentId })),
    ];
    return appendMessage({
      db,
      message: {
        conversationId,
        authorType: "user",
        authorUserId: user.id,
        authorName: user.name,
        parts,
        status: "complete",
        clientMessageId: action.clientMessageId ?? null,
      },
      // The images become this message's in the same transaction, or nothing is stored.
      attach: { attachmentIds, userId: user.id },
    });
  });
  // A refusal above must not also surface as an unhandled rejection of the load that waits on it.
  stored.catch(() => {});
  void stored.then(
    (message) => publishMessage({ db, conversationId, messageId: message.id }),
    () => {},
  );
  const load = (currentMessage: Message | Promise<Message>) =>
    loadTurnInput({ db, conversation, persona, currentMessage, requesterId: user.id });
  const [[, { personaModel, usable: modelRows }], userMessage, firstInput] = await Promise.all([
    checked,
    stored,
    load(stored),
  ]);

  // Build once; summarise old turns when the policy says so, deciding from what was just loaded; in
  // the rare turn that does summarise, load and build again. Summarise again if it still overflows.
  const buildFrom = (input: TurnInput): BuiltTurn => {
    // History that none of the turn's models could take is not built (the payload is the same either way).
    const attemptBudgets = attemptBudgetsFor(modelRows.map(toModelDescriptor), input.buildInput.settings);
    return {
      turnInput: input,
      base: buildContext({ ...input.buildInput, attemptBudgets }, { clock: stageClock }),
    };
  };
  const build = async () => buildFrom(await load(userMessage));
  const firstBuild = buildFrom(firstInput);
  const summaryBeforeTurn = await maybeSummariseBeforeTurn({
    db,
    conversation,
    persona,
    preloaded: {
      ...firstBuild.turnInput.summaryInputs,
      personaModel,
      omittedByFetchLimit: firstBuild.turnInput.buildInput.loadedWindow?.omittedCount ?? 0,
    },
  });
  const { turnInput, base, firstResolved } = await summariseOnOverflow({
    db,
    conversation,
    persona,
    modelRows,
    summaryEvents: summaryBeforeTurn.events,
    build,
    prebuilt: summaryBeforeTurn.summarised ? undefined : firstBuild,
  });

  // The reply's row and the turn's row are written while the model call is already under way: the ids are
  // known now, writes of the reply wait for its row, and attempts are recorded after the turn row exists.
  const assistantMessageId = uuidv7();
  const turnId = uuidv7();
  const rowsReady = (async () => {
    // A reply becomes the chosen variant of the replies to its message (a regenerate's earlier ones stay).
    await appendMessage({
      db,
      message: {
        id: assistantMessageId,
        conversationId,
        authorType: "persona",
        authorPersonaId: persona.id,
        authorName: persona.name,
        parts: [],
        status: "streaming",
        replyToMessageId: userMessage.id,
      },
    });
    await insertTurn({
      db,
      turn: {
        id: turnId,
        conversationId,
        userMessageId: userMessage.id,
        assistantMessageId,
        settingsVersion: turnInput.settingsVersion,
        instanceId: instanceId(),
      },
    });
  })();
  rowsReady.catch((error) => logger.error({ err: error, turnId }, "could not store the reply's rows"));

  const reply = new ReplyPersistence(db, conversationId, assistantMessageId, rowsReady);

  // Stop (from this instance or another) aborts the provider request; the reply keeps what the user saw.
  const stopController = new AbortController();
  // Each attempt, retry wait and SDK step listens to it: more than Node's default of ten is expected, not a leak.
  setMaxListeners(100, stopController.signal);
  let shownChars: number | undefined;
  const unregister = registerRunningTurn(turnId, conversationId, (request) => {
    shownChars = request.shownChars;
    stopController.abort(new Error("stopped by the user"));
  });
  const heartbeat = startTurnHeartbeat(db, turnId, rowsReady);

  const stream = createUIMessageStream({
    execute: async ({ writer }) => {
      // The first words reach the client while the reply's rows may still be being stored: a stop or an edit
      // that comes then finds the turn in this process's registry (turnRunningHere), not yet in the database.
      const out = safeWriter(writer);
      out.write({
        type: "start",
        messageId: assistantMessageId,
        messageMetadata: { userMessageId: userMessage.id, assistantMessageId },
      });
      try {
        const outcome = await runAttempts({
          db,
          turnId,
          turnReady: rowsReady,
          base,
          firstResolved,
          settingsVersion: turnInput.settingsVersion,
          modelRows,
          enabledToolNames: runnableToolNames(persona.toolNames),
          tools: toolSetFor(persona.toolNames, {
            db,
            userId: user.id,
            personaId: persona.id,
            conversationId,
            personaModelIds: [persona.modelId, ...persona.fallbackModelIds],
          }),
          reply,
          writer: out,
          stopSignal: stopController.signal,
        });
        if (outcome.status === "stopped" && shownChars !== undefined) reply.truncateText(shownChars);
        const messageStatus = outcome.status === "ok" ? "complete" : outcome.status;
        await reply.finish(messageStatus);
        await finishTurn({ db, turnId, status: outcome.status });
        if (outcome.status === "ok") startTitleGeneration({ db, conversationId });
        if (outcome.status === "ok") await deleteReasoningReplayedOnce(db, conversationId, base.trace);
        if (outcome.error) out.write({ type: "error", errorText: outcome.error.message });
        out.write({
          type: "finish",
          finishReason: outcome.status === "ok" || outcome.status === "stopped" ? "stop" : "error",
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
    },
  });
  // With Redis, the stream is published under the turn's id so any instance can resume it.
  const streams = resumableStreams();
  if (streams) {
    const published = await streams.resumableStream(turnId, () =>
      stream.pipeThrough(new JsonToSseTransformStream()),
    );
    if (published)
      return new Response(published.pipeThrough(new TextEncoderStream()), {
        headers: UI_MESSAGE_STREAM_HEADERS,
      });
  }
  return createUIMessageStreamResponse({ stream });
}

/** While a turn runs, its instance says so every HEARTBEAT_INTERVAL_MS; a turn whose heartbeat stops is recovered. */
function startTurnHeartbeat(db: Database, turnId: string, rowsReady: Promise<void>) {
  return setInterval(() => {
    rowsReady
      .then(() => touchTurnHeartbeat({ db, turnId }))
      .catch((error) => logger.warn({ err: error, turnId }, "could not record the turn's heartbeat"));
  }, HEARTBEAT_INTERVAL_MS);
}

async function refuseIfAlreadySent(db: Database, conversationId: string, clientMessageId: string) {
  const existing = await findMessageByClientId({ db, conversationId, clientMessageId });
  if (existing) {
    throw new AppError("conflict", "This message was already sent (its id is stored): it is not sent again.");
  }
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

async function refuseIfMuted(db: Database, personaId: string, personaName: string, userId: string) {
  const blocks = await listActiveBlocks({ db, personaId, now: new Date() });
  // A block includes a mute (the blocks card tells the model a blocked user "cannot trigger" the persona).
  const mute = blocks.find(({ block }) => block.userId === userId);
  if (!mute) return;
  const verb = mute.block.blockType === "block" ? "blocked" : "muted";
  const until = mute.block.expiresAt ? ` until ${mute.block.expiresAt.toISOString()}` : "";
  const reason = mute.block.reason ? ` Reason: ${mute.block.reason}` : "";
  throw new AppError(
    "muted",
    `${personaName} has ${verb} you${until}, so it will not reply to you.${reason}`,
  );
}

/**
 * The persona's own model row (null when it does not exist), and the models a turn may call: the persona's model
 * then its fallbacks, keeping those that exist, are enabled and whose provider is configured.
 */
export async function turnModels(
  db: Database,
  persona: Persona,
): Promise<{ personaModel: Model | null; usable: Model[] }> {
  const rows = await Promise.all(
    [persona.modelId, ...persona.fallbackModelIds].map((modelId) => getModel({ db, modelId })),
  );
  const usable = rows.filter(
    (row): row is Model => row?.enabled === true && isProviderConfigured(row.provider),
  );
  return { personaModel: rows[0], usable };
}
