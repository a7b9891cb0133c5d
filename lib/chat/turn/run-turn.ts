// One chat turn, end to end: authorise and persist the user message first (turn-user-message.ts), build phase A
// once, then run the attempts, streaming the reply as an AI SDK UI message stream and persisting it as it streams
// (turn-stream.ts). The generation is not tied to the browser: if the client disconnects, the reply still
// completes and is stored.

import "server-only";
import { v7 as uuidv7 } from "uuid";
import type { Database } from "@/db/client";
import { appendMessage } from "@/db/message-insert-queries";
import { insertFirstReplyAndTurn, insertTurn } from "@/db/turn-queries";
import type { TurnSnapshot } from "@/db/turn-snapshot-queries";
import type { SessionUser } from "@/lib/api/route";
import { hasDefaultTitle } from "@/lib/chat/generated/title";
import { maybeSummariseBeforeTurn } from "@/lib/chat/summary/summarise";
import { type BuiltTurn, summariseOnOverflow } from "@/lib/chat/summary/summary-overflow";
import { resumableStreams } from "@/lib/chat/turn-control/resumable-streams";
import { instanceId } from "@/lib/chat/turn-control/turn-recovery";
import { claimTurnStart } from "@/lib/chat/turn-control/turn-stops";
import { logger } from "@/lib/logger";
import { afterSetUp } from "./after-set-up";
import { loadTurnInput, type TurnInput } from "./load-turn-input";
import {
  encodedText,
  REPLY_STREAM_HEADERS,
  replyEventBytes,
  replyEventText,
  type WriteReply,
} from "./reply-events";
import { admitTurnSetUp } from "./turn-admission";
import type { ClientTools, TurnContext } from "./turn-context";
import { buildPhaseA, openConversation } from "./turn-setup";
import { streamTurn } from "./turn-stream";
import {
  checkAndStoreUserMessage,
  continuationInput,
  type TurnAction,
  turnActionWords,
  turnSnapshotOptions,
} from "./turn-user-message";

export interface TurnRequest {
  db: Database;
  user: SessionUser;
  conversationId: string;
  action: TurnAction;
  /** Tools the caller runs itself (the gateway's clients). */
  clientTools?: ClientTools;
  /**
   * The conversation's snapshot, already read for this user with nothing stored since (a gateway call reads it
   * with the lookup that finds the conversation); read here when not given.
   */
  snapshot?: TurnSnapshot;
}

export async function runChatTurn(request: TurnRequest): Promise<Response> {
  return runTurnWith(request, ({ turnId, write }) => respondWith(turnId, write));
}

/**
 * A turn whose reply `respond` writes as its caller speaks (the gateway's OpenAI shapes): the same set-up, attempts
 * and records as a chat turn. `write` starts the reply once it is called with a writer.
 */
export async function runTurnWith<Result>(
  request: TurnRequest,
  respond: (turn: { turnId: string; write: WriteReply }) => Promise<Result>,
): Promise<Result> {
  // The conversation is this turn's from its claim (once the caller may read it) until the turn registers as
  // running: another turn set up here meanwhile is refused (turn-stops.ts, claimTurnStart).
  let releaseStart = () => {};
  try {
    const writeReply = await startTurn(request, (release) => {
      releaseStart = release;
    });
    return await respond({ turnId: writeReply.turnId, write: writeReply.write });
  } finally {
    releaseStart();
  }
}

