"use client";
import type { FileUIPart } from "ai";
// One message in the transcript. Assistant replies render as markdown with their actions (copy, inspect the
// payload, regenerate the last one); user messages are shown as typed.
import { memo } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { AlertIcon, InspectIcon, RefreshIcon } from "@/components/ui/icons";
import type { ChatUIMessage } from "@/lib/chat/ui-messages";
import { Markdown } from "./markdown/markdown";

export function messageText(message: ChatUIMessage): string {
  return message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** The images a message carries (uploaded attachments, as file parts). */
export function messageFiles(message: ChatUIMessage): FileUIPart[] {
  return message.parts.filter((part): part is FileUIPart => part.type === "file");
}

export const MessageItem = memo(function MessageItem({
  message,
  storedId,
  personaName,
  showAuthor = false,
  streaming,
  stopped,
  inspected,
  canRegenerate,
  onInspect,
  onRegenerate,
}: {
  message: ChatUIMessage;
  /** The id the server stored it under (differs from the client id for a just-sent user message). */
  storedId: string;
  personaName: string;
  /** Show who wrote a user message (rooms, where several people write). */
  showAuthor?: boolean;
  streaming: boolean;
  stopped: boolean;
  inspected: boolean;
  canRegenerate: boolean;
  onInspect: (messageId: string) => void;
  onRegenerate: () => void;
}) {
  const text = messageText(message);
  const files = messageFiles(message);
  const status = message.metadata?.status;
  // Covered by the active summary: still shown, muted, since the model now sees it only through the summary.
  const summarized = message.metadata?.summarized === true;

  if (message.role === "user") {
    return (
      <article
        className={`group flex flex-col items-end ${summarized ? "opacity-60 transition-opacity hover:opacity-100" : ""}`}
        data-testid="message"
        data-role="user"
        data-message-id={storedId}
        data-summarized={summarized || undefined}
      >
        {showAuthor && message.metadata?.authorName && (
          <span
            className="mb-1 text-xs font-medium text-zinc-600 dark:text-zinc-400"
            data-testid="message-author"
          >
            {message.metadata.authorName}
          </span>
        )}
        <div
          data-bubble
          className="max-w-[85%] rounded-2xl rounded-br-md bg-zinc-100 px-4 py-2 text-sm leading-relaxed text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100"
        >
          {files.length > 0 && (
            <div className={`flex flex-wrap justify-end gap-1.5 ${text ? "mb-1.5" : ""}`}>
              {files.map((file) => (
                <a
                  key={file.url}
                  href={file.url}
                  target="_blank"
                  rel="noreferrer"
                  data-testid="message-image"
                >
                  {/* biome-ignore lint/performance/noImgElement: a private attachment route, not a static asset */}
                  <img
                    src={file.url}
                    alt={file.filename ?? "attached image"}
                    className="max-h-60 min-h-16 w-auto max-w-full rounded-lg border border-zinc-200 object-contain dark:border-zinc-700"
                  />
                </a>
              ))}
            </div>
          )}
          {text && (
            <p className="break-words whitespace-pre-wrap" data-testid="message-text">
              {text}
            </p>
          )}
        </div>
        <div className="mt-1 flex opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100 max-md:opacity-100">
          <CopyButton text={text} testId="copy-message" label="Copy message" iconOnly />
        </div>
      </article>
    );
  }

  const failed = status === "error";
  return (
    <article
      className={`group ${summarized ? "opacity-60 transition-opacity hover:opacity-100" : ""}`}
      data-testid="message"
      data-role="assistant"
      data-message-id={storedId}
      data-summarized={summarized || undefined}
      data-status={streaming ? "streaming" : (status ?? "complete")}
      data-inspected={inspected || undefined}
    >
      <div className="mb-1 flex items-center gap-2 text-xs">
        <span className="flex size-5 items-center justify-center rounded-full bg-indigo-600 text-[10px] font-semibold text-white">
          {(message.metadata?.authorName ?? personaName).slice(0, 1).toUpperCase()}
        </span>
        <span className="font-medium text-zinc-700 dark:text-zinc-300">
          {message.metadata?.authorName ?? personaName}
        </span>
        {status === "interrupted" && (
          <span className="chip bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200">
            interrupted
          </span>
        )}
        {stopped && !streaming && (
          <span
            className="chip bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300"
            data-testid="stopped-chip"
            title="The server still finishes and stores the reply: reload to see all of it."
          >
            stopped
          </span>
        )}
      </div>
      <div
        data-bubble
        className={`rounded-xl pl-7 ${inspected ? "relative before:absolute before:inset-y-0 before:left-2 before:w-0.5 before:rounded before:bg-indigo-500" : ""}`}
      >
        <div data-testid="message-text">
          {text ? (
            <Markdown text={text} />
          ) : streaming ? null : (
            !failed && <p className="text-sm text-zinc-400 italic">(empty reply)</p>
          )}
        </div>
        {(message.metadata?.toolNames?.length ?? 0) > 0 && (
          <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400" data-testid="message-tools">
            Used{" "}
            {message.metadata?.toolNames?.map((name, index) => (
              <span key={name}>
                {index > 0 && ", "}
                <code className="font-mono">{name}</code>
              </span>
            ))}
            {" · "}inspect to see the calls and their outputs
          </p>
        )}
        {streaming && (
          <span
            className="mt-1 inline-flex gap-1"
            role="status"
            aria-label="Streaming"
            data-testid="streaming-indicator"
          >
            <span className="size-1.5 animate-pulse-dot rounded-full bg-zinc-400" />
            <span className="size-1.5 animate-pulse-dot rounded-full bg-zinc-400 [animation-delay:150ms]" />
            <span className="size-1.5 animate-pulse-dot rounded-full bg-zinc-400 [animation-delay:300ms]" />
          </span>
        )}
        {failed && (
          <p
            className="mt-1 flex items-center gap-1.5 text-sm text-red-700 dark:text-red-300"
            data-testid="message-failed"
          >
            <AlertIcon size={14} /> This reply failed. Inspect it to see each attempt and its error.
          </p>
        )}
        {!streaming && (
          <div className="mt-1.5 -ml-2 flex flex-wrap items-center gap-0.5 text-zinc-500 opacity-70 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100 max-md:opacity-100">
            {text && <CopyButton text={text} testId="copy-message" />}
            <button
              type="button"
              className={`button-ghost-sm ${inspected ? "bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300" : ""}`}
              onClick={() => onInspect(storedId)}
              data-testid="inspect-button"
              aria-pressed={inspected}
            >
              <InspectIcon />
              Inspect
            </button>
            {canRegenerate && (
              <button
                type="button"
                className="button-ghost-sm"
                onClick={onRegenerate}
                data-testid="regenerate-button"
                title="Send your last message again as a new turn"
              >
                <RefreshIcon />
                Regenerate
              </button>
            )}
          </div>
        )}
      </div>
    </article>
  );
});
