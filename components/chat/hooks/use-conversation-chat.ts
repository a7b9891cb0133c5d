"use client";
// The conversation's useChat, wired to this app's routes: the server owns the history (a request carries only the
// new message), a reply still being written when the page loads is reconnected to (`resume`, when the server can
// resume streams), and a finished turn refreshes what it changed.
import { useChat } from "@ai-sdk/react";
import { useQueryClient } from "@tanstack/react-query";
import { type ChatStatus, DefaultChatTransport } from "ai";
import { useMemo, useRef } from "react";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import { conversationsKey, turnsKey } from "../api";
import { summariesKey } from "../summary-api";

/** This page's own turn is under way: the request is out or its reply is streaming. */
export function turnRunning(status: ChatStatus): boolean {
  return status === "submitted" || status === "streaming";
}

export function useConversationChat({
  conversationId,
  initialMessages,
  resumeStream,
  onTurnFinished,
}: {
  conversationId: string;
  initialMessages: ChatUIMessage[];
  /** The server can resume a reply that is still streaming: reconnect to it on load. */
  resumeStream: boolean;
  /** A turn ended by itself (not stopped): the stored transcript replaces the streamed one. */
  onTurnFinished: () => void;
}) {
  const queryClient = useQueryClient();
  const transport = useMemo(
    () =>
      new DefaultChatTransport<ChatUIMessage>({
        api: "/api/chat",
        // A regenerate may name the model that answers it (body.modelId, "Regenerate with…").
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId, body }) => ({
          body: { id, message: messages[messages.length - 1], trigger, messageId, modelId: body?.modelId },
        }),
        prepareReconnectToStreamRequest: ({ id }) => ({ api: `/api/chat/${id}/stream` }),
      }),
    [],
  );
  const onTurnFinishedRef = useRef(onTurnFinished);
  onTurnFinishedRef.current = onTurnFinished;
  return useChat<ChatUIMessage>({
    id: conversationId,
    messages: initialMessages,
    transport,
    resume: resumeStream,
    onFinish: ({ isAbort }) => {
      // The turn's attempts are recorded by now: refresh the inspector, the preview and the list order.
      void queryClient.invalidateQueries({ queryKey: turnsKey(conversationId) });
      void queryClient.invalidateQueries({ queryKey: ["preview", conversationId] });
      void queryClient.invalidateQueries({ queryKey: conversationsKey });
      // The turn may have summarised older messages (token or turn mode): the transcript follows them.
      void queryClient.invalidateQueries({ queryKey: summariesKey(conversationId) });
      // A stop reloads once the server has stored what the user saw (useReplyState's stop).
      if (!isAbort) onTurnFinishedRef.current();
    },
  });
}

export type ConversationChat = ReturnType<typeof useConversationChat>;
