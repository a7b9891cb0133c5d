"use client";
// The owner's per-conversation settings: who is in it (rooms), the context note (text, depth, role) and
// instructions. Saved with PATCH /api/conversations/:id; the server validates ranges and its message is shown as is.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { CancelConfirm } from "@/components/ui/cancel-confirm";
import { Dialog } from "@/components/ui/dialog";
import { ErrorMessage } from "@/components/ui/error-message";
import { PendingButton } from "@/components/ui/form-controls";
import { Labelled } from "@/components/ui/labelled";
import { type NoteRole, NoteRoleOptions } from "@/components/ui/note-role-options";
import { submitHandler } from "@/components/ui/submit-handler";
import { SETTING_HELP, type SettingsOverride } from "@/lib/domain/settings";
import { conversationKey, getConversation, turnsKey, updateConversation } from "./api";
import { ConversationPeople } from "./conversation-people";

/** The note text and the instructions: up to 4,000 characters each, as the server allows. */
function LongText({
  value,
  onChange,
  rows = 3,
  placeholder,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  rows?: number;
  placeholder: string;
  testId: string;
}) {
  return (
    <textarea
      value={value}
      onChange={(event) => onChange(event.target.value)}
      rows={rows}
      maxLength={4_000}
      placeholder={placeholder}
      className="input resize-y"
      data-testid={testId}
    />
  );
}

/** The context note as edited. The depth stays as typed: the server names a depth it refuses. */
interface NoteDraft {
  text: string;
  depth: string;
  role: NoteRole;
}

export function ConversationSettings({
  conversationId,
  open,
  onClose,
}: {
  conversationId: string;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: conversationKey(conversationId),
    queryFn: () => getConversation(conversationId),
    enabled: open,
  });
  const [note, setNote] = useState<NoteDraft>({ text: "", depth: "4", role: "user" });
  const [instructions, setInstructions] = useState("");

  const loaded = detail.data?.conversation;
  useEffect(() => {
    if (!open || !loaded) return;
    const stored = loaded.settingsOverride.contextNote ?? {};
    setNote({
      text: stored.text ?? "",
      depth: String(stored.depth ?? 4),
      role: (stored.role as NoteRole | undefined) ?? "user",
    });
    setInstructions(loaded.instructions ?? "");
  }, [open, loaded]);

  const save = useMutation({
    mutationFn: () => {
      const override: SettingsOverride = loaded?.settingsOverride ?? {};
      const depthNumber = note.depth.trim() === "" ? Number.NaN : Number(note.depth);
      return updateConversation(conversationId, {
        instructions: instructions.trim() ? instructions : null,
        settingsOverride: {
          ...override,
          contextNote: { ...override.contextNote, text: note.text, depth: depthNumber, role: note.role },
        },
      });
    },
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: conversationKey(conversationId) }),
        queryClient.invalidateQueries({ queryKey: ["preview", conversationId] }),
        queryClient.invalidateQueries({ queryKey: turnsKey(conversationId) }),
      ]);
      onClose();
    },
  });

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Conversation settings"
      testId="conversation-settings"
      className="max-w-lg"
    >
      {detail.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading…</p>}
      {detail.error && <p className="text-sm text-red-600">{detail.error.message}</p>}
      {loaded && <ConversationPeople conversationId={conversationId} />}
      {loaded && (
        <form noValidate className="mt-4 space-y-4" onSubmit={submitHandler(() => save.mutate())}>
          <ContextNoteFieldset
            note={note}
            onEdit={(edit) => setNote((current) => ({ ...current, ...edit }))}
          />
          <Labelled label="Instructions">
            <LongText
              value={instructions}
              onChange={setInstructions}
              rows={4}
              placeholder="Instructions for this conversation only, added to the system prompt."
              testId="settings-instructions"
            />
          </Labelled>
          <ErrorMessage
            message={save.error?.message}
            testId="settings-error"
            textClassName="text-sm text-red-600"
          />
          <CancelConfirm onCancel={onClose}>
            <PendingButton
              type="submit"
              pending={save.isPending}
              pendingLabel="Saving…"
              testId="settings-save"
            >
              Save
            </PendingButton>
          </CancelConfirm>
        </form>
      )}
    </Dialog>
  );
}

/** The conversation's context note: its text, and how deep and as whom it is injected. */
function ContextNoteFieldset({
  note,
  onEdit,
}: {
  note: NoteDraft;
  onEdit: (edit: Partial<NoteDraft>) => void;
}) {
  return (
    <fieldset className="space-y-3 rounded-xl border border-zinc-200 p-3 dark:border-zinc-800">
      <legend className="px-1 text-xs font-semibold">Context note</legend>
      <Labelled label="Text">
        <LongText
          value={note.text}
          onChange={(text) => onEdit({ text })}
          placeholder="e.g. Keep answers under 100 words."
          testId="settings-note-text"
        />
        <span className="mt-1 block text-[11px] text-zinc-500">
          {SETTING_HELP["contextNote.text"]} Sent as “[System: …]”.
        </span>
      </Labelled>
      <div className="grid grid-cols-2 gap-3">
        <Labelled label="Depth">
          <input
            type="number"
            min={0}
            max={1_000}
            value={note.depth}
            onChange={(event) => onEdit({ depth: event.target.value })}
            className="input"
            data-testid="settings-note-depth"
          />
        </Labelled>
        <Labelled label="Role">
          <select
            value={note.role}
            onChange={(event) => onEdit({ role: event.target.value as NoteRole })}
            className="input"
            data-testid="settings-note-role"
          >
            <NoteRoleOptions />
          </select>
        </Labelled>
      </div>
      <p className="text-[11px] text-zinc-500">{SETTING_HELP["contextNote.depth"]}</p>
    </fieldset>
  );
}
