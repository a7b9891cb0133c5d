// Calls are conversations. A call continues the conversation its `x-glassbox-conversation-id` header names; without
// it, the one of this key whose transcript (the client's system text and messages, and the persona) hashes as the
// call's earlier messages do; else, when those messages equal a transcript one of this key's calls left behind up
// to some reply and then differ, a branch of that conversation at that reply, holding the rest; otherwise a new
// conversation starts, its earlier messages stored as they were sent.
// The client's system text is kept as the conversation's instructions: its own item after the persona's prompt.
// An image stands in the transcript as the SHA-256 of its bytes (the form its attachment is stored under), so a
// client that sends the same image back continues the conversation, and a text-only message hashes as it always did.

import "server-only";
import { createHash } from "node:crypto";
import { findKeyConversationSnapshot, findTranscriptPoints, saveTranscript } from "@/db/api-key-queries";
import type { Database } from "@/db/client";
import { branchConversation } from "@/db/conversation-branch-queries";
import { createConversation, getOwnedConversation, updateConversation } from "@/db/conversation-queries";
import { appendMessage } from "@/db/message-insert-queries";
import type { ApiKey, Conversation, Message, Persona } from "@/db/schema";
import { DEFAULT_CONVERSATION_TITLE } from "@/db/title-queries";
import type { TurnSnapshot } from "@/db/turn-snapshot-queries";
import type { SessionUser } from "@/lib/api/route";
import { AppError } from "@/lib/domain/errors";
import type { StoredPart } from "@/lib/domain/types";
import { isUuid } from "@/lib/ids";
import type { ChatCall, TranscriptMessage } from "./chat-request";
import type { ClientToolCall, ToolResultMessage } from "./client-tools";
import { storeContentImages } from "./content-parts";
import { GatewayError, invalidField } from "./errors";
import { appendArtifacts, callArtifacts, storeHistoryResults } from "./tool-results";

export const CONVERSATION_HEADER = "x-glassbox-conversation-id";

/**
 * The transcript a call continues, as one hash: persona, system text, then each message's role and text, with the
 * SHA-256 of each of a user message's images, an assistant message's tool calls (id, name, arguments) and a tool
 * message's call id.
 */
export function transcriptHash(personaId: string, systemText: string | null, messages: TranscriptMessage[]) {
  const hash = createHash("sha256");
  hash.update(JSON.stringify([personaId, systemText ?? ""]));
  for (const message of messages) hash.update(`\n${JSON.stringify(hashedMessage(message))}`);
  return hash.digest("hex");
}

/** The hash of each prefix of `messages` that ends with a reply (an assistant message), longest first. */
function replyPrefixHashes(personaId: string, systemText: string | null, messages: TranscriptMessage[]) {
  const hash = createHash("sha256");
  hash.update(JSON.stringify([personaId, systemText ?? ""]));
  const prefixes: { length: number; hash: string }[] = [];
  messages.forEach((message, index) => {
    hash.update(`\n${JSON.stringify(hashedMessage(message))}`);
    if (message.role === "assistant") prefixes.push({ length: index + 1, hash: hash.copy().digest("hex") });
  });
  return prefixes.reverse();
}

/** A message as hashed: a text-only message as [role, text], so hashes stored before images and tools still match. */
function hashedMessage({ role, text, images = [], toolCalls, toolCallId }: TranscriptMessage): unknown[] {
  if (role === "tool") return [role, toolCallId ?? "", text];
  if (toolCalls && toolCalls.length > 0) {
    return [role, text, toolCalls.map((call) => [call.id, call.name, call.arguments])];
  }
  if (images.length > 0) return [role, text, images.map((image) => image.sha256)];
  return [role, text];
}

export interface CallConversation {
  conversationId: string;
  /** Started by this call (its earlier messages were stored now). */
  started: boolean;
  /** The conversation as its turn reads it, read with the lookup that found it (a continued conversation's). */
  snapshot?: TurnSnapshot;
}

/** The lookup of the conversation a call's history continues, started under a persona id before its persona was read. */
export interface TranscriptLookup {
  personaId: string;
  /** The conversation as its turn reads it, or null when none of the key's holds this history. */
  found: Promise<TurnSnapshot | null>;
}

