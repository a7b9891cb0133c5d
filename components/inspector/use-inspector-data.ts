"use client";
// Inspector data through TanStack Query: the conversation's turns as a light index (attempts without their
// payloads), each full attempt on demand (recorded attempts never change), and the preview's dry run. Previous
// data is kept while refetching so the gauge and the cards do not flicker.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { fetchJson, turnsKey } from "@/components/chat/api";
import type { SettingsOverride } from "@/lib/context/settings";
import type { Cost } from "@/lib/pricing";
import type { AttemptView, PreviewView, TurnSummaryView } from "./types";

interface TurnIndex {
  turns: TurnSummaryView[];
  /** The conversation's cost so far: the sum of its turns' known costs. */
  cost: Cost | null;
}

function useTurnIndex<Selected>(conversationId: string, select: (index: TurnIndex) => Selected) {
  return useQuery({
    queryKey: [...turnsKey(conversationId), "summary"],
    queryFn: () => fetchJson<TurnIndex>(`/api/conversations/${conversationId}/turns?fields=summary`),
    select,
    placeholderData: keepPreviousData,
    // A reply whose browser went away keeps generating on the server: poll until its turn ends.
    refetchInterval: (query) =>
      query.state.data?.turns.some((turn) => turn.status === "running") ? 1_500 : false,
  });
}

export function useTurnSummaries(conversationId: string) {
  return useTurnIndex(conversationId, (index) => index.turns);
}

export function useConversationCost(conversationId: string) {
  return useTurnIndex(conversationId, (index) => index.cost);
}

export function useAttempt(attemptId: string | null) {
  return useQuery({
    queryKey: ["attempt", attemptId],
    queryFn: () =>
      fetchJson<{ attempt: AttemptView }>(`/api/attempts/${attemptId}`).then((body) => body.attempt),
    enabled: attemptId !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export interface PreviewRequest {
  text: string;
  settings?: SettingsOverride;
}

export function usePreview(conversationId: string, request: PreviewRequest) {
  return useQuery({
    queryKey: ["preview", conversationId, request],
    queryFn: () =>
      fetchJson<{ preview: PreviewView }>(`/api/conversations/${conversationId}/preview`, {
        method: "POST",
        body: JSON.stringify(request),
      }).then((body) => body.preview),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
  });
}
