"use client";
import { apiFetch } from "@/components/ui/api-client";
// Typed fetchers and the query key for summaries: list, compact now, edit, revert, and the transcript
// reload that shows which messages a summary now covers.
import type { ApiOutput } from "@/lib/api/responses";
import { type ChatUIMessage, toUIMessage } from "@/lib/chat/views/ui-messages";

export type SummaryList = ApiOutput<"GET /api/conversations/:id/summaries">;
export type SummaryView = SummaryList["summaries"][number];

export const summariesKey = (conversationId: string) => ["summaries", conversationId] as const;

export function listSummaries(conversationId: string) {
  return apiFetch<SummaryList>(`/api/conversations/${conversationId}/summaries`);
}

/** A summary made, or the sentence saying why there is nothing to summarise yet (an answer, not an error). */
export type CompactResult = ApiOutput<"POST /api/conversations/:id/compact">;

/** No body: the conversation's own summary.keepRecentTurns applies. */
export function compactConversation(conversationId: string) {
  return apiFetch<CompactResult>(`/api/conversations/${conversationId}/compact`, {
    method: "POST",
  });
}

export function updateSummary(conversationId: string, summaryId: string, content: string) {
  return apiFetch<ApiOutput<"PUT /api/conversations/:id/summaries/:summaryId">>(
    `/api/conversations/${conversationId}/summaries/${summaryId}`,
    {
      method: "PUT",
      body: { content },
    },
  );
}

export function revertSummary(conversationId: string, summaryId: string) {
  return apiFetch<ApiOutput<"POST /api/conversations/:id/summaries/:summaryId/revert">>(
    `/api/conversations/${conversationId}/summaries/${summaryId}/revert`,
    { method: "POST" },
  );
}

/** The stored transcript, every message of the chosen path (summarised or not), as the chat renders it. */
export async function loadTranscript(conversationId: string): Promise<ChatUIMessage[]> {
  const transcript = await apiFetch<ApiOutput<"GET /api/conversations/:id/messages">>(
    `/api/conversations/${conversationId}/messages`,
  );
  const extras = {
    media: new Map(Object.entries(transcript.media)),
    toolNames: new Map(Object.entries(transcript.toolNames)),
    reasoning: new Map(Object.entries(transcript.reasoning)),
    variants: new Map(Object.entries(transcript.variants)),
    questionVersions: new Map(Object.entries(transcript.questionVersions)),
    replyModels: new Map(Object.entries(transcript.replyModels)),
    modelView: transcript.modelView,
  };
  return transcript.messages.map((message) => toUIMessage(message, extras));
}
