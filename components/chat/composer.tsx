"use client";
// Keyboard first: Enter sends, Shift+Enter adds a line. The box grows with its text up to a limit.
import { useLayoutEffect, useRef } from "react";
import { ArrowUpIcon, StopIcon } from "@/components/ui/icons";

export function Composer({
  value,
  onChange,
  onSend,
  onStop,
  busy,
}: {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  onStop: () => void;
  busy: boolean;
}) {
  const textarea = useRef<HTMLTextAreaElement>(null);
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
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) onSend();
      }}
    >
      <div className="mx-auto max-w-3xl">
        <div className="flex items-end gap-2 rounded-2xl border border-zinc-300 bg-white p-2 shadow-sm focus-within:border-indigo-500 focus-within:ring-2 focus-within:ring-indigo-500/20 dark:border-zinc-700 dark:bg-zinc-900">
          <textarea
            ref={textarea}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                if (!busy) onSend();
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
              disabled={!value.trim()}
            >
              <ArrowUpIcon />
            </button>
          )}
        </div>
        <p className="mt-1.5 hidden px-2 text-[11px] text-zinc-400 sm:block dark:text-zinc-500">
          <kbd className="kbd">Enter</kbd> to send · <kbd className="kbd">Shift</kbd>+
          <kbd className="kbd">Enter</kbd> for a new line
        </p>
      </div>
    </form>
  );
}
