"use client";
// Inspector data through TanStack Query: the conversation's turns as a light index (attempts without their
// payloads), each full attempt on demand (recorded attempts never change), and the preview's dry run. Previous
// data is kept while refetching so the gauge and the cards do not flicker.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { turnsKey } from "@/components/chat/api";
import { apiFetch } from "@/components/ui/api-client";
import type { SettingsOverride } from "@/lib/context/settings";
import type { AttemptView, PreviewView, TurnSummaryView } from "./types";

export function useTurnSummaries(conversationId: string) {
  return useQuery({
    queryKey: [...turnsKey(conversationId), "summary"],
    queryFn: () =>
      apiFetch<{ turns: TurnSummaryView[] }>(
        `/api/conversations/${conversationId}/turns?fields=summary`,
      ).then((body) => body.turns),
    placeholderData: keepPreviousData,
    // A reply whose browser went away keeps generating on the server: poll until its turn ends.
    refetchInterval: (query) => (query.state.data?.some((turn) => turn.status === "running") ? 1_500 : false),
  });
}

export function useAttempt(attemptId: string | null) {
  return useQuery({
    queryKey: ["attempt", attemptId],
    queryFn: () =>
      apiFetch<{ attempt: AttemptView }>(`/api/attempts/${attemptId}`).then((body) => body.attempt),
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
      apiFetch<{ preview: PreviewView }>(`/api/conversations/${conversationId}/preview`, {
        method: "POST",
        body: request,
      }).then((body) => body.preview),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
  });
}
