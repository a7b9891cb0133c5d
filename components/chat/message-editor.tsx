"use client";
// Editing a message in place: the text in a box, Save (and, for the latest message of the user, Save and
// regenerate), Cancel or Escape. The server keeps the version it replaces.
import { useEffect, useRef, useState } from "react";
import { ActionButtons } from "@/components/ui/action-buttons";
import { CancelConfirm } from "@/components/ui/cancel-confirm";
import { ErrorMessage } from "@/components/ui/error-message";

export function MessageEditor({
  initialText,
  offerRegenerate,
  onSave,
  onCancel,
}: {
  initialText: string;
  /** The latest message of the user: offer to regenerate the reply to the edited text at once. */
  offerRegenerate: boolean;
  onSave: (text: string, regenerate: boolean) => Promise<void>;
  onCancel: () => void;
}) {
  const [text, setText] = useState(initialText);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    box.current?.focus();
    box.current?.setSelectionRange(initialText.length, initialText.length);
  }, [initialText]);
  const save = async (regenerate: boolean) => {
    setSaving(true);
    setError(null);
    try {
      await onSave(text.trim(), regenerate);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setSaving(false);
    }
  };
  const unchanged = text.trim() === initialText.trim();
  return (
    <div className="w-full max-w-[85%] space-y-2" data-testid="message-editor">
      <textarea
        ref={box}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") onCancel();
          if (event.key === "Enter" && (event.metaKey || event.ctrlKey) && !unchanged) void save(false);
        }}
        rows={Math.min(12, Math.max(3, text.split("\n").length + 1))}
        aria-label="Edit the message"
        className="w-full rounded-xl border border-zinc-300 bg-white px-3 py-2 text-sm leading-relaxed text-zinc-900 focus:border-indigo-500 focus:outline-none dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100"
        data-testid="message-editor-text"
      />
      <ErrorMessage message={error} testId="message-editor-error" />
      <CancelConfirm className="flex-wrap" onCancel={onCancel} cancelDisabled={saving}>
        <ActionButtons
          className="button-secondary"
          actions={[
            { label: "Save", onClick: () => void save(false), testId: "message-editor-save" },
            ...(offerRegenerate
              ? [
                  {
                    label: "Save and regenerate",
                    onClick: () => void save(true),
                    testId: "message-editor-save-regenerate",
                    className: "button-primary",
                  },
                ]
              : []),
          ].map((action) => ({ ...action, disabled: saving || unchanged || !text.trim() }))}
        />
      </CancelConfirm>
    </div>
  );
}
