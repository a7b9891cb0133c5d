"use client";
// Keyboard first: Enter sends, Shift+Enter adds a line. The box grows with its text up to a limit. Images are
// attached with the image button (or pasted): they upload at once and show as chips above the box.
import { type RefObject, useLayoutEffect, useRef, useState } from "react";
import { iconLabel } from "@/components/ui/icon-label";
import {
  ArrowUpIcon,
  AudioIcon,
  DocumentIcon,
  ImageIcon,
  SparkIcon,
  StopIcon,
  VideoIcon,
} from "@/components/ui/icons";
import { RemoveButton } from "@/components/ui/remove-button";
import { submitHandler } from "@/components/ui/submit-handler";
import { ACCEPTED_UPLOAD_TYPES, type PendingAttachment } from "./attachment-picker";

function KindIcon({ kind }: { kind: "image" | "video" | "audio" | "file" }) {
  if (kind === "audio") return <AudioIcon size={14} />;
  if (kind === "video") return <VideoIcon size={14} />;
  if (kind === "file") return <DocumentIcon size={14} />;
  return <ImageIcon size={14} />;
}

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
  const ownTextarea = useRef<HTMLTextAreaElement>(null);
  const textarea = inputRef ?? ownTextarea;
  const fileInput = useRef<HTMLInputElement>(null);
  const uploading = attachments.some((entry) => entry.state === "uploading");
  const hasImages = attachments.some((entry) => entry.state === "ready");
  // A message needs text or an image, and waits for its uploads.
  const canSend = (value.trim() !== "" || hasImages) && !uploading;
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
        {attachments.length > 0 && (
          <ul className="mb-2 flex flex-wrap gap-2" data-testid="composer-attachments">
            {attachments.map((entry) => (
              <li
                key={entry.key}
                className="flex items-center gap-2 rounded-lg border border-zinc-200 bg-white py-1 pr-1 pl-1 text-xs dark:border-zinc-700 dark:bg-zinc-900"
                data-testid="composer-attachment"
                data-state={entry.state}
              >
                {entry.state === "ready" && entry.attachment.kind === "image" ? (
                  // biome-ignore lint/performance/noImgElement: a private attachment route, not a static asset
                  <img src={entry.attachment.url} alt={entry.name} className="size-8 rounded object-cover" />
                ) : (
                  <span
                    className="flex size-8 items-center justify-center rounded bg-zinc-100 dark:bg-zinc-800"
                    data-kind={entry.state === "ready" ? entry.attachment.kind : undefined}
                  >
                    <KindIcon kind={entry.state === "ready" ? entry.attachment.kind : "image"} />
                  </span>
                )}
                <span className="max-w-40 truncate">{entry.name}</span>
                {entry.state === "uploading" && (
                  <span className="text-zinc-500 dark:text-zinc-400">uploading…</span>
                )}
                {entry.state === "failed" && (
                  <span className="max-w-64 text-red-700 dark:text-red-300" data-testid="attachment-error">
                    {entry.error}
                  </span>
                )}
                <RemoveButton
                  name={entry.name}
                  onClick={() => onRemoveAttachment(entry.key)}
                  testId="remove-attachment"
                />
              </li>
            ))}
          </ul>
        )}
        <div className="flex items-end gap-2 rounded-2xl border border-zinc-300 bg-white p-2 shadow-sm focus-within:border-indigo-500 focus-within:ring-2 focus-within:ring-indigo-500/20 dark:border-zinc-700 dark:bg-zinc-900">
          <input
            ref={fileInput}
            type="file"
            accept={ACCEPTED_UPLOAD_TYPES}
            multiple
            hidden
            data-testid="attach-input"
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              event.target.value = "";
              if (files.length > 0) onAddFiles(files);
            }}
          />
          <button
            type="button"
            onClick={() => fileInput.current?.click()}
            className="inline-flex size-9 shrink-0 items-center justify-center rounded-xl text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 dark:hover:bg-zinc-800 dark:hover:text-zinc-200"
            {...iconLabel("Attach files", "Attach images, PDFs, audio or video (or drop them here)")}
            data-testid="attach-button"
          >
            <ImageIcon />
          </button>
          <button
            type="button"
            onClick={writeAsMe}
            disabled={busy || drafting}
            className="inline-flex size-9 shrink-0 items-center justify-center rounded-xl text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 disabled:opacity-50 dark:hover:bg-zinc-800 dark:hover:text-zinc-200"
            aria-label="Write as me: draft my next message"
            title="Write as me: draft my next message in my own voice, to edit before sending"
            data-testid="write-as-me"
            data-state={drafting ? "drafting" : "idle"}
          >
            <SparkIcon className={drafting ? "animate-pulse" : undefined} />
          </button>
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
          {busy ? (
            <button
              type="button"
              onClick={onStop}
              className="inline-flex size-9 shrink-0 items-center justify-center rounded-xl bg-zinc-900 text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
              aria-label="Stop generating"
              title="Stop generating"
              data-testid="stop-button"
            >
              <StopIcon size={14} />
            </button>
          ) : (
            <button
              type="submit"
              className="inline-flex size-9 shrink-0 items-center justify-center rounded-xl bg-indigo-600 text-white hover:bg-indigo-500 disabled:bg-zinc-200 disabled:text-zinc-400 dark:disabled:bg-zinc-800 dark:disabled:text-zinc-600"
              aria-label="Send"
              title="Send"
              data-testid="send-button"
              disabled={!canSend}
            >
              <ArrowUpIcon />
            </button>
          )}
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
