"use client";
// A reply: who answered and how it ended, its reasoning, its text as markdown, its progress while written, and
// its actions once stored. A failed reply says so once and offers Retry.
import type { ReactNode } from "react";
import { AlertIcon } from "@/components/ui/icons";
import { Markdown } from "./markdown/markdown";
import { messageText } from "./message-parts";
import { ReplyActions, type ReplyActionsProps } from "./reply-actions";
import { ReplyHeader, ReplyProgress } from "./reply-header";
import { ThoughtBlock } from "./thought-block";

export function AssistantMessage({
  personaName,
  streaming,
  editor,
  versions,
  editAndBranch,
  ...reply
}: ReplyActionsProps & {
  personaName: string;
  streaming: boolean;
  /** The message editor while the reply is edited, else null. */
  editor: ReactNode;
  versions: ReactNode;
  editAndBranch: ReactNode;
}) {
  const { message, storedId, inspected } = reply;
  const text = messageText(message);
  const status = message.metadata?.status;
  const summarized = message.metadata?.summarized === true;
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
      <ReplyHeader message={message} personaName={personaName} streaming={streaming} />
      <div
        data-bubble
        className={`rounded-xl pl-7 ${inspected ? "relative before:absolute before:inset-y-0 before:left-2 before:w-0.5 before:rounded before:bg-indigo-500" : ""}`}
      >
        {message.metadata?.reasoning && <ThoughtBlock reasoning={message.metadata.reasoning} />}
        {editor ?? (
          <div data-testid="message-text">
            {text ? (
              <Markdown text={text} />
            ) : streaming || failed ? null : (
              <p className="text-sm text-zinc-600 italic dark:text-zinc-300">
                {status === "stopped" ? "(stopped before any text)" : "(empty reply)"}
              </p>
            )}
          </div>
        )}
        <ReplyProgress message={message} streaming={streaming} />
        {failed && !streaming && (
          <p
            className="mt-1 flex items-center gap-1.5 text-sm text-red-700 dark:text-red-300"
            data-testid="message-failed"
          >
            <AlertIcon size={14} /> This reply failed. Inspect it to see each attempt and its error.
          </p>
        )}
        {!streaming && !editor && (
          <ReplyActions {...reply}>
            {editAndBranch}
            {versions}
          </ReplyActions>
        )}
      </div>
    </article>
  );
}
