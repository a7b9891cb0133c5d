"use client";
// Inspector data through TanStack Query: the conversation's turns as a light index (attempts without their
// payloads), each full attempt on demand (recorded attempts never change), and the preview's dry run. Previous
// data is kept while refetching so the gauge and the cards do not flicker.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { turnsKey } from "@/components/chat/api";
import { apiFetch } from "@/components/ui/api-client";
import type { SettingsOverride } from "@/lib/domain/settings";
import type { Cost } from "@/lib/pricing";
import type { AttemptSummaryView, AttemptView, PreviewView, TurnSummaryView } from "./types";

/** The light index of a conversation's model calls: its turns' attempts, the calls that answer no turn, the cost. */
interface CallIndex {
  turns: TurnSummaryView[];
  otherCalls: AttemptSummaryView[];
  /** The conversation's cost so far: the sum of every call's known cost. */
  cost: Cost | null;
}

function useCallIndex<Selected>(conversationId: string, select: (index: CallIndex) => Selected) {
  return useQuery({
    queryKey: [...turnsKey(conversationId), "summary"],
    queryFn: () => apiFetch<CallIndex>(`/api/conversations/${conversationId}/turns?fields=summary`),
    select,
    placeholderData: keepPreviousData,
    // A reply whose browser went away keeps generating on the server: poll until its turn ends.
    refetchInterval: (query) =>
      query.state.data?.turns.some((turn) => turn.status === "running") ? 1_500 : false,
  });
}

const selectTurns = (index: CallIndex) => index.turns;
const selectOtherCalls = (index: CallIndex) => index.otherCalls;
const selectCost = (index: CallIndex) => index.cost;

export function useTurnSummaries(conversationId: string) {
  return useCallIndex(conversationId, selectTurns);
}

/** Summaries, titles and write-as-me drafts of the conversation, oldest first. */
export function useOtherModelCalls(conversationId: string) {
  return useCallIndex(conversationId, selectOtherCalls);
}

export function useConversationCost(conversationId: string) {
  return useCallIndex(conversationId, selectCost);
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
