// A button that shows only an icon: its label is what screen readers say and what the tooltip shows.
import type { ReactNode } from "react";

export function IconButton({
  label,
  onClick,
  testId,
  className = "",
  disabled,
  children,
}: {
  label: string;
  onClick: () => void;
  testId: string;
  /** Size, visibility or hover colour on top of the icon-button look. */
  className?: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      className={`icon-button ${className}`.trim()}
      aria-label={label}
      title={label}
      disabled={disabled}
      data-testid={testId}
    >
      {children}
    </button>
  );
}
