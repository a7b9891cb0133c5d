"use client";
// Keeps the shown transcript (useChat's messages) in step with the stored one: reloaded after a turn, when the
// active summary changes (its marks say what the summary covers) and when live events ask for it; messages that
// arrive live go in place (useLiveConversation). A reload never puts an older transcript over a newer one: a
// result that comes back after the next turn started, while a turn streams or while a stop is on its way is dropped.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { ChatStatus } from "ai";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import { turnsKey } from "../api";
import { listSummaries, loadTranscript, type SummaryList, summariesKey } from "../summary-api";
import { useLiveConversation } from "../use-live-conversation";
import { turnRunning } from "./use-conversation-chat";

export function useTranscriptSync({
  conversationId,
  initialEventId,
  initialSummaries,
  status,
  setMessages,
}: {
  conversationId: string;
  /** The conversation's last live event when the transcript was read: live updates start after it. */
  initialEventId: number;
  initialSummaries: SummaryList;
  status: ChatStatus;
  setMessages: (update: ChatUIMessage[] | ((messages: ChatUIMessage[]) => ChatUIMessage[])) => void;
}) {
  const queryClient = useQueryClient();
  const activeSummaryId =
    useQuery({
      queryKey: summariesKey(conversationId),
      queryFn: () => listSummaries(conversationId),
      initialData: initialSummaries,
      staleTime: 30_000,
    }).data.activeSummaryId ?? null;
  /** The active summary the shown transcript's marks belong to. */
  const transcriptSummaryId = useRef(activeSummaryId);
  const statusRef = useRef(status);
  statusRef.current = status;
  // While a stop is on its way the stored reply is still the streaming one: a reload then would show an older text
  // than the user saw. Reloads are dropped and live events wait until the stop is stored (holdWhile).
  const holding = useRef(false);
  const [held, setHeld] = useState(false);
  /** Bumped whenever a turn starts (send, regenerate), before useChat's status says so. */
  const turnsStarted = useRef(0);

  const syncTranscript = useCallback(
    async (summaryId: string | null) => {
      transcriptSummaryId.current = summaryId;
      const startedBefore = turnsStarted.current;
      const loaded = await loadTranscript(conversationId);
      if (turnRunning(statusRef.current) || holding.current || turnsStarted.current !== startedBefore) return;
      setMessages(loaded);
    },
    [conversationId, setMessages],
  );
  const busy = turnRunning(status);
  useEffect(() => {
    // Never swap the messages under a streaming reply: this runs again when the turn is over.
    if (busy || activeSummaryId === transcriptSummaryId.current) return;
    // A failed reload keeps the transcript as it was: the marks are only a display aid, and a reload fixes them.
    syncTranscript(activeSummaryId).catch(() => {});
  }, [activeSummaryId, busy, syncTranscript]);

  const reloadTranscript = useCallback(async () => {
    await syncTranscript(transcriptSummaryId.current);
    void queryClient.invalidateQueries({ queryKey: turnsKey(conversationId) });
    void queryClient.invalidateQueries({ queryKey: ["preview", conversationId] });
  }, [conversationId, queryClient, syncTranscript]);
  const refreshSummaries = useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: summariesKey(conversationId) }),
      queryClient.invalidateQueries({ queryKey: ["preview", conversationId] }),
    ]);
  }, [conversationId, queryClient]);
  /** A summary was made or restored: show its marks, then refresh what depends on it. */
  const showSummary = useCallback(
    async (summaryId: string | null) => {
      await syncTranscript(summaryId);
      await refreshSummaries();
    },
    [refreshSummaries, syncTranscript],
  );
  const noteTurnStarted = useCallback(() => {
    turnsStarted.current++;
  }, []);
  const holdWhile = useCallback(async (task: () => Promise<void>) => {
    holding.current = true;
    setHeld(true);
    try {
      await task();
    } finally {
      holding.current = false;
      setHeld(false);
    }
  }, []);
  const live = useLiveConversation({
    conversationId,
    initialEventId,
    busy: busy || held,
    setMessages,
    reloadTranscript,
  });
  return { live, reloadTranscript, refreshSummaries, showSummary, noteTurnStarted, holdWhile };
}
