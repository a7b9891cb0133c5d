// Before a turn stores anything: who may ask (not muted, the message not already sent, no reply being written)
// and which models may answer. Then the user's message is stored, or (regenerate) found.

import "server-only";
import type { Database } from "@/db/client";
import { appendMessage } from "@/db/message-insert-queries";
import { getMessageInConversation } from "@/db/message-queries";
import { getMessageToAnswer } from "@/db/message-variant-queries";
import type { Message } from "@/db/schema";
import type { ConversationContextRows } from "@/db/turn-snapshot-queries";
import type { SessionUser } from "@/lib/api/route";
import { refuseWhileReplyIsWritten } from "@/lib/chat/turn-control/stop-turn";
import { AppError } from "@/lib/domain/errors";
import type { CallOptions, StoredPart } from "@/lib/domain/types";
import { publishStoredMessage } from "@/lib/live/publish";
import { type PreparedImageLink, prepareImageLinks, storeImageLinks } from "@/lib/media/image-links";
import { afterSetUp } from "./after-set-up";
import { loadTurnInput } from "./load-turn-input";
import { userMessageRow } from "./stored-rows";
import { type OpenedConversation, personaModels, requireCallableRow } from "./turn-setup";

/** What starts a turn: a new message of the user, or a new variant of the latest reply (regenerate, retry). */
export type TurnAction =
  | {
      kind: "submit";
      text: string;
      /** Images uploaded for this message (POST /api/conversations/:id/attachments), in order. */
      attachmentIds?: string[];
      /** The client's id for the message: the same id twice never stores a second message. */
      clientMessageId?: string;
      /** A gateway call's own sampling and length options, applied by phase B (BaseContext.callOptions). */
      callOptions?: CallOptions;
    }
  /**
   * `messageId`: the reply to make a new variant of, or a user message to answer (an edited question's fork);
   * `modelId`: answer with that model first (then the persona's fallbacks).
   */
  | { kind: "regenerate"; messageId: string; modelId?: string }
  /**
   * Answer the tool results stored on the reply `messageId` (a gateway client ran the reply's calls and sent their
   * results back): no new user message; the new reply follows that reply and answers it.
   */
  | { kind: "continue"; messageId: string; callOptions?: CallOptions };

/**
 * Who may ask and which models may answer are checked first: nothing is stored for a turn that is refused. Then
 * the user's words are stored before anything can fail downstream (a regenerate answers a stored message). The
 * turn's load starts at once, beside the checks and the insert (it takes the stored row once it exists).
 */
export async function checkAndStoreUserMessage({
  db,
  user,
  opened,
  action,
}: {
  db: Database;
  user: SessionUser;
  /** The conversation as openConversation read it for this action (turn-setup.ts, openTurnConversation). */
  opened: OpenedConversation;
  action: TurnAction;
}) {
  const { conversation, persona, context } = opened;
  const conversationId = conversation.id;
  // Image links are fetched beside the checks (network only); they are stored with the message once those pass.
  const imageLinks =
    action.kind === "submit"
      ? prepareImageLinks({ db, conversationId, text: action.text })
      : Promise.resolve([]);
  imageLinks.catch(() => {});
  // The checks read nothing: the conversation's snapshot holds the blocks, the models, the running turn and
  // whether the message's id is already stored.
  refuseIfMuted(context.blocks, persona.name, user.id);
  const { personaModel, usable } = answeringModels(opened, action, user.id);
  if (action.kind === "submit" && opened.clientMessageStored) {
    throw new AppError("conflict", "This message was already sent (its id is stored): it is not sent again.");
  }
  await refuseWhileReplyIsWritten({
    db,
    conversationId,
    action: turnActionWords(action),
    ownStart: true,
    runningTurn: opened.runningTurn,
  });
  const stored =
    action.kind === "regenerate"
      ? getMessageToAnswer({ db, conversationId, messageId: action.messageId })
      : action.kind === "continue"
        ? getMessageInConversation({ db, conversationId, messageId: action.messageId })
        : storeUserMessage(db, user, conversationId, action, await imageLinks);
  // A refusal above must not also surface as an unhandled rejection of the load that waits on it.
  stored.catch(() => {});
  // Other readers of a room see the message at once (live rooms), made from the row in hand, once the set-up has
  // reached the provider request (after-set-up.ts).
  void stored.then(
    (message) => afterSetUp().then(() => publishStoredMessage({ db, message })),
    () => {},
  );
  const [userMessage, firstInput] = await Promise.all([
    stored,
    loadTurnInput({
      db,
      conversation,
      persona,
      currentMessage: action.kind === "continue" ? stored.then(continuationInput) : stored,
      currentMessageStored: action.kind !== "continue",
      currentMessageIsNew: action.kind === "submit",
      requesterId: user.id,
      context,
    }),
  ]);
  return { userMessage, personaModel, modelRows: usable, firstInput };
}

