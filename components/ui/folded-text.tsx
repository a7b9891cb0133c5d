"use client";
// Long text folded to its first lines, with a toggle. Keeps a 100 000-token payload from becoming a wall of DOM:
// folded text renders only a slice of the string.
import { type ReactNode, useState } from "react";
import { formatCount } from "./format";

const FOLD_CHARS = 600;
const FOLD_LINES = 8;

/** Where to cut `text` for its folded view, or null when it is short enough to show whole. */
export function foldPoint(text: string, maxChars = FOLD_CHARS, maxLines = FOLD_LINES): number | null {
  let lines = 0;
  let index = -1;
  while (lines < maxLines) {
    index = text.indexOf("\n", index + 1);
    if (index === -1 || index > maxChars) break;
    lines += 1;
  }
  const cut = lines >= maxLines && index !== -1 ? Math.min(index, maxChars) : maxChars;
  return text.length > cut ? cut : null;
}

export function FoldedText({
  text,
  render = (value) => value,
  className,
  testId = "folded-text",
}: {
  text: string;
  render?: (value: string) => ReactNode;
  className?: string;
  testId?: string;
}) {
  const [open, setOpen] = useState(false);
  const cut = foldPoint(text);
  if (cut === null) {
    return (
      <div className={className} data-testid={testId}>
        {render(text)}
      </div>
    );
  }
  return (
    <div className={className} data-testid={testId} data-folded={!open}>
      {render(open ? text : `${text.slice(0, cut).trimEnd()}…`)}
      <button
        type="button"
        onClick={() => setOpen((value) => !value)}
        className="mt-1 block text-xs font-medium text-indigo-600 hover:underline dark:text-indigo-400"
        data-testid="fold-toggle"
      >
        {open ? "Show less" : `Show all · ${formatCount(text.length)} chars`}
      </button>
    </div>
  );
}
