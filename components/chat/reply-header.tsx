"use client";
// The line above a reply: who answered, whether it broke off or was stopped, the model, and a fallback.
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";

export function ReplyHeader({
  message,
  personaName,
  streaming,
}: {
  message: ChatUIMessage;
  personaName: string;
  streaming: boolean;
}) {
  const status = message.metadata?.status;
  const author = message.metadata?.authorName ?? personaName;
  return (
    <div className="mb-1 flex items-center gap-2 text-xs">
      <span className="flex size-5 items-center justify-center rounded-full bg-indigo-700 text-[10px] font-semibold text-white">
        {author.slice(0, 1).toUpperCase()}
      </span>
      <span className="font-medium text-zinc-700 dark:text-zinc-300">{author}</span>
      {status === "interrupted" && (
        <span
          className="chip bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200"
          data-testid="interrupted-chip"
          title="The reply broke off before it was finished: this is what was stored"
        >
          interrupted
        </span>
      )}
      {status === "stopped" && !streaming && (
        <span
          className="chip bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200"
          data-testid="stopped-chip"
          title="You stopped this reply: the model will see the text shown here"
        >
          stopped
        </span>
      )}
      {message.metadata?.modelId && (
        <span className="font-mono text-zinc-500 dark:text-zinc-400" data-testid="reply-model">
          {message.metadata.modelId}
        </span>
      )}
      {message.metadata?.fallbackFromModelId && (
        <span
          className="chip bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200"
          data-testid="reply-fallback"
          title="The first model failed: inspect the reply to see each attempt"
        >
          fell back from {message.metadata.fallbackFromModelId}
        </span>
      )}
    </div>
  );
}

/** Under a reply's text: the tools it called, a retry it waits for, the streaming dots, or that it failed. */
export function ReplyProgress({ message, streaming }: { message: ChatUIMessage; streaming: boolean }) {
  const toolNames = message.metadata?.toolNames ?? [];
  const retryProgress = message.metadata?.retryProgress;
  return (
    <>
      {toolNames.length > 0 && (
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-300" data-testid="message-tools">
          Used{" "}
          {toolNames.map((name, index) => (
            <span key={name}>
              {index > 0 && ", "}
              <code className="font-mono">{name}</code>
            </span>
          ))}
          {" · "}inspect to see the calls and their outputs
        </p>
      )}
      {streaming && retryProgress && (
        <p
          className="mt-1 text-xs text-zinc-600 dark:text-zinc-300"
          role="status"
          data-testid="retry-progress"
        >
          {retryProgress}
        </p>
      )}
      {streaming && !retryProgress && (
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
    </>
  );
}
