"use client";
// Typed fetchers and query keys for the chat UI (through the one API client, components/ui/api-client.ts).
import { apiFetch } from "@/components/ui/api-client";
import type { SettingsOverride } from "@/lib/domain/settings";

export interface ConversationSummary {
  id: string;
  title: string;
  personaId: string;
  ownerId: string;
  visibility: "private" | "room";
  createdAt: string;
  updatedAt: string;
}

export interface ConversationDetail {
  conversation: {
    id: string;
    title: string;
    ownerId: string;
    personaId: string;
    isOwner: boolean;
    /** "room" once someone has been invited. */
    visibility: "private" | "room";
    instructions: string | null;
    settingsOverride: SettingsOverride;
    /** The owner's choice of model; null answers with the persona's. */
    modelId: string | null;
  };
  persona: { id: string; name: string; avatar: string | null; modelId: string };
  /** The models that may be chosen now (registered, enabled, their provider configured). */
  models: ModelOption[];
}

export interface ModelOption {
  id: string;
  label: string;
}

export interface PersonaOption {
  id: string;
  name: string;
  avatar: string | null;
  modelId: string;
}

/** Every conversation list query starts with this key, so one invalidation refreshes all searches. */
export const conversationsKey = ["conversations"] as const;
export const conversationKey = (id: string) => ["conversation", id] as const;
export const turnsKey = (id: string) => ["turns", id] as const;
export const personasKey = ["personas"] as const;

export function listConversations(query: string) {
  const search = query.trim() ? `?q=${encodeURIComponent(query.trim())}` : "";
  return apiFetch<{ conversations: ConversationSummary[] }>(`/api/conversations${search}`);
}

/** POST /api/conversations/import with an exported archive (the file's JSON). */
export function importConversation(archive: unknown) {
  return apiFetch<{ id: string; title: string; notices: string[] }>("/api/conversations/import", {
    method: "POST",
    body: archive,
  });
}

/** A stretch of a snippet; `highlight` marks the words that matched. Rendered as text, never as HTML. */
export interface SnippetSegment {
  text: string;
  highlight: boolean;
}

export interface SearchMessageHit {
  messageId: string;
  authorName: string;
  authorType: "user" | "persona";
  createdAt: string;
  snippet: SnippetSegment[];
}

export interface ConversationSearchResult extends ConversationSummary {
  titleMatch: boolean;
  hits: SearchMessageHit[];
}

/** GET /api/search: conversations whose title or messages match, under the same key prefix as the list. */
export function searchConversations(query: string) {
  return apiFetch<{ query: string; mode: "words" | "substring"; conversations: ConversationSearchResult[] }>(
    `/api/search?q=${encodeURIComponent(query.trim())}`,
  );
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
  return apiFetch<{ conversation: ConversationDetail["conversation"] }>(`/api/conversations/${id}`, {
    method: "PATCH",
    body: changes,
  });
}

export function deleteConversation(id: string) {
  return apiFetch<void>(`/api/conversations/${id}`, { method: "DELETE" });
}

export function createConversation(personaId?: string) {
  return apiFetch<{ id: string }>("/api/conversations", {
    method: "POST",
    body: personaId ? { personaId } : {},
  });
}

export function listPersonas() {
  return apiFetch<{ personas: PersonaOption[] }>("/api/personas");
}

/** A file uploaded for the next message: sent as a file part whose url is the attachment's own route. */
export interface UploadedAttachment {
  id: string;
  kind: "image" | "video" | "audio" | "file";
  mime: string;
  filename: string | null;
  url: string;
}

/** POST the file as multipart; the server sniffs its type (images, PDFs, audio, video) and refuses the rest. */
export async function uploadAttachment(conversationId: string, file: File): Promise<UploadedAttachment> {
  const form = new FormData();
  form.append("file", file);
  const body = await apiFetch<{ attachment: UploadedAttachment }>(
    `/api/conversations/${conversationId}/attachments`,
    { body: form },
  );
  return body.attachment;
}

/** A draft of the user's next message in their own voice ("Write as me"); nothing is stored. */
export function writeAsMe(conversationId: string) {
  return apiFetch<{ draft: string; modelId: string }>(`/api/conversations/${conversationId}/write-as-me`, {
    method: "POST",
  });
}

export interface Participant {
  userId: string;
  name: string;
  role: "owner" | "member";
  joinedAt: string;
}

export const participantsKey = (conversationId: string) => ["participants", conversationId] as const;

export function listParticipants(conversationId: string) {
  return apiFetch<{ participants: Participant[] }>(`/api/conversations/${conversationId}/participants`);
}

/** The owner invites an account by email; the conversation becomes a room. */
export function inviteParticipant(conversationId: string, email: string) {
  return apiFetch<{ participant: Participant }>(`/api/conversations/${conversationId}/participants`, {
    method: "POST",
    body: { email },
  });
}

export function removeParticipant(conversationId: string, userId: string) {
  return apiFetch<void>(`/api/conversations/${conversationId}/participants/${encodeURIComponent(userId)}`, {
    method: "DELETE",
  });
}
