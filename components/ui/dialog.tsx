"use client";
// A modal on the native <dialog> element: focus is trapped and Escape closes it, for free.
import { type ReactNode, useEffect, useRef } from "react";
import { CancelConfirm } from "./cancel-confirm";
import { CloseIcon } from "./icons";

export function Dialog({
  open,
  onClose,
  title,
  children,
  testId,
  className = "max-w-md",
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  testId?: string;
  className?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard path is the dialog's native Escape (onCancel)
    <dialog
      ref={ref}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // A click on the backdrop closes it.
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className={`dialog w-[calc(100%-2rem)] ${className}`}
      data-testid={testId}
      aria-labelledby={testId ? `${testId}-title` : undefined}
    >
      {open && (
        <div className="p-5">
          <div className="mb-4 flex items-start justify-between gap-4">
            <h2 id={testId ? `${testId}-title` : undefined} className="text-base font-semibold">
              {title}
            </h2>
            <button type="button" onClick={onClose} className="icon-button -mr-2 -mt-1" aria-label="Close">
              <CloseIcon />
            </button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}

export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  onConfirm,
  onCancel,
  pending = false,
  testId = "confirm-dialog",
}: {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  pending?: boolean;
  testId?: string;
}) {
  return (
    <Dialog open={open} onClose={onCancel} title={title} testId={testId}>
      <div className="text-sm text-zinc-600 dark:text-zinc-300">{message}</div>
      <CancelConfirm
        className="mt-5 flex justify-end gap-2"
        onCancel={onCancel}
        cancelTestId={`${testId}-cancel`}
      >
        <button
          type="button"
          className="button-danger"
          onClick={onConfirm}
          disabled={pending}
          data-testid={`${testId}-confirm`}
        >
          {confirmLabel}
        </button>
      </CancelConfirm>
    </Dialog>
  );
}
