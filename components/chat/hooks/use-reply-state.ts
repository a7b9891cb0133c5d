"use client";
// Whether a reply is being written, and stopping it. A reply this page streams is useChat's; one it does not (after
// a reload without a stream to resume, or another reader's turn in a room) is known from its stored copy, whose
// status says `streaming`: Stop works on it, and nothing new starts until it is stored (the server refuses a turn
// then too; docs/features.md, "Stop"). Stop keeps exactly the text shown, gives the focus back to the message box,
// and Escape does it from anywhere on the page.
import type { ChatStatus } from "ai";
import { type RefObject, useCallback, useEffect, useState } from "react";
import { ApiError } from "@/components/ui/api-client";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import { stopReply } from "../message-api";
import { messageText } from "../message-parts";
import { turnRunning } from "./use-conversation-chat";

export function useReplyState({
  conversationId,
  messages,
  status,
  stop,
  reloadTranscript,
  holdWhile,
  composerInput,
}: {
  conversationId: string;
  messages: ChatUIMessage[];
  status: ChatStatus;
  /** Closes the stream this page reads (useChat's stop). */
  stop: () => Promise<void> | void;
  reloadTranscript: () => Promise<void>;
  /** Holds transcript reloads and live events while the stop is on its way (useTranscriptSync). */
  holdWhile: (task: () => Promise<void>) => Promise<void>;
  composerInput: RefObject<HTMLTextAreaElement | null>;
}) {
  const busy = turnRunning(status);
  // A copy the server says is no longer written (Stop answered 409, its final write lost) does not hold the page.
  const [notWritten, setNotWritten] = useState<string | null>(null);
  const latestReply = messages.findLast((message) => message.role === "assistant");
  const replyInProgress =
    !busy && latestReply?.metadata?.status === "streaming" && latestReply.id !== notWritten;
  const replyRunning = busy || replyInProgress;

  // The request goes out first, then the stream is closed; the stored transcript is shown once the stop is stored.
  const stopNow = useCallback(async () => {
    // The Stop button goes away with the stream: the message box keeps the focus, not <body>.
    composerInput.current?.focus();
    const lastMessage = messages.at(-1);
    const shownChars = lastMessage?.role === "assistant" ? messageText(lastMessage).length : 0;
    await holdWhile(async () => {
      const stopped = stopReply(conversationId, shownChars);
      await stop();
      // 409: the reply had already ended by itself; either way the stored transcript is what counts.
      await stopped.catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 409 && lastMessage?.role === "assistant") {
          setNotWritten(lastMessage.id);
        }
      });
    });
    await reloadTranscript().catch(() => {});
  }, [composerInput, conversationId, holdWhile, messages, reloadTranscript, stop]);
  useEscapeToStop(replyRunning, stopNow, composerInput);

  const streamingMessageId = status === "streaming" || replyInProgress ? messages.at(-1)?.id : undefined;
  return { busy, replyInProgress, replyRunning, streamingMessageId, stopNow };
}

/**
 * Escape stops a reply being written, as the Stop button does; an open dialog, a drawer shown over the page
 * (components/ui/drawer.tsx) and a field with its own Escape (renaming, editing a message) keep theirs.
 */
function useEscapeToStop(
  replyRunning: boolean,
  stopNow: () => Promise<void>,
  composerInput: RefObject<HTMLTextAreaElement | null>,
) {
  useEffect(() => {
    if (!replyRunning) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (
        event.key !== "Escape" ||
        event.defaultPrevented ||
        document.querySelector('dialog[open], [role="dialog"]')
      )
        return;
      const drawerShown = [...document.querySelectorAll<HTMLElement>("[data-drawer-backdrop]")].some(
        (backdrop) => backdrop.getClientRects().length > 0,
      );
      if (drawerShown) return;
      const target = event.target as HTMLElement | null;
      const ownField = target?.matches("input, textarea, select") && target !== composerInput.current;
      if (ownField) return;
      void stopNow();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [composerInput, replyRunning, stopNow]);
}
