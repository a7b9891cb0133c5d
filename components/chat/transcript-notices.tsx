"use client";
// What the transcript shows besides its messages: the dots while the request waits, the error of a request refused
// before anything was stored (with Retry when sending again can help), and the pill back to the latest message.
import { AlertIcon, ArrowDownIcon, RefreshIcon } from "@/components/ui/icons";
import type { ChatErrorView } from "./chat-errors";

export function WaitingForReply() {
  return (
    <div className="flex gap-1 pl-7" data-testid="thinking" role="status" aria-label="Waiting for the reply">
      <span className="size-1.5 animate-pulse-dot rounded-full bg-zinc-400" />
      <span className="size-1.5 animate-pulse-dot rounded-full bg-zinc-400 [animation-delay:150ms]" />
      <span className="size-1.5 animate-pulse-dot rounded-full bg-zinc-400 [animation-delay:300ms]" />
    </div>
  );
}

export function RequestError({ error, onRetry }: { error: ChatErrorView; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex items-start gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-200"
      data-testid="chat-error"
    >
      <AlertIcon className="mt-0.5 shrink-0" />
      <div className="min-w-0 flex-1">
        <p className="font-medium">{error.title}</p>
        <p className="mt-0.5 break-words text-red-700 dark:text-red-300" data-testid="chat-error-message">
          {error.message}
        </p>
      </div>
      {error.retryable && (
        <button
          type="button"
          onClick={onRetry}
          className="button-secondary shrink-0"
          data-testid="retry-button"
        >
          <RefreshIcon />
          Retry
        </button>
      )}
    </div>
  );
}

export function JumpToLatest({ onClick, streaming }: { onClick: () => void; streaming: boolean }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="absolute bottom-3 left-1/2 inline-flex -translate-x-1/2 items-center gap-1.5 rounded-full border border-zinc-200 bg-white/95 px-3 py-1.5 text-xs font-medium text-zinc-700 shadow-md backdrop-blur hover:bg-white dark:border-zinc-700 dark:bg-zinc-900/95 dark:text-zinc-200"
      data-testid="jump-to-latest"
    >
      <ArrowDownIcon size={14} />
      {streaming ? "New text below" : "Jump to latest"}
    </button>
  );
}
