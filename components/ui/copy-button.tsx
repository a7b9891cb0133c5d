"use client";
// A button that copies text and says so for a moment.
import { useEffect, useState } from "react";
import { copyText } from "./clipboard";
import { CheckIcon, CopyIcon } from "./icons";
import { Tooltip } from "./tooltip";

export function CopyButton({
  text,
  label = "Copy",
  testId,
  className = "button-ghost-sm",
  onCopied,
  iconOnly = false,
}: {
  text: string | (() => string);
  label?: string;
  testId?: string;
  className?: string;
  onCopied?: () => void;
  /** No visible label (the name is the aria-label), for places where the text would mix with content. */
  iconOnly?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1_500);
    return () => clearTimeout(timer);
  }, [copied]);

  const button = (
    <button
      type="button"
      className={className}
      data-testid={testId}
      data-copied={copied || undefined}
      aria-label={iconOnly ? (copied ? "Copied" : label) : undefined}
      onClick={async () => {
        await copyText(typeof text === "function" ? text() : text);
        setCopied(true);
        onCopied?.();
      }}
    >
      {copied ? <CheckIcon className="text-emerald-600 dark:text-emerald-400" /> : <CopyIcon />}
      {!iconOnly && <span>{copied ? "Copied" : label}</span>}
    </button>
  );
  return iconOnly ? <Tooltip content={copied ? "Copied" : label}>{button}</Tooltip> : button;
}
