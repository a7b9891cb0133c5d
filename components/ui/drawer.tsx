"use client";
// The backdrop behind a panel that is a drawer on small screens: tap outside or press Escape to close.
import { useEffect } from "react";

export function DrawerBackdrop({
  open,
  onClose,
  hideFrom,
  testId,
}: {
  open: boolean;
  onClose: () => void;
  /** The breakpoint from which the panel is part of the layout and needs no backdrop. */
  hideFrom: "md" | "lg";
  testId?: string;
}) {
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      // A dialog or menu on top handles its own Escape first and marks it handled (Radix prevents its default).
      if (event.key === "Escape" && !event.defaultPrevented) onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open, onClose]);
  if (!open) return null;
  return (
    <div
      aria-hidden="true"
      onClick={onClose}
      data-testid={testId}
      data-drawer-backdrop
      className={`fixed inset-0 z-30 bg-zinc-950/40 backdrop-blur-[1px] ${hideFrom === "md" ? "md:hidden" : "lg:hidden"}`}
    />
  );
}
