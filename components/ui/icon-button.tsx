// A button that shows only an icon: its label is what screen readers say and, unless given a title, what the
// tooltip shows.
import type { ReactNode } from "react";
import { Tooltip } from "./tooltip";

export function IconButton({
  label,
  title = label,
  onClick,
  testId,
  className = "",
  disabled,
  children,
}: {
  label: string;
  /** The tooltip, where shorter than the label. */
  title?: string;
  onClick: () => void;
  testId: string;
  /** Size, visibility or hover colour on top of the icon-button look. */
  className?: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Tooltip content={title}>
      <button
        type="button"
        onClick={onClick}
        className={`icon-button ${className}`.trim()}
        aria-label={label}
        disabled={disabled}
        data-testid={testId}
      >
        {children}
      </button>
    </Tooltip>
  );
}
