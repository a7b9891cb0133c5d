"use client";
// Typed fetchers and query keys for the chat UI (through the one API client, components/ui/api-client.ts).
import { apiFetch } from "@/components/ui/api-client";
import type { ApiOutput } from "@/lib/api/responses";
import type { SettingsOverride } from "@/lib/domain/settings";

/** A response of the API as the browser receives it, by route (lib/api/responses.ts). */
type Conversations = ApiOutput<"GET /api/conversations">;
export type ConversationSummary = Conversations["conversations"][number];
export type ConversationDetail = ApiOutput<"GET /api/conversations/:id">;
export type ModelOption = ConversationDetail["models"][number];
export type PersonaOption = ApiOutput<"GET /api/personas">["personas"][number];

/** Every conversation list query starts with this key, so one invalidation refreshes all searches. */
export const conversationsKey = ["conversations"] as const;
export const conversationKey = (id: string) => ["conversation", id] as const;
export const turnsKey = (id: string) => ["turns", id] as const;
export const personasKey = ["personas"] as const;

export function listConversations(query: string) {
  const search = query.trim() ? `?q=${encodeURIComponent(query.trim())}` : "";
  return apiFetch<Conversations>(`/api/conversations${search}`);
}

/** POST /api/conversations/import with an exported archive (the file's JSON). */
export function importConversation(archive: unknown) {
  return apiFetch<ApiOutput<"POST /api/conversations/import">>("/api/conversations/import", {
    method: "POST",
    body: archive,
  });
}

export type ConversationSearch = ApiOutput<"GET /api/search">;
export type ConversationSearchResult = ConversationSearch["conversations"][number];
export type SearchMessageHit = ConversationSearchResult["hits"][number];
/** A stretch of a snippet; `highlight` marks the words that matched. Rendered as text, never as HTML. */
export type SnippetSegment = SearchMessageHit["snippet"][number];

/** GET /api/search: conversations whose title or messages match, under the same key prefix as the list. */
export function searchConversations(query: string) {
  return apiFetch<ConversationSearch>(`/api/search?q=${encodeURIComponent(query.trim())}`);
}

export function getConversation(id: string) {
  return apiFetch<ConversationDetail>(`/api/conversations/${id}`);
}

export function updateConversation(
  id: string,
  changes: {
    title?: string;
    instructions?: string | null;
    settingsOverride?: SettingsOverride;
    modelId?: string | null;
  },
) {
  return apiFetch<ApiOutput<"PATCH /api/conversations/:id">>(`/api/conversations/${id}`, {
    method: "PATCH",
    body: changes,
  });
}

export function deleteConversation(id: string) {
  return apiFetch<void>(`/api/conversations/${id}`, { method: "DELETE" });
}

export function createConversation(personaId?: string) {
  return apiFetch<ApiOutput<"POST /api/conversations">>("/api/conversations", {
    method: "POST",
    body: personaId ? { personaId } : {},
  });
}

export function listPersonas() {
  return apiFetch<ApiOutput<"GET /api/personas">>("/api/personas");
}

/** A file uploaded for the next message: sent as a file part whose url is the attachment's own route. */
export type UploadedAttachment = ApiOutput<"POST /api/conversations/:id/attachments">["attachment"];

/** POST the file as multipart; the server sniffs its type (images, PDFs, audio, video) and refuses the rest. */
export async function uploadAttachment(conversationId: string, file: File): Promise<UploadedAttachment> {
  const form = new FormData();
  form.append("file", file);
  const body = await apiFetch<ApiOutput<"POST /api/conversations/:id/attachments">>(
    `/api/conversations/${conversationId}/attachments`,
    { body: form },
  );
  return body.attachment;
}

/** A draft of the user's next message in their own voice ("Write as me"); nothing is stored. */
export function writeAsMe(conversationId: string) {
  return apiFetch<ApiOutput<"POST /api/conversations/:id/write-as-me">>(
    `/api/conversations/${conversationId}/write-as-me`,
    {
      method: "POST",
    },
  );
}

type Participants = ApiOutput<"GET /api/conversations/:id/participants">;
export type Participant = Participants["participants"][number];

export const participantsKey = (conversationId: string) => ["participants", conversationId] as const;

export function listParticipants(conversationId: string) {
  return apiFetch<Participants>(`/api/conversations/${conversationId}/participants`);
}

/** The owner invites an account by email; the conversation becomes a room. */
export function inviteParticipant(conversationId: string, email: string) {
  return apiFetch<ApiOutput<"POST /api/conversations/:id/participants">>(
    `/api/conversations/${conversationId}/participants`,
    {
      method: "POST",
      body: { email },
    },
  );
}

export function removeParticipant(conversationId: string, userId: string) {
  return apiFetch<void>(`/api/conversations/${conversationId}/participants/${encodeURIComponent(userId)}`, {
    method: "DELETE",
  });
}