/**
 * Starts the lookup of the conversation of the key with `secretHash` whose transcript `call`'s history is, read as
 * its turn reads it in the same statement.
 */
export function lookUpTranscript(
  db: Database,
  secretHash: string,
  personaId: string,
  call: ChatCall,
): TranscriptLookup {
  const found = findKeyConversationSnapshot({
    db,
    secretHash,
    transcriptHash: transcriptHash(personaId, call.systemText, call.history),
  });
  // Awaited only by a call that gets that far: a refused one (a bad key, the rate limit) leaves it.
  found.catch(() => {});
  return { personaId, found };
}

export async function conversationForCall({
  db,
  key,
  user,
  persona,
  call,
  headerValue,
  transcriptLookup,
}: {
  db: Database;
  key: ApiKey;
  user: SessionUser;
  persona: Persona;
  call: ChatCall;
  headerValue: string | null;
  /** The lookup already under way, used when it was made under this persona's id. */
  transcriptLookup?: TranscriptLookup;
}): Promise<CallConversation> {
  if (headerValue !== null) {
    const conversation = await namedConversation(db, user, persona, headerValue.trim());
    if ((conversation.instructions ?? null) !== call.systemText) {
      await updateConversation({
        db,
        conversationId: conversation.id,
        changes: { instructions: call.systemText },
      });
    }
    return { conversationId: conversation.id, started: false };
  }
  const lookup =
    transcriptLookup?.personaId === persona.id
      ? transcriptLookup
      : lookUpTranscript(db, key.secretHash, persona.id, call);
  const continued = await lookup.found;
  // The key's own conversation, already read: the turn opens it from this snapshot.
  if (continued) return { conversationId: continued.conversation.id, started: false, snapshot: continued };
  const branch = await branchAtSharedReply(db, key, user, persona, call);
  if (branch) return { conversationId: branch.id, started: true };
  return { conversationId: (await startConversation(db, user, persona, call)).id, started: true };
}

/**
 * A history that equals a transcript this key's calls left behind up to some reply, then differs (an edited or
 * regenerated turn in the client): that conversation is branched at that reply, as "Branch from here" does, and
 * the rest of the history is stored in the branch. Null when no reply is shared.
 */
async function branchAtSharedReply(
  db: Database,
  key: ApiKey,
  user: SessionUser,
  persona: Persona,
  call: ChatCall,
): Promise<Conversation | null> {
  const prefixes = replyPrefixHashes(persona.id, call.systemText, call.history);
  const points = await findTranscriptPoints({
    db,
    apiKeyId: key.id,
    transcriptHashes: prefixes.map((prefix) => prefix.hash),
  });
  for (const prefix of prefixes) {
    const point = points.find((candidate) => candidate.transcriptHash === prefix.hash);
    if (!point) continue;
    const source = await getOwnedConversation({ db, conversationId: point.conversationId, userId: user.id });
    const branch = await branchConversation({
      db,
      source,
      messageId: point.messageId,
      ownerId: user.id,
    }).catch(
      // The reply is no longer on the conversation's chosen path (another variant was chosen in the app): a
      // shorter shared transcript may still be.
      (error: unknown) => {
        if (error instanceof AppError && error.code === "conflict") return null;
        throw error;
      },
    );
    if (!branch) continue;
    await storeHistory(db, user, persona, branch, call.history.slice(prefix.length));
    return branch;
  }
  return null;
}

async function namedConversation(db: Database, user: SessionUser, persona: Persona, id: string) {
  if (!isUuid(id)) {
    throw new GatewayError(400, `${CONVERSATION_HEADER}: ${JSON.stringify(id)} is not a conversation id.`, {
      code: "invalid_conversation_id",
    });
  }
  const conversation = await getOwnedConversation({
    db,
    conversationId: id.toLowerCase(),
    userId: user.id,
    refusal: "Only the conversation's owner can continue it through the gateway.",
  });
  if (conversation.personaId !== persona.id) {
    throw invalidField(
      "model",
      `conversation ${conversation.id} talks to another persona; send that persona's model id, or no ${CONVERSATION_HEADER}.`,
    );
  }
  return conversation;
}

