"use client";
// What the user does to the transcript besides stopping: send (and send again a request refused before anything was
// stored), regenerate a reply, choose one of its variants, edit a message in place (and regenerate the reply to
// it), restore an earlier version, branch into a new conversation. Each change is made on the server, then the
// stored transcript is reloaded; each turn started is noted first, so a reload already on its way cannot overwrite it.
import { useQueryClient } from "@tanstack/react-query";
import type { FileUIPart } from "ai";
import { useRouter } from "next/navigation";
import { useCallback, useMemo, useRef, useState } from "react";
import { conversationsKey, type ModelOption } from "../api";
import { branchFrom, chooseVariant, editMessage, restoreMessageVersion } from "../message-api";
import { type MessageActions, messageFiles, messageText } from "../message-parts";
import type { ConversationChat } from "./use-conversation-chat";

export function useMessageActions({
  conversationId,
  chat: { messages, setMessages, sendMessage, regenerate, clearError },
  author,
  regenerateModels,
  onCompare,
  onInspect,
  noteTurnStarted,
  reloadTranscript,
}: {
  conversationId: string;
  chat: Pick<ConversationChat, "messages" | "setMessages" | "sendMessage" | "regenerate" | "clearError">;
  /** The signed-in user, named on what they send (rooms show it). */
  author: { userId: string; userName: string };
  regenerateModels: ModelOption[];
  onCompare: MessageActions["onCompare"];
  onInspect: (messageId: string) => void;
  noteTurnStarted: () => void;
  reloadTranscript: () => Promise<void>;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  /** Bumped when the user sends: the transcript jumps back to the bottom. */
  const [pinVersion, setPinVersion] = useState(0);
  const { userId, userName } = author;
  const send = useCallback(
    (text: string, files: FileUIPart[]) => {
      clearError();
      noteTurnStarted();
      setPinVersion((version) => version + 1);
      const metadata = { authorName: userName, authorUserId: userId };
      void sendMessage(text ? { text, files, metadata } : { files, metadata });
    },
    [clearError, noteTurnStarted, sendMessage, userName, userId],
  );

  // The request was refused before anything was stored (rate limit, a lost connection): send it again.
  const retryRequest = useCallback(() => {
    const lastMessage = messages.at(-1);
    if (lastMessage?.role !== "user") return;
    const text = messageText(lastMessage);
    const files = messageFiles(lastMessage);
    setMessages(messages.slice(0, -1));
    if (text.trim() || files.length > 0) send(text, files);
  }, [messages, send, setMessages]);

  // The actions stay the same object while the transcript changes, so the memoised messages do not re-render.
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const onInspectRef = useRef(onInspect);
  onInspectRef.current = onInspect;
  const actions = useMemo<MessageActions>(
    () => ({
      onInspect: (messageId) => onInspectRef.current(messageId),
      onRegenerate: (replyId, modelId) => {
        clearError();
        noteTurnStarted();
        void regenerate({ messageId: replyId, ...(modelId ? { body: { modelId } } : {}) });
      },
      regenerateModels,
      onCompare: (replyId, modelIds) => {
        clearError();
        void onCompare(replyId, modelIds);
      },
      onChooseVariant: async (variantId) => {
        await chooseVariant(conversationId, variantId);
        await reloadTranscript();
      },
      onEdit: async (messageId, text, regenerateReply) => {
        const { message: edited } = await editMessage(conversationId, messageId, text);
        await reloadTranscript();
        // An answered question forked: the new version is the latest message, and it gets its own answer.
        if (edited.id !== messageId) {
          noteTurnStarted();
          void regenerate({ messageId: edited.id });
          return;
        }
        if (!regenerateReply) return;
        // The reply to the edited message, now the latest: a new variant answers the edited text.
        const reply = messagesRef.current.find(
          (message) => message.role === "assistant" && message.metadata?.replyToMessageId === messageId,
        );
        if (reply) {
          noteTurnStarted();
          void regenerate({ messageId: reply.id });
        }
      },
      onRestoreVersion: async (messageId, versionId) => {
        await restoreMessageVersion(conversationId, messageId, versionId);
        await reloadTranscript();
      },
      onBranch: async (messageId) => {
        const branch = await branchFrom(conversationId, messageId);
        await queryClient.invalidateQueries({ queryKey: conversationsKey });
        router.push(`/chat/${branch.id}`);
      },
    }),
    [
      clearError,
      conversationId,
      noteTurnStarted,
      onCompare,
      queryClient,
      regenerate,
      regenerateModels,
      reloadTranscript,
      router,
    ],
  );
  return { actions, send, retryRequest, pinVersion };
}
