// The end of a form or a question: Cancel, then the button(s) that go ahead, given as children.
import type { ReactNode } from "react";

export function CancelConfirm({
  onCancel,
  cancelTestId,
  cancelDisabled,
  className = "flex justify-end gap-2",
  children,
}: {
  onCancel: () => void;
  cancelTestId?: string;
  cancelDisabled?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
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
