"use client";
// The active summary: what the model sees in place of the older messages. The owner or an admin can edit its text
// (the next payload's SUMMARY item says the new text) or revert it (the previous summary, or none, comes back).
import { useMutation } from "@tanstack/react-query";
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

export function SummaryActive({
  conversationId,
  summary,
  previous,
  messages,
  canManage,
  onEdited,
  onReverted,
}: {
  conversationId: string;
  summary: SummaryView;
  /** The summary this one replaced (restored by a revert), if any. */
  previous: SummaryView | null;
  messages: readonly ChatUIMessage[];
  canManage: boolean;
  onEdited: () => Promise<void>;
  /** Called with the summary the revert made active again (null when none is). */
  onReverted: (restoredSummaryId: string | null) => Promise<void>;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(summary.content);
  const [confirmingRevert, setConfirmingRevert] = useState(false);

  const save = useMutation({
    mutationFn: () => updateSummary(conversationId, summary.id, draft),
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
  const unchanged = draft.trim() === summary.content.trim();
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
        <SummaryEditForm
          draft={draft}
          onDraft={setDraft}
          onSave={() => save.mutate()}
          saving={save.isPending}
          error={save.error?.message}
          unchanged={unchanged}
          onCancel={stopEditing}
        />
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
              setDraft(summary.content);
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
        <RevertConfirmation
          previous={previous}
          onConfirm={() => revert.mutate()}
          reverting={revert.isPending}
          error={revert.error?.message}
          onCancel={stopConfirming}
        />
      )}
    </section>
  );
}

/** The summary text in a box, saved as the SUMMARY item the next payload sends. */
function SummaryEditForm({
  draft,
  onDraft,
  onSave,
  saving,
  error,
  unchanged,
  onCancel,
}: {
  draft: string;
  onDraft: (draft: string) => void;
  onSave: () => void;
  saving: boolean;
  error: string | undefined;
  unchanged: boolean;
  onCancel: () => void;
}) {
  return (
    <form noValidate className="space-y-2" onSubmit={submitHandler(onSave)}>
      <label className="label-text" htmlFor="summary-textarea">
        Summary text (sent to the model as the SUMMARY item)
      </label>
      <textarea
        id="summary-textarea"
        value={draft}
        onChange={(event) => onDraft(event.target.value)}
        rows={10}
        className="input font-mono text-xs leading-5"
        data-testid="summary-textarea"
        // biome-ignore lint/a11y/noAutofocus: the user just asked to edit this text
        autoFocus
      />
      <ErrorMessage
        message={error}
        testId="summary-save-error"
        textClassName="text-sm text-red-600 dark:text-red-400"
      />
      <CancelConfirm onCancel={onCancel} cancelTestId="summary-cancel-edit">
        <PendingButton
          type="submit"
          className="button-primary py-1.5"
          pending={saving}
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
  onConfirm,
  reverting,
  error,
  onCancel,
}: {
  previous: SummaryView | null;
  onConfirm: () => void;
  reverting: boolean;
  error: string | undefined;
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
        message={error}
        testId="summary-revert-error"
        textClassName="mt-1 text-xs text-red-700 dark:text-red-300"
      />
      <CancelConfirm
        className="mt-2 flex justify-end gap-2"
        onCancel={onCancel}
        cancelTestId="summary-revert-cancel"
      >
        <PendingButton
          className="button-danger"
          onClick={onConfirm}
          pending={reverting}
          pendingLabel="Reverting…"
          testId="summary-revert-confirm"
        >
          Revert
        </PendingButton>
      </CancelConfirm>
    </div>
  );
}
