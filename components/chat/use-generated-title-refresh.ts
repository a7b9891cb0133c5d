"use client";
// A generated title is stored just after the first reply finishes, so the list the chat view refetches at the end
// of the turn can still show the default title. While the open conversation has the default title, the list is
// fetched again twice shortly after it changed (a turn finished); when the title arrives, the conversation's own
// query (the header) takes it from the list. Polling a couple of times costs two small requests, where holding the turn
// open until the title exists would delay every first reply's end by the title model's latency.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { type ConversationDetail, type ConversationSummary, conversationKey, conversationsKey } from "./api";

export const DEFAULT_TITLE = "New conversation";
/** After a list with the default title: fetch again this many ms later (a provider model takes a moment). */
const REFETCH_DELAYS_MS = [1_200, 4_000];

export function useGeneratedTitleRefresh(active: ConversationSummary | undefined): void {
  const queryClient = useQueryClient();
  const previousTitle = useRef<{ id: string; title: string } | null>(null);
  const id = active?.id;
  const title = active?.title;
  const updatedAt = active?.updatedAt;

  useEffect(() => {
    if (!id || title === undefined || !updatedAt) return;
    const previous = previousTitle.current;
    previousTitle.current = { id, title };
    if (previous?.id === id && previous.title === DEFAULT_TITLE && title !== DEFAULT_TITLE) {
      // The header reads the conversation's own query: given the title in place, it needs no request.
      queryClient.setQueryData<ConversationDetail>(conversationKey(id), (detail) =>
        detail ? { ...detail, conversation: { ...detail.conversation, title } } : detail,
      );
    }
    if (title !== DEFAULT_TITLE) return;
    const timers = REFETCH_DELAYS_MS.map((delay) =>
      window.setTimeout(() => void queryClient.invalidateQueries({ queryKey: conversationsKey }), delay),
    );
    return () => {
      for (const timer of timers) window.clearTimeout(timer);
    };
    // updatedAt changes when a turn has added messages: that is when a title may be on its way.
  }, [id, title, updatedAt, queryClient]);
}
