"use client";
// "Compact now": summarise the older turns whatever summary.mode says (POST /compact). Progress shows on the
// button; "nothing to summarise yet" (a 200 with compacted: false) is shown right under it as information, a 422
// (the summariser failed, nothing changed) as an error, each with the server's own sentence.
import { useMutation } from "@tanstack/react-query";
import { AlertIcon, CloseIcon, CompactIcon } from "@/components/ui/icons";
import { compactConversation, type SummaryView } from "./summary-api";

export function SummaryCompactButton({
  conversationId,
  disabled,
  onCompacted,
}: {
  conversationId: string;
  /** While a reply streams: the summary would race the turn that is being stored. */
  disabled: boolean;
  onCompacted: (summary: SummaryView) => void | Promise<void>;
}) {
  const compact = useMutation({
    mutationFn: () => compactConversation(conversationId),
    onSuccess: (result) => (result.compacted ? onCompacted(result.summary) : undefined),
  });
  const pending = compact.isPending;
  const note = compact.data && !compact.data.compacted && !pending ? compact.data.reason : null;
  return (
    <div className="relative">
      <button
        type="button"
        onClick={() => compact.mutate()}
        disabled={disabled || pending}
        className="button-ghost-sm h-8"
        data-testid="compact-now"
        data-state={pending ? "pending" : compact.isError ? "error" : "idle"}
        aria-busy={pending}
        aria-label={pending ? "Summarising…" : "Compact now"}
        title="Summarise the older turns now: the model then sees them only as a summary, which also becomes your memory unless you turned that off in Settings → Memories"
      >
        {pending ? (
          <span
            className="size-3.5 animate-spin rounded-full border-2 border-current border-t-transparent"
            aria-hidden="true"
          />
        ) : (
          <CompactIcon />
        )}
        <span className="hidden sm:inline">{pending ? "Summarising…" : "Compact now"}</span>
      </button>
      {note && (
        <div
          role="status"
          className="absolute top-full right-0 z-30 mt-2 flex w-72 items-start max-sm:fixed max-sm:top-14 max-sm:right-2 max-sm:left-2 max-sm:w-auto gap-2 rounded-lg border border-zinc-200 bg-white px-3 py-2 text-xs text-zinc-700 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200"
          data-testid="compact-note"
        >
          <p className="min-w-0 flex-1 break-words" data-testid="compact-note-message">
            {note}
          </p>
          <button
            type="button"
            onClick={() => compact.reset()}
            className="-mt-0.5 -mr-1 shrink-0 rounded p-0.5 hover:bg-zinc-100 dark:hover:bg-zinc-800"
            aria-label="Dismiss"
            data-testid="compact-note-dismiss"
          >
            <CloseIcon size={12} />
          </button>
        </div>
      )}
      {compact.error && !pending && (
        <div
          role="alert"
          className="absolute top-full right-0 z-30 mt-2 flex w-72 items-start max-sm:fixed max-sm:top-14 max-sm:right-2 max-sm:left-2 max-sm:w-auto gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-xs text-red-800 shadow-lg dark:border-red-900/60 dark:bg-red-950 dark:text-red-200"
          data-testid="compact-error"
        >
          <AlertIcon size={14} className="mt-0.5 shrink-0" />
          <p className="min-w-0 flex-1 break-words" data-testid="compact-error-message">
            {compact.error.message}
          </p>
          <button
            type="button"
            onClick={() => compact.reset()}
            className="-mt-0.5 -mr-1 shrink-0 rounded p-0.5 hover:bg-red-100 dark:hover:bg-red-900"
            aria-label="Dismiss"
            data-testid="compact-error-dismiss"
          >
            <CloseIcon size={12} />
          </button>
        </div>
      )}
    </div>
  );
}
