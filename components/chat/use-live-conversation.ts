"use client";
// Follows a conversation as it happens (docs/features.md, "Live rooms"): one EventSource on
// /api/conversations/:id/events, resumed from the last event id after any break. Messages go into the transcript
// as they are stored (a reply as it streams); while this page's own turn streams they wait, and the transcript is
// reloaded when it ends. Typing notices are kept for a few seconds; the people list is refetched when it changes.
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import { type LiveEvent, TYPING_REPEAT_MS, TYPING_SHOWN_MS } from "@/lib/live/events";
import { conversationKey, conversationsKey, participantsKey } from "./api";
import { applyLiveMessage } from "./live-messages";

/** Waits before reopening a stream the server refused or ended with an error, doubling up to the last. */
const REOPEN_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

export interface Typist {
  userId: string;
  name: string;
  until: number;
}

export function useLiveConversation({
  conversationId,
  initialEventId,
  busy,
  setMessages,
  reloadTranscript,
}: {
  conversationId: string;
  /** The last event id when the page's transcript was read: the stream starts right after it. */
  initialEventId: number;
  /** This page's own turn is streaming: messages wait until it is over. */
  busy: boolean;
  setMessages: (update: (messages: ChatUIMessage[]) => ChatUIMessage[]) => void;
  reloadTranscript: () => Promise<void>;
}): { typists: Typist[]; connected: boolean; noteTyping: () => void } {
  const queryClient = useQueryClient();
  const [typists, setTypists] = useState<Typist[]>([]);
  const [connected, setConnected] = useState(false);
  const lastEventId = useRef(initialEventId);
  const busyRef = useRef(busy);
  busyRef.current = busy;
  const setMessagesRef = useRef(setMessages);
  setMessagesRef.current = setMessages;
  const reloadRef = useRef(reloadTranscript);
  reloadRef.current = reloadTranscript;

  // One reload at a time; anything that arrives during one asks for another, so an older snapshot never wins.
  const reloading = useRef(false);
  const reloadAgain = useRef(false);
  const waitingForTurn = useRef(false);
  const reload = useCallback(async () => {
    if (reloading.current) {
      reloadAgain.current = true;
      return;
    }
    reloading.current = true;
    try {
      do {
        reloadAgain.current = false;
        await reloadRef.current().catch(() => {});
      } while (reloadAgain.current);
    } finally {
      reloading.current = false;
    }
  }, []);

  useEffect(() => {
    if (!busy && waitingForTurn.current) {
      waitingForTurn.current = false;
      void reload();
    }
  }, [busy, reload]);

  useEffect(() => {
    const apply = (event: LiveEvent) => {
      if (event.type === "typing") {
        const until = Date.now() + TYPING_SHOWN_MS;
        setTypists((current) => [
          ...current.filter((typist) => typist.userId !== event.userId),
          { userId: event.userId, name: event.name, until },
        ]);
        return;
      }
      if (event.type === "members") {
        for (const queryKey of [
          participantsKey(conversationId),
          conversationKey(conversationId),
          conversationsKey,
        ])
          void queryClient.invalidateQueries({ queryKey });
        return;
      }
      if (busyRef.current) {
        waitingForTurn.current = true;
        return;
      }
      if (event.type !== "message") {
        if (event.type === "resync")
          void queryClient.invalidateQueries({ queryKey: participantsKey(conversationId) });
        void reload();
        return;
      }
      const author = event.message.metadata?.authorUserId;
      if (author) setTypists((current) => current.filter((typist) => typist.userId !== author));
      let changed = false;
      setMessagesRef.current((messages) => {
        const next = applyLiveMessage(messages, event.message, event.clientMessageId);
        changed = next !== messages;
        return next;
      });
      if (reloading.current) reloadAgain.current = true;
      // A finished reply: the stored transcript adds what a single message cannot say (its variants, its tools).
      const status = event.message.metadata?.status;
      if (changed && event.message.role === "assistant" && status !== "streaming") void reload();
    };

    let source: EventSource | null = null;
    let reopenTimer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;
    const open = () => {
      source = new EventSource(`/api/conversations/${conversationId}/events?after=${lastEventId.current}`);
      source.onopen = () => {
        failures = 0;
        setConnected(true);
      };
      source.onmessage = (message: MessageEvent<string>) => {
        if (message.lastEventId) lastEventId.current = Number(message.lastEventId);
        try {
          apply(JSON.parse(message.data) as LiveEvent);
        } catch {
          // a malformed event is skipped; the next reload shows the truth
        }
      };
      source.onerror = () => {
        setConnected(false);
        // The browser reconnects by itself after a dropped connection; after a refusal it gives up, so we retry.
        if (stopped || source?.readyState !== EventSource.CLOSED) return;
        const delay = REOPEN_DELAYS_MS[Math.min(failures++, REOPEN_DELAYS_MS.length - 1)];
        reopenTimer = setTimeout(open, delay);
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(reopenTimer);
      source?.close();
    };
  }, [conversationId, queryClient, reload]);

  // Typing notices fade on their own.
  useEffect(() => {
    if (typists.length === 0) return;
    const soonest = Math.min(...typists.map((typist) => typist.until));
    const timer = setTimeout(
      () => setTypists((current) => current.filter((typist) => typist.until > Date.now())),
      Math.max(0, soonest - Date.now()) + 50,
    );
    return () => clearTimeout(timer);
  }, [typists]);

  const lastTypingSent = useRef(0);
  const noteTyping = useCallback(() => {
    const now = Date.now();
    if (now - lastTypingSent.current < TYPING_REPEAT_MS) return;
    lastTypingSent.current = now;
    void fetch(`/api/conversations/${conversationId}/typing`, { method: "POST" }).catch(() => {});
  }, [conversationId]);

  return { typists, connected, noteTyping };
}
