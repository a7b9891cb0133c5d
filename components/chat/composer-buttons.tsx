"use client";
// The composer's buttons: attach files, "Write as me", and Send (Stop while a reply is being written).
import { useRef } from "react";
import { iconLabel } from "@/components/ui/icon-label";
import { ArrowUpIcon, ImageIcon, SparkIcon, StopIcon } from "@/components/ui/icons";
import { ACCEPTED_UPLOAD_TYPES } from "./attachment-picker";

export function AttachButton({ onAddFiles }: { onAddFiles: (files: File[]) => void }) {
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <>
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
    </>
  );
}

export function WriteAsMeButton({
  onClick,
  disabled,
  drafting,
}: {
  onClick: () => void;
  disabled: boolean;
  drafting: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      className="inline-flex size-9 shrink-0 items-center justify-center rounded-xl text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 disabled:opacity-50 dark:hover:bg-zinc-800 dark:hover:text-zinc-200"
      aria-label="Write as me: draft my next message"
      title="Write as me: draft my next message in my own voice, to edit before sending"
      data-testid="write-as-me"
      data-state={drafting ? "drafting" : "idle"}
    >
      <SparkIcon className={drafting ? "animate-pulse" : undefined} />
    </button>
  );
}

/** Send, or Stop while a reply is being written. */
export function SendOrStopButton({
  busy,
  canSend,
  onStop,
}: {
  busy: boolean;
  canSend: boolean;
  onStop: () => void;
}) {
  if (busy) {
    return (
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
    );
  }
  return (
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
  );
}