/** A new conversation of the user with the persona, holding the call's earlier messages as they were sent. */
async function startConversation(db: Database, user: SessionUser, persona: Persona, call: ChatCall) {
  const created = await createConversation({
    db,
    ownerId: user.id,
    personaId: persona.id,
    title: DEFAULT_CONVERSATION_TITLE,
  });
  const conversation = call.systemText
    ? await updateConversation({ db, conversationId: created.id, changes: { instructions: call.systemText } })
    : created;
  await storeHistory(db, user, persona, conversation, call.history);
  return conversation;
}

/** Stores a call's earlier messages in `conversation` as they were sent: text, images, tool calls and results. */
async function storeHistory(
  db: Database,
  user: SessionUser,
  persona: Persona,
  conversation: Conversation,
  history: TranscriptMessage[],
): Promise<void> {
  let lastUserMessageId: string | null = null;
  let lastReply: { message: Message; calls: ClientToolCall[]; results: ToolResultMessage[] } | null = null;
  const storeResults = async () => {
    if (lastReply && lastReply.results.length > 0) {
      await storeHistoryResults(db, lastReply.message, lastReply.calls, lastReply.results);
    }
    lastReply = null;
  };
  for (const message of history) {
    if (message.role === "tool") {
      lastReply?.results.push({ toolCallId: message.toolCallId ?? "", text: message.text, param: "" });
      continue;
    }
    await storeResults();
    const attachmentIds = await storeContentImages({
      db,
      conversationId: conversation.id,
      userId: user.id,
      images: message.images ?? [],
    });
    const parts: StoredPart[] = [
      ...(message.text ? [{ type: "text" as const, text: message.text }] : []),
      ...attachmentIds.map((attachmentId) => ({ type: "media" as const, attachmentId })),
    ];
    const stored = await appendMessage({
      db,
      // A user message's images become its own in the same transaction, as the chat's uploads do.
      attach: attachmentIds.length > 0 ? { attachmentIds, userId: user.id } : undefined,
      message:
        message.role === "user"
          ? {
              conversationId: conversation.id,
              authorType: "user",
              authorUserId: user.id,
              authorName: user.name,
              parts,
              status: "complete",
            }
          : {
              conversationId: conversation.id,
              authorType: "persona",
              authorPersonaId: persona.id,
              authorName: persona.name,
              replyToMessageId: lastUserMessageId,
              parts,
              status: "complete",
            },
    });
    if (message.role === "user") lastUserMessageId = stored.id;
    else {
      const calls = message.toolCalls ?? [];
      lastReply = { message: await appendArtifacts(db, stored, callArtifacts(calls)), calls, results: [] };
    }
  }
  await storeResults();
}

/** The turn a reply belongs to: the key's call, its persona and conversation, and the stored reply. */
export type TranscriptTurn = {
  db: Database;
  key: ApiKey;
  persona: Persona;
  conversationId: string;
  call: ChatCall;
  /** The stored reply: where a later call that shares this transcript and then differs branches. */
  replyMessageId: string;
};

/** After a reply, the transcript the client will send back next: the call's messages and the reply's text. */
export async function rememberTranscript(
  { db, key, persona, conversationId, call, replyMessageId }: TranscriptTurn,
  replyText: string,
  /** The reply's calls of the client's tools. */
  replyToolCalls: ClientToolCall[] = [],
): Promise<void> {
  const messages: TranscriptMessage[] = [
    ...call.history,
    ...call.toolResults.map((result) => ({
      role: "tool" as const,
      toolCallId: result.toolCallId,
      text: result.text,
    })),
    ...(call.text === null ? [] : [{ role: "user" as const, text: call.text, images: call.images }]),
    { role: "assistant", text: replyText, ...(replyToolCalls.length ? { toolCalls: replyToolCalls } : {}) },
  ];
  const hash = transcriptHash(persona.id, call.systemText, messages);
  await saveTranscript({
    db,
    apiKeyId: key.id,
    conversationId,
    transcriptHash: hash,
    messageId: replyMessageId || null,
  });
}
