// Helpers shared by the reply-*.test.ts files: the routes for stop, regenerate, transcript, message edits and
// branches called in-process, and what the fake provider received, read as the provider would (OpenAI chat).
import * as chatRoute from "@/app/api/chat/route";
import * as branchRoute from "@/app/api/conversations/[id]/branch/route";
import * as messageRoute from "@/app/api/conversations/[id]/messages/[messageId]/route";
import * as messagesRoute from "@/app/api/conversations/[id]/messages/route";
import * as stopRoute from "@/app/api/conversations/[id]/stop/route";
import type { Message } from "@/db/schema";
import type { FakeProviders } from "@/e2e/fake-providers/server";
import type { RecordedRequest } from "@/e2e/fake-providers/types";
import { SUMMARISER_PROMPT_PREFIX } from "@/lib/context/summary-plan";
import { call, readUIStream, type TestUser } from "../api-client";
import { fakeProvidersAndUsersForFile } from "../fixtures/file-setup";
import { createConversation, insertPersona } from "../fixtures/personas";
import { runTurn, streamedText } from "../fixtures/turns";

export function stop(user: TestUser, conversationId: string, body?: unknown): Promise<Response> {
  return call(stopRoute.POST, `/api/conversations/${conversationId}/stop`, {
    user,
    method: "POST",
    params: { id: conversationId },
    body,
  });
}

export function postRegenerate(user: TestUser, conversationId: string, messageId: string): Promise<Response> {
  return call(chatRoute.POST, "/api/chat", {
    user,
    body: { id: conversationId, trigger: "regenerate-message", messageId },
  });
}

/** A conversation of `user` with a fresh persona on the fake OpenAI model (then `fallbackModelIds`). */
export async function conversationOnFakeOpenAI(user: TestUser, fallbackModelIds: string[] = []) {
  const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini", fallbackModelIds });
  return createConversation(user, persona);
}

/**
 * The set-up of a reply test file: the fake providers and the named users (fakeProvidersAndUsersForFile), and
 * `newConversation`, a conversation of the first-named user's on the fake OpenAI model.
 */
export function replyTestFile<const Name extends string>(owner: Name, ...others: Name[]) {
  const file = fakeProvidersAndUsersForFile(owner, ...others);
  const ownerUser: TestUser = file[owner.toLowerCase() as Lowercase<Name>];
  const newConversation = (fallbackModelIds: string[] = []) =>
    conversationOnFakeOpenAI(ownerUser, fallbackModelIds);
  return { ...file, newConversation };
}

/** Regenerates the reply and reads the new variant's stream to its end. */
export async function regenerate(user: TestUser, conversationId: string, messageId: string) {
  const response = await postRegenerate(user, conversationId, messageId);
  if (response.status !== 200)
    throw new Error(`regenerate failed: ${response.status} ${await response.text()}`);
  const chunks = await readUIStream(response);
  return { chunks, text: streamedText(chunks) };
}

/** POST /api/chat with a message id the test chooses (to send the same one twice). */
export function postChatWithId(user: TestUser, conversationId: string, text: string, messageId: string) {
  return call(chatRoute.POST, "/api/chat", {
    user,
    body: {
      id: conversationId,
      message: { id: messageId, role: "user", parts: [{ type: "text", text }] },
      trigger: "submit-message",
    },
  });
}

export interface TranscriptView {
  messages: Array<Omit<Message, "createdAt" | "updatedAt" | "editedAt"> & { editedAt: string | null }>;
  variants: Record<string, Array<{ id: string; status: string; chosen: boolean }>>;
  questionVersions: Record<string, string[]>;
  replyModels: Record<string, { modelId: string; fallbackFromModelId: string | null }>;
  modelView: {
    firstMessageId: string;
    hiddenCount: number;
    reasons: Array<{ kind: string; text: string }>;
  } | null;
}

export async function transcript(user: TestUser, conversationId: string): Promise<TranscriptView> {
  const response = await call(messagesRoute.GET, `/api/conversations/${conversationId}/messages`, {
    user,
    params: { id: conversationId },
  });
  if (response.status !== 200)
    throw new Error(`transcript failed: ${response.status} ${await response.text()}`);
  return response.json();
}

export function patchMessage(
  user: TestUser,
  conversationId: string,
  messageId: string,
  body: unknown,
): Promise<Response> {
  return call(messageRoute.PATCH, `/api/conversations/${conversationId}/messages/${messageId}`, {
    user,
    method: "PATCH",
    params: { id: conversationId, messageId },
    body,
  });
}

export function getMessage(user: TestUser, conversationId: string, messageId: string): Promise<Response> {
  return call(messageRoute.GET, `/api/conversations/${conversationId}/messages/${messageId}`, {
    user,
    params: { id: conversationId, messageId },
  });
}

export function branch(user: TestUser, conversationId: string, messageId: string): Promise<Response> {
  return call(branchRoute.POST, `/api/conversations/${conversationId}/branch`, {
    user,
    method: "POST",
    params: { id: conversationId },
    body: { messageId },
  });
}

/** The chat history of an OpenAI chat-completions body: [role, text] per message, system messages left out. */
export function wireHistory(request: RecordedRequest | string): Array<[string, string]> {
  const body = JSON.parse(typeof request === "string" ? request : request.body) as {
    messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> | null }>;
  };
  return body.messages
    .filter((message) => message.role !== "system")
    .map((message) => [
      message.role,
      typeof message.content === "string"
        ? message.content
        : (message.content ?? [])
            .filter((part) => part.type === "text")
            .map((part) => part.text ?? "")
            .join("\n"),
    ]);
}

/** How often `needle` occurs in `haystack` (a request body's raw bytes). */
export function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** The requests the fake provider got for chat turns (a summariser's request is told apart by its prompt). */
export function chatRequests(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((request) => request.protocol === "openai-chat" && !isSummariserRequest(request));
}

function isSummariserRequest(request: RecordedRequest): boolean {
  return request.body.includes(JSON.stringify(SUMMARISER_PROMPT_PREFIX).slice(1, -1));
}

/** Runs a turn of `user` and returns the history the fake provider was sent for it, as wireHistory reads it. */
export async function historySentForTurn(
  providers: FakeProviders,
  user: TestUser,
  conversationId: string,
  text: string,
) {
  providers.reset();
  await runTurn(user, conversationId, text);
  return wireHistory(providers.requests[0]);
}
