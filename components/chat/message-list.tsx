"use client";
// The transcript: messages, a divider where the summary takes over, the in-place error with a retry, and a
// "jump to latest" pill when the reader has scrolled up.
import type { ChatStatus } from "ai";
import { Fragment, useEffect, useMemo } from "react";
import { useStickToBottom } from "use-stick-to-bottom";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import { isUuid } from "@/lib/ids";
import { describeChatError } from "./chat-errors";
import { MessageItem } from "./message-item";
import type { MessageActions } from "./message-parts";
import { ModelViewDivider } from "./model-view-divider";
import { SummaryDivider } from "./summary-divider";
import { JumpToLatest, RequestError, WaitingForReply } from "./transcript-notices";

/**
 * The stored id of each message. A user message sent in this session has a client id; the reply that follows it
 * names the stored one: the streamed reply as `userMessageId`, its stored copy (a live event, a reload) as
 * `replyToMessageId`. The inspector's source links use stored ids, and the transcript keys each message by it, so
 * the id must not flip back to the client's when the streamed reply is swapped for its stored copy: that would
 * remount the message and drop an edit the user just opened.
 */
export function storedIds(messages: ChatUIMessage[]): string[] {
  return messages.map((message, index) => {
    const next = messages[index + 1];
    if (message.role !== "user" || isUuid(message.id) || next?.role !== "assistant") return message.id;
    return next.metadata?.userMessageId ?? next.metadata?.replyToMessageId ?? message.id;
  });
}

export function MessageList({
  messages,
  conversationId,
  userId,
  isOwner,
  personaName,
  showAuthors = false,
  status,
  replyInProgress = false,
  error,
  inspectedMessageId,
  actions,
  onRetryRequest,
  pinVersion,
  onViewSummary,
}: {
  messages: ChatUIMessage[];
  conversationId: string;
  /** The reader: they edit their own messages. */
  userId: string;
  /** The owner also edits the persona's replies. */
  isOwner: boolean;
  personaName: string;
  /** A room: user messages show who wrote them. */
  showAuthors?: boolean;
  status: ChatStatus;
  /** A reply this page does not stream is being written (its stored copy says `streaming`). */
  replyInProgress?: boolean;
  error: Error | undefined;
  inspectedMessageId: string | null;
  actions: MessageActions;
  /** Send the last message again after the request itself was refused (nothing was stored). */
  onRetryRequest: () => void;
  /** Bumped when the user sends: the view jumps back to the bottom. */
  pinVersion: number;
  /** Opens the summary panel from the divider. */
  onViewSummary?: () => void;
}) {
  const last = messages.at(-1);
  // New content keeps the view at the bottom only while the reader is there: scrolling up lets go (and shows the
  // "jump to latest" pill), coming back down or sending holds it again. Growth is followed at once, not animated,
  // so a streaming reply never lags below the fold; the content's own resizing (the inspector opening and
  // narrowing the transcript) is followed the same way.
  const { scrollRef, contentRef, isAtBottom, scrollToBottom } = useStickToBottom({
    initial: "instant",
    resize: "instant",
  });
  // Sending a message brings the reader back to the bottom.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the user sends
  useEffect(() => {
    if (pinVersion > 0) void scrollToBottom("instant");
  }, [pinVersion]);
  const ids = useMemo(() => storedIds(messages), [messages]);
  const busy = status === "submitted" || status === "streaming";
  // The latest reply is being written, streamed here or not: its controls and the others' wait until it is stored.
  const replyRunning = busy || replyInProgress;
  const lastAssistantIndex = messages.findLastIndex((message) => message.role === "assistant");
  const lastUserIndex = messages.findLastIndex((message) => message.role === "user");
  const lastSummarizedIndex = messages.findLastIndex((message) => message.metadata?.summarized);
  // A failed reply offers Retry in place; the banner is for a request refused before anything was stored.
  const chatError = error ? describeChatError(error) : null;
  const replyFailedInPlace = last?.role === "assistant" && !busy;

  return (
    <div className="relative min-h-0 flex-1">
      <div ref={scrollRef} className="h-full overflow-y-auto" data-testid="message-list">
        <div ref={contentRef} className="mx-auto max-w-3xl space-y-6 px-4 py-6">
          {messages.length === 0 && (
            <p
              className="pt-16 text-center text-sm text-zinc-500 dark:text-zinc-400"
              data-testid="empty-transcript"
            >
              Say hello to {personaName}. Each reply can be inspected down to the bytes that were sent.
            </p>
          )}
          {messages.map((message, index) => {
            const stored = isUuid(ids[index]);
            const mine = message.role === "user" && message.metadata?.authorUserId === userId;
            return (
              <Fragment key={ids[index]}>
                {message.metadata?.modelViewStart && (
                  <ModelViewDivider beforeMessageId={ids[index]} start={message.metadata.modelViewStart} />
                )}
                <MessageItem
                  message={message}
                  storedId={ids[index]}
                  conversationId={conversationId}
                  personaName={personaName}
                  showAuthor={showAuthors}
                  streaming={replyRunning && index === messages.length - 1 && message.role === "assistant"}
                  inspected={inspectedMessageId === ids[index]}
                  canRegenerate={
                    !replyRunning && stored && index === lastAssistantIndex && index === messages.length - 1
                  }
                  canEdit={!replyRunning && stored && (mine || (message.role === "assistant" && isOwner))}
                  canBranch={!replyRunning && stored}
                  isLatestUserMessage={index === lastUserIndex}
                  actions={actions}
                />
                {index === lastSummarizedIndex && index < messages.length - 1 && (
                  <SummaryDivider afterMessageId={ids[index]} onViewSummary={onViewSummary} />
                )}
              </Fragment>
            );
          })}
          {status === "submitted" && <WaitingForReply />}
          {chatError && !busy && !(replyFailedInPlace && chatError.code === null) && (
            <RequestError error={chatError} onRetry={onRetryRequest} />
          )}
        </div>
      </div>
      {!isAtBottom && <JumpToLatest onClick={() => void scrollToBottom()} streaming={busy} />}
    </div>
  );
}
