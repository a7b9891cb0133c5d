"use client";
// One conversation: the transcript and the composer, streaming through useChat.
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { useMemo, useState } from "react";
import type { ChatUIMessage } from "@/lib/chat/ui-messages";
import { Composer } from "./composer";
import { MessageList } from "./message-list";

export function ChatView({
  conversationId,
  title,
  personaName,
  modelId,
  initialMessages,
}: {
  conversationId: string;
  title: string;
  personaName: string;
  modelId: string;
  initialMessages: ChatUIMessage[];
}) {
  const transport = useMemo(
    () =>
      new DefaultChatTransport<ChatUIMessage>({
        api: "/api/chat",
        // The server owns the history: send only the new message.
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => ({
          body: { id, message: messages[messages.length - 1], trigger, messageId },
        }),
      }),
    [],
  );
  const { messages, sendMessage, status, stop, error } = useChat<ChatUIMessage>({
    id: conversationId,
    messages: initialMessages,
    transport,
  });
  const [draft, setDraft] = useState("");

  return (
    <main className="flex min-h-0 flex-1 flex-col" data-testid="chat-view" data-status={status}>
      <header className="flex items-center justify-between border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
        <div className="min-w-0">
          <h1 className="truncate font-medium" data-testid="conversation-title">
            {title}
          </h1>
          <p className="text-xs text-zinc-500">
            {personaName} · <span data-testid="model-id">{modelId}</span>
            {modelId.startsWith("offline:") && " (offline model)"}
          </p>
        </div>
      </header>
      <MessageList messages={messages} personaName={personaName} status={status} />
      {error && (
        <p role="alert" className="mx-4 mb-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-200" data-testid="chat-error">
          {error.message}
        </p>
      )}
      <Composer
        value={draft}
        onChange={setDraft}
        busy={status === "submitted" || status === "streaming"}
        onStop={stop}
        onSend={() => {
          const text = draft.trim();
          if (!text) return;
          setDraft("");
          void sendMessage({ text });
        }}
      />
    </main>
  );
}
