"use client";
import type { ChatStatus } from "ai";
import { useEffect, useRef } from "react";
import type { ChatUIMessage } from "@/lib/chat/ui-messages";

export function MessageList({
  messages,
  personaName,
  status,
}: {
  messages: ChatUIMessage[];
  personaName: string;
  status: ChatStatus;
}) {
  const endRef = useRef<HTMLDivElement>(null);
  const lastText = messages.at(-1)?.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
  useEffect(() => {
    endRef.current?.scrollIntoView({ block: "end" });
  }, [messages.length, lastText]);

  return (
    <div className="min-h-0 flex-1 overflow-y-auto" data-testid="message-list">
      <div className="mx-auto max-w-3xl space-y-4 p-4">
        {messages.map((message) => {
          const text = message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
          const isAssistant = message.role === "assistant";
          return (
            <article
              key={message.id}
              data-testid="message"
              data-role={message.role}
              data-message-id={message.id}
              className={isAssistant ? "" : "flex justify-end"}
            >
              <div
                className={
                  isAssistant
                    ? "max-w-full"
                    : "max-w-[85%] rounded-2xl bg-indigo-600 px-4 py-2 text-white"
                }
              >
                {isAssistant && <p className="mb-1 text-xs font-medium text-zinc-500">{message.metadata?.authorName ?? personaName}</p>}
                <p className="whitespace-pre-wrap break-words text-sm leading-relaxed" data-testid="message-text">
                  {text}
                </p>
                {message.metadata?.status === "interrupted" && <p className="mt-1 text-xs text-amber-600">Interrupted</p>}
              </div>
            </article>
          );
        })}
        {status === "submitted" && <p className="text-sm text-zinc-500" data-testid="thinking">…</p>}
        <div ref={endRef} />
      </div>
    </div>
  );
}
