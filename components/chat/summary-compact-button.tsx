"use client";
// "Compact now": summarise the older turns whatever summary.mode says (POST /compact). Progress shows on the
// button; "nothing to summarise yet" (a 200 with compacted: false) is shown right under it as information, a 422
// (the summariser failed, nothing changed) as an error, each with the server's own sentence.
import { useMutation } from "@tanstack/react-query";
import type { ReactNode } from "react";
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
        <CompactNote tone="info" testId="compact-note" onDismiss={() => compact.reset()}>
          {note}
        </CompactNote>
      )}
      {compact.error && !pending && (
        <CompactNote tone="error" testId="compact-error" onDismiss={() => compact.reset()}>
          {compact.error.message}
        </CompactNote>
      )}
    </div>
  );
}

const NOTE_TONES = {
  info: {
    role: "status",
    box: "border-zinc-200 bg-white text-zinc-700 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200",
    dismiss: "hover:bg-zinc-100 dark:hover:bg-zinc-800",
  },
  error: {
    role: "alert",
    box: "border-red-200 bg-red-50 text-red-800 dark:border-red-900/60 dark:bg-red-950 dark:text-red-200",
    dismiss: "hover:bg-red-100 dark:hover:bg-red-900",
  },
} as const;

/** The server's sentence under the button, as information or as an error (with an alert icon), until dismissed.
 *  Its parts are `testId`, `testId-message` and `testId-dismiss`. */
function CompactNote({
  tone,
  testId,
  onDismiss,
  children,
}: {
  tone: keyof typeof NOTE_TONES;
  testId: string;
  onDismiss: () => void;
  children: ReactNode;
}) {
  const style = NOTE_TONES[tone];
  return (
    <div
      role={style.role}
      className={`absolute top-full right-0 z-30 mt-2 flex w-72 items-start max-sm:fixed max-sm:top-14 max-sm:right-2 max-sm:left-2 max-sm:w-auto gap-2 rounded-lg border px-3 py-2 text-xs shadow-lg ${style.box}`}
      data-testid={testId}
    >
      {tone === "error" && <AlertIcon size={14} className="mt-0.5 shrink-0" />}
      <p className="min-w-0 flex-1 break-words" data-testid={`${testId}-message`}>
        {children}
      </p>
      <button
        type="button"
        onClick={onDismiss}
        className={`-mt-0.5 -mr-1 shrink-0 rounded p-0.5 ${style.dismiss}`}
        aria-label="Dismiss"
        data-testid={`${testId}-dismiss`}
      >
        <CloseIcon size={12} />
      </button>
    </div>
  );
}