/**
 * What a turn's snapshot is read with besides the conversation and its reader: the model the action names besides
 * the persona's (a regenerate's choice) and the new message's client id (whether it is already stored).
 */
export function turnSnapshotOptions(action: TurnAction): {
  modelId: string | null;
  clientMessageId: string | null;
} {
  return {
    modelId: action.kind === "regenerate" ? (action.modelId ?? null) : null,
    clientMessageId: action.kind === "submit" ? (action.clientMessageId ?? null) : null,
  };
}

/**
 * A regenerate's model is the owner's choice, as the conversation's is, and must be callable (422 naming it); the
 * conversation's is skipped once it is not.
 */
function answeringModels(
  { conversation, persona, models }: OpenedConversation,
  action: TurnAction,
  userId: string,
) {
  if (action.kind === "regenerate" && action.modelId) {
    if (conversation.ownerId !== userId) {
      throw new AppError("forbidden", "modelId: only the conversation's owner chooses the model of a reply.");
    }
    requireCallableRow(models, action.modelId);
    return personaModels(models, persona, action.modelId);
  }
  return personaModels(models, persona, conversation.modelId);
}

async function storeUserMessage(
  db: Database,
  user: SessionUser,
  conversationId: string,
  action: Extract<TurnAction, { kind: "submit" }>,
  imageLinks: PreparedImageLink[],
) {
  const links = await storeImageLinks({ db, conversationId, userId: user.id, prepared: imageLinks });
  const attachmentIds = [...(action.attachmentIds ?? []), ...links.attachmentIds];
  const parts: StoredPart[] = [
    ...(action.text ? [{ type: "text" as const, text: action.text }] : []),
    ...attachmentIds.map((attachmentId) => ({ type: "media" as const, attachmentId })),
    // A link that was not fetched says so in the message (docs/features.md#image-links).
    ...links.notices.map((text) => ({ type: "text" as const, text })),
  ];
  return appendMessage({
    db,
    message: {
      ...userMessageRow(conversationId, user, parts),
      clientMessageId: action.clientMessageId ?? null,
    },
    // The images become this message's in the same transaction, or nothing is stored.
    attach: { attachmentIds, userId: user.id },
  });
}

/** What the refused person was doing, for the 409's sentence. */
export function turnActionWords(action: TurnAction): string {
  if (action.kind === "continue") return "answer the tool results";
  return action.kind === "submit" ? "send your message" : "regenerate";
}

/**
 * A continue turn's current input: no message of its own. It stands right after the reply whose tool results it
 * answers (so that reply, its calls and results are the newest history) and has no parts, so the payload ends with
 * the tool results (lib/context/current-input.ts leaves an empty current input out).
 */
export function continuationInput(answered: Message): Message {
  return {
    ...answered,
    id: `${answered.id}:continue`,
    seq: answered.seq + 1,
    authorType: "user",
    parts: [],
    replyToMessageId: null,
    tokenCounts: {},
    segmentTokenCounts: null,
  };
}

function refuseIfMuted(blocks: ConversationContextRows["blocks"], personaName: string, userId: string) {
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
