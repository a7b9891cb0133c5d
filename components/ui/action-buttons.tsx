// A run of plain buttons beside each other (a row's actions), each described by one entry.
import type { ReactNode } from "react";

export interface ButtonAction {
  label: ReactNode;
  onClick: () => void;
  testId: string;
  /** What screen readers say when the label is a symbol. */
  ariaLabel?: string;
  disabled?: boolean;
  /** For a button that shows and hides something: whether it is shown. */
  expanded?: boolean;
  /** In place of the run's look, e.g. a destructive one. */
  className?: string;
}

export function ActionButtons({
  actions,
  className = "button-ghost",
}: {
  actions: readonly ButtonAction[];
  className?: string;
}) {
  return (
    <>
      {actions.map((action) => (
        <button
          key={action.testId}
          type="button"
          className={action.className ?? className}
          onClick={action.onClick}
          disabled={action.disabled}
          aria-label={action.ariaLabel}
          aria-expanded={action.expanded}
          data-testid={action.testId}
        >
          {action.label}
        </button>
      ))}
    </>
  );
}
