"use client";
// The active summary: what the model sees in place of the older messages. The owner or an admin can edit its text
// (the next payload's SUMMARY item says the new text) or revert it (the previous summary, or none, comes back).
import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { CancelConfirm } from "@/components/ui/cancel-confirm";
import { ErrorMessage } from "@/components/ui/error-message";
import { PendingButton } from "@/components/ui/form-controls";
import { PencilIcon, RefreshIcon } from "@/components/ui/icons";
import { submitHandler } from "@/components/ui/submit-handler";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import { revertSummary, type SummaryView, updateSummary } from "./summary-api";
import { SummaryFacts } from "./summary-facts";
import { SummaryMemoryNote } from "./summary-memory-note";

/** The conversation whose summaries the panel shows, as the panel and its active summary both need it. */
export interface SummaryConversation {
  conversationId: string;
  messages: readonly ChatUIMessage[];
  canManage: boolean;
  onEdited: () => Promise<void>;
  /** Called with the summary the revert made active again (null when none is). */
  onReverted: (restoredSummaryId: string | null) => Promise<void>;
}

/** A summary call as the form and the question below use it: run it, whether it runs, and its refusal. */
type SummaryAction<Input> = Pick<UseMutationResult<unknown, Error, Input>, "mutate" | "isPending" | "error">;

export function SummaryActive({
  summary,
  previous,
  conversationId,
  messages,
  canManage,
  onEdited,
  onReverted,
}: SummaryConversation & {
  summary: SummaryView;
  /** The summary this one replaced (restored by a revert), if any. */
  previous: SummaryView | null;
}) {
  const [editing, setEditing] = useState(false);
  const [confirmingRevert, setConfirmingRevert] = useState(false);

  const save = useMutation({
    mutationFn: (content: string) => updateSummary(conversationId, summary.id, content),
    onSuccess: async () => {
      await onEdited();
      setEditing(false);
    },
  });
  const revert = useMutation({
    mutationFn: () => revertSummary(conversationId, summary.id),
    onSuccess: async ({ restored }) => {
      await onReverted(restored?.id ?? null);
    },
  });
  // Cancelling also forgets the refusal, so the form or the question opens clean next time.
  const stopEditing = () => {
    setEditing(false);
    save.reset();
  };
  const stopConfirming = () => {
    setConfirmingRevert(false);
    revert.reset();
  };

  return (
    <section className="space-y-3" data-testid="summary-active" data-summary-id={summary.id}>
      <SummaryFacts summary={summary} messages={messages} />
      <SummaryMemoryNote summaryId={summary.id} conversationId={conversationId} />
      {editing ? (
        <SummaryEditForm original={summary.content} save={save} onCancel={stopEditing} />
      ) : (
        <div
          className="max-h-80 overflow-y-auto rounded-lg border border-amber-200 bg-amber-50/60 px-3 py-2 text-sm leading-relaxed whitespace-pre-wrap text-zinc-800 dark:border-amber-900/60 dark:bg-amber-950/20 dark:text-zinc-200"
          data-testid="summary-content"
        >
          {summary.content}
        </div>
      )}
      {canManage && !editing && (
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            className="button-secondary"
            onClick={() => {
              setConfirmingRevert(false);
              setEditing(true);
            }}
            data-testid="summary-edit"
          >
            <PencilIcon size={14} />
            Edit
          </button>
          <button
            type="button"
            className="button-secondary"
            onClick={() => setConfirmingRevert(true)}
            disabled={confirmingRevert}
            data-testid="summary-revert"
          >
            <RefreshIcon size={14} />
            Revert
          </button>
        </div>
      )}
      {confirmingRevert && (
        <RevertConfirmation previous={previous} revert={revert} onCancel={stopConfirming} />
      )}
    </section>
  );
}

/** The summary text in a box, saved as the SUMMARY item the next payload sends. */
function SummaryEditForm({
  original,
  save,
  onCancel,
}: {
  original: string;
  save: SummaryAction<string>;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(original);
  const unchanged = draft.trim() === original.trim();
  return (
    <form noValidate className="space-y-2" onSubmit={submitHandler(() => save.mutate(draft))}>
      <label className="label-text" htmlFor="summary-textarea">
        Summary text (sent to the model as the SUMMARY item)
      </label>
      <textarea
        id="summary-textarea"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        rows={10}
        className="input font-mono text-xs leading-5"
        data-testid="summary-textarea"
        // biome-ignore lint/a11y/noAutofocus: the user just asked to edit this text
        autoFocus
      />
      <ErrorMessage
        message={save.error?.message}
        testId="summary-save-error"
        textClassName="text-sm text-red-600 dark:text-red-400"
      />
      <CancelConfirm onCancel={onCancel} cancelTestId="summary-cancel-edit">
        <PendingButton
          type="submit"
          className="button-primary py-1.5"
          pending={save.isPending}
          pendingLabel="Saving…"
          disabled={unchanged}
          testId="summary-save"
        >
          Save
        </PendingButton>
      </CancelConfirm>
    </form>
  );
}

/** The question before a revert, saying what the model will see instead. */
function RevertConfirmation({
  previous,
  revert,
  onCancel,
}: {
  previous: SummaryView | null;
  revert: SummaryAction<void>;
  onCancel: () => void;
}) {
  return (
    <div
      role="alertdialog"
      aria-labelledby="summary-revert-question"
      className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-100"
      data-testid="summary-revert-confirmation"
    >
      <p id="summary-revert-question" className="font-medium">
        Revert this summary?
      </p>
      <p className="mt-0.5 text-xs" data-testid="summary-revert-consequence">
        {previous
          ? `The previous summary (${previous.messageCount} ${previous.messageCount === 1 ? "message" : "messages"}, through #${previous.coversThroughSeq}) becomes active again; the messages after it are sent verbatim.`
          : "No summary will be active: the model sees the messages it covered verbatim again."}
      </p>
      <ErrorMessage
        message={revert.error?.message}
        testId="summary-revert-error"
        textClassName="mt-1 text-xs text-red-700 dark:text-red-300"
      />
      <CancelConfirm className="mt-2" onCancel={onCancel} cancelTestId="summary-revert-cancel">
        <PendingButton
          className="button-danger"
          onClick={() => revert.mutate()}
          pending={revert.isPending}
          pendingLabel="Reverting…"
          testId="summary-revert-confirm"
        >
          Revert
        </PendingButton>
      </CancelConfirm>
    </div>
  );
}
