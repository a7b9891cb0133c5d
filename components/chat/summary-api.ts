"use client";
import { apiFetch } from "@/components/ui/api-client";
// Typed fetchers and the query key for summaries: list, compact now, edit, revert, and the transcript
// reload that shows which messages a summary now covers.
import type { ReasoningView } from "@/lib/chat/reasoning-view";
import type { SummaryView } from "@/lib/chat/summary-view";
import type { ModelViewStart, ReplyModel } from "@/lib/chat/transcript";
import { type ChatUIMessage, type TranscriptMessage, toUIMessage } from "@/lib/chat/ui-messages";

export type { SummaryView };

export interface SummaryList {
  summaries: SummaryView[];
  activeSummaryId: string | null;
}

export const summariesKey = (conversationId: string) => ["summaries", conversationId] as const;

export function listSummaries(conversationId: string) {
  return apiFetch<SummaryList>(`/api/conversations/${conversationId}/summaries`);
}

/** No body: the conversation's own summary.keepRecentTurns applies. */
/** A summary made, or the sentence saying why there is nothing to summarise yet (an answer, not an error). */
export type CompactResult = { compacted: true; summary: SummaryView } | { compacted: false; reason: string };

export function compactConversation(conversationId: string) {
  return apiFetch<CompactResult>(`/api/conversations/${conversationId}/compact`, {
    method: "POST",
  });
}

export function updateSummary(conversationId: string, summaryId: string, content: string) {
  return apiFetch<{ summary: SummaryView }>(`/api/conversations/${conversationId}/summaries/${summaryId}`, {
    method: "PUT",
    body: { content },
  });
}

export function revertSummary(conversationId: string, summaryId: string) {
  return apiFetch<{ reverted: SummaryView; restored: SummaryView | null; unmarkedMessages: number }>(
    `/api/conversations/${conversationId}/summaries/${summaryId}/revert`,
    { method: "POST" },
  );
}

/** The stored transcript, every message of the chosen path (summarised or not), as the chat renders it. */
export async function loadTranscript(conversationId: string): Promise<ChatUIMessage[]> {
  const transcript = await apiFetch<{
    messages: TranscriptMessage[];
    media: Record<string, { mime: string; filename: string | null }>;
    toolNames: Record<string, string[]>;
    reasoning: Record<string, ReasoningView>;
    variants: Record<string, { id: string }[]>;
    questionVersions: Record<string, string[]>;
    replyModels: Record<string, ReplyModel>;
    modelView: ModelViewStart | null;
  }>(`/api/conversations/${conversationId}/messages`);
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
