"use client";
// A user message: shown as typed (with its files), who wrote it in a room, and copy, edit and branch below it.
import type { ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import { MessageFile } from "./message-file";
import { messageFiles, messageText } from "./message-parts";

export function UserMessage({
  message,
  storedId,
  showAuthor,
  editor,
  versions,
  editAndBranch,
}: {
  message: ChatUIMessage;
  storedId: string;
  showAuthor: boolean;
  /** The message editor while the message is edited, else null. */
  editor: ReactNode;
  /** The "edited" mark with the earlier versions, when there are some. */
  versions: ReactNode;
  editAndBranch: ReactNode;
}) {
  const text = messageText(message);
  const files = messageFiles(message);
  // Covered by the active summary: still shown, muted, since the model now sees it only through the summary.
  const summarized = message.metadata?.summarized === true;
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
      {editor ?? (
        <div
          data-bubble
          className="max-w-[85%] rounded-2xl rounded-br-md bg-zinc-100 px-4 py-2 text-sm leading-relaxed text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100"
        >
          {files.length > 0 && (
            <div className={`flex flex-wrap justify-end gap-1.5 ${text ? "mb-1.5" : ""}`}>
              {files.map((file) => (
                <MessageFile key={file.url} file={file} facts={message.metadata?.files?.[file.url]} />
              ))}
            </div>
          )}
          {text && (
            <p className="break-words whitespace-pre-wrap" data-testid="message-text">
              {text}
            </p>
          )}
        </div>
      )}
      {!editor && (
        <div className="mt-1 flex items-center gap-0.5 text-zinc-600 dark:text-zinc-300">
          {versions}
          <CopyButton text={text} testId="copy-message" label="Copy message" iconOnly />
          {editAndBranch}
        </div>
      )}
    </article>
  );
}
