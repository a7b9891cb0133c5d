"use client";
import { IconButton } from "@/components/ui/icon-button";
// Opens the conversation drawer on small screens; hidden where the sidebar is always shown.
import { MenuIcon } from "@/components/ui/icons";
import { useChatShell } from "./chat-shell";

export function MenuButton() {
  const { openSidebar } = useChatShell();
  return (
    <IconButton label="Open conversations" onClick={openSidebar} testId="open-sidebar" className="md:hidden">
      <MenuIcon />
    </IconButton>
  );
}
