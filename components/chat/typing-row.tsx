"use client";
// Who else is typing in the room right now (docs/features.md, "Live rooms"). Announced politely to screen
// readers; takes no room when nobody is.
import type { Typist } from "./use-live-conversation";

export function TypingRow({ typists }: { typists: Typist[] }) {
  const names = typists.map((typist) => typist.name);
  const text =
    names.length === 0
      ? ""
      : names.length === 1
        ? `${names[0]} is typing…`
        : `${names.slice(0, -1).join(", ")} and ${names.at(-1)} are typing…`;
  return (
    <p
      role="status"
      aria-live="polite"
      className="mx-auto h-5 w-full max-w-3xl px-7 text-xs text-zinc-600 dark:text-zinc-400"
      data-testid="typing-indicator"
    >
      {text}
    </p>
  );
}