/** Set-up, then the reply's rows and its stream: the turn is registered as running when this returns. */
async function startTurn(
  { db, user, conversationId, action, clientTools, snapshot }: TurnRequest,
  claimed: (release: () => void) => void,
): Promise<{ turnId: string; write: ReturnType<typeof streamTurn> }> {
  // Reading and storing wait their turn behind other turns' when many arrive at once (turn-admission.ts).
  const { turn, firstInput } = await admitTurnSetUp(async () => {
    const opened = await openConversation({
      db,
      conversationId,
      userId: user.id,
      snapshot,
      ...turnSnapshotOptions(action),
    });
    const { conversation, persona } = opened;
    claimed(claimTurnStart(conversationId, turnActionWords(action)));
    const { firstInput, ...stored } = await checkAndStoreUserMessage({ db, user, opened, action });
    const turn: TurnContext = {
      db,
      user,
      conversation,
      persona,
      action,
      ...stored,
      assistantMessageId: uuidv7(),
      turnId: uuidv7(),
      clientTools,
    };
    return { turn, firstInput };
  });
  const { turnInput, base, firstResolved } = await prepareContext(turn, firstInput);
  const { settingsVersion } = turnInput;

  // The reply's row and the turn's row are written while the model call is already under way: the ids are
  // known now, writes of the reply wait for its row, and attempts are recorded after the turn row exists. The
  // statement is made once the set-up has reached the provider request (after-set-up.ts).
  const rowsReady = afterSetUp().then(() => insertReplyRows(turn, settingsVersion));
  rowsReady.catch((error) =>
    logger.error({ err: error, turnId: turn.turnId }, "could not store the reply's rows"),
  );

  const writeReply = streamTurn(turn, {
    rowsReady,
    base,
    firstResolved,
    settingsVersion,
    titleWanted: hasDefaultTitle(turn.conversation),
  });
  return { turnId: turn.turnId, write: writeReply };
}

/** The reply's stream as the response. With Redis, it is published under the turn's id so any instance can resume it. */
async function respondWith(turnId: string, writeReply: ReturnType<typeof streamTurn>): Promise<Response> {
  const streams = resumableStreams();
  if (!streams) return new Response(replyEventBytes(writeReply), { headers: REPLY_STREAM_HEADERS });
  const events = replyEventText(writeReply);
  const published = await streams.resumableStream(turnId, () => events);
  return new Response(encodedText(published ?? events), { headers: REPLY_STREAM_HEADERS });
}

/**
 * Build once; summarise old turns when the policy says so, deciding from what was just loaded; in the rare turn
 * that does summarise, load and build again. Summarise again if it still overflows.
 */
async function prepareContext(turn: TurnContext, firstInput: TurnInput) {
  const { db, user, conversation, persona, userMessage, personaModel, modelRows, action } = turn;
  const callOptions = action.kind === "submit" || action.kind === "continue" ? action.callOptions : undefined;
  const continuing = action.kind === "continue";
  const buildFrom = (turnInput: TurnInput): BuiltTurn => ({
    turnInput,
    base: { ...buildPhaseA(turnInput, modelRows), ...(callOptions ? { callOptions } : {}) },
  });
  const build = async () =>
    buildFrom(
      await loadTurnInput({
        db,
        conversation,
        persona,
        currentMessage: continuing ? continuationInput(userMessage) : userMessage,
        currentMessageStored: !continuing,
        requesterId: user.id,
      }),
    );
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
  return summariseOnOverflow({
    db,
    conversation,
    persona,
    modelRows,
    summaryEvents: summaryBeforeTurn.events,
    build,
    prebuilt: summaryBeforeTurn.summarised ? undefined : firstBuild,
  });
}

/**
 * The reply's row and the turn's. A new message's first reply is one statement; a regenerate's reply becomes the
 * chosen variant of the replies to its message (the earlier ones stay, un-chosen) in appendMessage's transaction.
 * Resolves with the reply's row as stored: its first live event, with no read.
 */
async function insertReplyRows(
  { db, persona, userMessage, assistantMessageId, turnId, action }: TurnContext,
  settingsVersion: number,
) {
  // A new message has no reply yet, nor has a reply whose tool results are answered; a regenerate's message has.
  const firstReply = action.kind !== "regenerate";
  const reply = {
    id: assistantMessageId,
    conversationId: userMessage.conversationId,
    authorPersonaId: persona.id,
    authorName: persona.name,
    replyToMessageId: userMessage.id,
  };
  const turn = { id: turnId, userMessageId: userMessage.id, settingsVersion, instanceId: instanceId() };
  if (firstReply) return insertFirstReplyAndTurn({ db, reply, turn });
  const row = await appendMessage({
    db,
    message: { ...reply, authorType: "persona", parts: [], status: "streaming" },
  });
  await insertTurn({ db, turn: { ...turn, conversationId: userMessage.conversationId, assistantMessageId } });
  return row;
}
