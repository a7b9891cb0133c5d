"use client";
// Typed fetchers for what a user does to a reply or a message besides sending: stop, choose a variant, edit in
// place (with earlier versions), and branch from it.
import { apiFetch } from "@/components/ui/api-client";

/** Stop the reply being written; the server keeps the first `shownChars` characters (what the user saw). */
export function stopReply(conversationId: string, shownChars: number) {
  return apiFetch<{ turnId: string; messageId: string | null; status: string }>(
    `/api/conversations/${conversationId}/stop`,
    { method: "POST", body: { shownChars } },
  );
}

export interface MessageVersion {
  id: string;
  parts: { type: string; text?: string }[];
  createdAt: string;
}

function messageUrl(conversationId: string, messageId: string) {
  return `/api/conversations/${conversationId}/messages/${messageId}`;
}

function changeMessage(conversationId: string, messageId: string, change: Record<string, unknown>) {
  // `message.id` differs from `messageId` when an edit forked an answered question: it names the new version.
  return apiFetch<{ message: { id: string }; versions: MessageVersion[] }>(
    messageUrl(conversationId, messageId),
    {
      method: "PATCH",
      body: change,
    },
  );
}

export function chooseVariant(conversationId: string, messageId: string) {
  return changeMessage(conversationId, messageId, { chosen: true });
}

export function editMessage(conversationId: string, messageId: string, text: string) {
  return changeMessage(conversationId, messageId, { text });
}

export function restoreMessageVersion(conversationId: string, messageId: string, versionId: string) {
  return changeMessage(conversationId, messageId, { restoreVersionId: versionId });
}

export function listMessageVersions(conversationId: string, messageId: string) {
  return apiFetch<{ versions: MessageVersion[] }>(messageUrl(conversationId, messageId));
}

export function branchFrom(conversationId: string, messageId: string) {
  return apiFetch<{ id: string; title: string }>(`/api/conversations/${conversationId}/branch`, {
    method: "POST",
    body: { messageId },
  });
}

/** The text of a stored version, as the transcript shows it. */
export function versionText(version: MessageVersion): string {
  return version.parts.flatMap((part) => (part.type === "text" && part.text ? [part.text] : [])).join("\n");
}
