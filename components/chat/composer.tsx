"use client";
// Keyboard first: Enter sends, Shift+Enter adds a line. The box grows with its text up to a limit. Files are
// attached with the attach button, pasted or dropped: they upload at once and show as chips above the box.
import { type RefObject, useLayoutEffect, useRef, useState } from "react";
import { submitHandler } from "@/components/ui/submit-handler";
import type { PendingAttachment } from "./attachment-picker";
import { ComposerAttachments } from "./composer-attachments";
import { AttachButton, SendOrStopButton, WriteAsMeButton } from "./composer-buttons";

export function Composer({
  value,
  onChange,
  onSend,
  onStop,
  busy,
  attachments,
  onAddFiles,
  onRemoveAttachment,
  onWriteAsMe,
  inputRef,
}: {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  onStop: () => void;
  busy: boolean;
  attachments: PendingAttachment[];
  onAddFiles: (files: File[]) => void;
  onRemoveAttachment: (key: string) => void;
  /** "Write as me": resolves to a draft of the user's next message, which replaces the box's text. */
  onWriteAsMe: () => Promise<string>;
  /** The message box, for the page to give it the focus (after Stop). */
  inputRef?: RefObject<HTMLTextAreaElement | null>;
}) {
  const ownTextarea = useRef<HTMLTextAreaElement>(null);
  const textarea = inputRef ?? ownTextarea;
  const [drafting, setDrafting] = useState(false);
  const [draftError, setDraftError] = useState<string | null>(null);
  const writeAsMe = async () => {
    setDrafting(true);
    setDraftError(null);
    try {
      onChange(await onWriteAsMe());
      textarea.current?.focus();
    } catch (error) {
      setDraftError(error instanceof Error ? error.message : String(error));
    } finally {
      setDrafting(false);
    }
  };
  const uploading = attachments.some((entry) => entry.state === "uploading");
  const hasFiles = attachments.some((entry) => entry.state === "ready");
  // A message needs text or a file, and waits for its uploads.
  const canSend = (value.trim() !== "" || hasFiles) && !uploading;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure whenever the text changes
  useLayoutEffect(() => {
    const element = textarea.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${Math.min(element.scrollHeight, 240)}px`;
  }, [value]);

  return (
    <form
      className="px-3 pb-3 sm:px-4"
      // Files dropped anywhere on the composer are attached like picked ones.
      onDragOver={(event) => {
        if (event.dataTransfer.types.includes("Files")) event.preventDefault();
      }}
      onDrop={(event) => {
        const files = [...event.dataTransfer.files];
        if (files.length === 0) return;
        event.preventDefault();
        onAddFiles(files);
      }}
      onSubmit={submitHandler(() => {
        if (!busy && canSend) onSend();
      })}
    >
      <div className="mx-auto max-w-3xl">
        <ComposerAttachments attachments={attachments} onRemove={onRemoveAttachment} />
        <div className="flex items-end gap-2 rounded-2xl border border-zinc-300 bg-white p-2 shadow-sm focus-within:border-indigo-500 focus-within:ring-2 focus-within:ring-indigo-500/20 dark:border-zinc-700 dark:bg-zinc-900">
          <AttachButton onAddFiles={onAddFiles} />
          <WriteAsMeButton onClick={writeAsMe} disabled={busy || drafting} drafting={drafting} />
          <textarea
            ref={textarea}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                if (!busy && canSend) onSend();
              }
            }}
            onPaste={(event) => {
              const files = [...event.clipboardData.files];
              if (files.length > 0) {
                event.preventDefault();
                onAddFiles(files);
              }
            }}
            rows={1}
            placeholder="Write a message…"
            className="max-h-60 min-h-9 flex-1 resize-none bg-transparent px-2 py-1.5 text-sm leading-6 outline-none placeholder:text-zinc-400"
            data-testid="composer-input"
            aria-label="Message"
          />
          <SendOrStopButton busy={busy} canSend={canSend} onStop={onStop} />
        </div>
        {draftError && (
          <p className="mt-1.5 px-2 text-xs text-red-700 dark:text-red-300" data-testid="write-as-me-error">
            {draftError}
          </p>
        )}
        <p className="mt-1.5 hidden px-2 text-[11px] text-zinc-500 sm:block dark:text-zinc-400">
          <kbd className="kbd">Enter</kbd> to send · <kbd className="kbd">Shift</kbd>+
          <kbd className="kbd">Enter</kbd> for a new line
        </p>
      </div>
    </form>
  );
}
