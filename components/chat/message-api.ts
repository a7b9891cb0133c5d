"use client";
// Typed fetchers for what a user does to a reply or a message besides sending: stop, choose a variant, edit in
// place (with earlier versions), and branch from it.
import { apiFetch } from "@/components/ui/api-client";
import type { ApiOutput } from "@/lib/api/responses";

/** Stop the reply being written; the server keeps the first `shownChars` characters (what the user saw). */
export function stopReply(conversationId: string, shownChars: number) {
  return apiFetch<ApiOutput<"POST /api/conversations/:id/stop">>(
    `/api/conversations/${conversationId}/stop`,
    { method: "POST", body: { shownChars } },
  );
}

type MessageWithVersions = ApiOutput<"GET /api/conversations/:id/messages/:messageId">;
export type MessageVersion = MessageWithVersions["versions"][number];

function messageUrl(conversationId: string, messageId: string) {
  return `/api/conversations/${conversationId}/messages/${messageId}`;
}

function changeMessage(conversationId: string, messageId: string, change: Record<string, unknown>) {
  // `message.id` differs from `messageId` when an edit forked an answered question: it names the new version.
  return apiFetch<ApiOutput<"PATCH /api/conversations/:id/messages/:messageId">>(
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
  return apiFetch<MessageWithVersions>(messageUrl(conversationId, messageId));
}

export function branchFrom(conversationId: string, messageId: string) {
  return apiFetch<ApiOutput<"POST /api/conversations/:id/branch">>(
    `/api/conversations/${conversationId}/branch`,
    {
      method: "POST",
      body: { messageId },
    },
  );
}

/** The text of a stored version, as the transcript shows it. */
export function versionText(version: MessageVersion): string {
  return version.parts.flatMap((part) => (part.type === "text" && part.text ? [part.text] : [])).join("\n");
}
