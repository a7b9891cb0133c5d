"use client";
// Opens the conversation drawer on small screens; hidden where the sidebar is always shown.
import { MenuIcon } from "@/components/ui/icons";
import { useChatShell } from "./chat-shell";

export function MenuButton() {
  const { openSidebar } = useChatShell();
  return (
    <button
      type="button"
      onClick={openSidebar}
      className="icon-button md:hidden"
      aria-label="Open conversations"
      data-testid="open-sidebar"
    >
      <MenuIcon />
    </button>
  );
}
