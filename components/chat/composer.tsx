"use client";
// Keyboard first: Enter sends, Shift+Enter adds a line.
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
  return (
    <form
      className="border-t border-zinc-200 p-3 dark:border-zinc-800"
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) onSend();
      }}
    >
      <div className="mx-auto flex max-w-3xl items-end gap-2">
        <textarea
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              if (!busy) onSend();
            }
          }}
          rows={2}
          placeholder="Write a message…"
          className="input mt-0 resize-none"
          data-testid="composer-input"
          aria-label="Message"
        />
        {busy ? (
          <button type="button" onClick={onStop} className="button-ghost border border-zinc-300 dark:border-zinc-700" data-testid="stop-button">
            Stop
          </button>
        ) : (
          <button type="submit" className="button-primary" data-testid="send-button" disabled={!value.trim()}>
            Send
          </button>
        )}
      </div>
    </form>
  );
}
