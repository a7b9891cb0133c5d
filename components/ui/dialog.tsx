"use client";
// A modal on Radix's Dialog: focus moves in and is trapped, Escape or a click on the backdrop closes it, the page
// behind is hidden from screen readers and does not scroll, and focus returns to what opened it.
import * as RadixDialog from "@radix-ui/react-dialog";
import { type ReactNode, useRef } from "react";
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
  // The element focused when the dialog opened: the dialog is opened by state, not by a Radix trigger, so Radix
  // would not know where to return focus.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <RadixDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
    >
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={`dialog w-[calc(100%-2rem)] ${className}`}
          data-testid={testId}
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            if (!opener.current?.isConnected) return;
            event.preventDefault();
            opener.current.focus();
          }}
        >
          <div className="p-5">
            <div className="mb-4 flex items-start justify-between gap-4">
              <RadixDialog.Title className="text-base font-semibold">{title}</RadixDialog.Title>
              <RadixDialog.Close className="icon-button -mr-2 -mt-1" aria-label="Close">
                <CloseIcon />
              </RadixDialog.Close>
            </div>
            {children}
          </div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** The text that says what a dialog is about: screen readers read it with the title when the dialog opens. */
export function DialogDescription({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <RadixDialog.Description asChild>
      <div className={className}>{children}</div>
    </RadixDialog.Description>
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
      <DialogDescription className="text-sm text-zinc-600 dark:text-zinc-300">{message}</DialogDescription>
      <CancelConfirm className="mt-5" onCancel={onCancel} cancelTestId={`${testId}-cancel`}>
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
