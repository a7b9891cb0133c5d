"use client";
// The conversation's header: title, persona and model, and the doors to the preview and the settings.
import type { ReactNode } from "react";
import { IconButton } from "@/components/ui/icon-button";
import { SlidersIcon, SparkIcon } from "@/components/ui/icons";
import type { ConversationDetail } from "./api";
import { ConversationExportMenu } from "./conversation-export-menu";
import { MenuButton } from "./menu-button";
import { ModelPicker } from "./model-picker";

export function ChatHeader({
  conversationId,
  detail,
  preview,
  onSettings,
  compactAction,
}: {
  conversationId: string;
  /** The conversation as read: its title, its persona, its model and those the owner may choose. */
  detail: ConversationDetail;
  /** The payload preview beside the chat: whether it is open, and the button that opens or closes it. */
  preview: { open: boolean; onToggle: () => void };
  /** The conversation's settings, for its owner only. */
  onSettings?: () => void;
  /** "Compact now", for the owner or an admin. */
  compactAction?: ReactNode;
}) {
  return (
    <header className="flex min-h-14 shrink-0 items-center gap-2 border-b py-1 border-zinc-200 px-2 sm:px-4 dark:border-zinc-800">
      <MenuButton />
      <div className="min-w-0 flex-1">
        {/* On a phone the title wraps to a second line rather than being cut after a few letters. */}
        <h1
          className="line-clamp-2 text-sm leading-tight font-semibold break-words sm:truncate"
          data-testid="conversation-title"
        >
          {detail.conversation.title}
        </h1>
        <p className="truncate text-xs text-zinc-500 dark:text-zinc-400">
          {detail.persona.name} · <ModelPicker conversationId={conversationId} detail={detail} />
        </p>
      </div>
      {compactAction}
      <button
        type="button"
        onClick={preview.onToggle}
        className={`button-ghost-sm h-8 ${preview.open ? "bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300" : ""}`}
        data-testid="preview-button"
        aria-pressed={preview.open}
        aria-label="Preview next payload"
        title="Preview the payload your next message would produce"
      >
        <SparkIcon />
        {/* The long label only where the header has room: beside the inspector the title comes first. */}
        <span className="hidden 2xl:inline">Preview next payload</span>
        {/* A phone shows the icon alone, leaving the width to the title. */}
        <span className="hidden sm:inline 2xl:hidden">Preview</span>
      </button>
      <ConversationExportMenu conversationId={conversationId} />
      {onSettings && (
        <IconButton label="Conversation settings" onClick={onSettings} testId="conversation-settings-button">
          <SlidersIcon />
        </IconButton>
      )}
    </header>
  );
}
