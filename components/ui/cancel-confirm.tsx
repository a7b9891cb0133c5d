// The end of a form or a question: Cancel, then the button(s) that go ahead, given as children.
import type { ReactNode } from "react";

export function CancelConfirm({
  onCancel,
  cancelTestId,
  cancelDisabled,
  className = "",
  children,
}: {
  onCancel: () => void;
  cancelTestId?: string;
  cancelDisabled?: boolean;
  /** Spacing or wrapping on top of the row's own layout (Cancel and the rest, at the end). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`flex justify-end gap-2 ${className}`.trim()}>
      <button
        type="button"
        className="button-secondary"
        onClick={onCancel}
        disabled={cancelDisabled}
        data-testid={cancelTestId}
      >
        Cancel
      </button>
      {children}
    </div>
  );
}
