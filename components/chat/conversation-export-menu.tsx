"use client";
// Export from the header: the conversation as one archive that "Import" restores (JSON), or its model calls as
// OpenAI chat-format examples (JSONL). A Radix dropdown menu (arrow keys between the entries, Escape closes it and
// returns focus to the button) whose entries are plain download links: the browser saves what the export route
// sends.
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { DownloadIcon } from "@/components/ui/icons";
import { Tooltip } from "@/components/ui/tooltip";

const FORMATS = [
  {
    format: "json",
    title: "Conversation (JSON)",
    detail: "Messages, images, every model call. Import it to replay.",
  },
  {
    format: "jsonl",
    title: "Model calls (JSONL)",
    detail: "OpenAI chat format, one example per answered call, for evals and fine-tuning.",
  },
] as const;

export function ConversationExportMenu({ conversationId }: { conversationId: string }) {
  const base = `/api/conversations/${conversationId}/export`;
  return (
    <div className="relative" data-testid="export-menu">
      <DropdownMenu.Root>
        <Tooltip content="Export this conversation">
          <DropdownMenu.Trigger className="icon-button" aria-label="Export" data-testid="export-menu-button">
            <DownloadIcon />
          </DropdownMenu.Trigger>
        </Tooltip>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={4}
            className="menu-surface z-50 w-72"
            data-testid="export-menu-items"
          >
            {FORMATS.map(({ format, title, detail }) => (
              <DropdownMenu.Item key={format} asChild className="menu-item">
                <a href={`${base}?format=${format}`} download data-testid={`export-${format}`}>
                  <span className="block font-medium">{title}</span>
                  <span className="block text-xs text-zinc-600 dark:text-zinc-300">{detail}</span>
                </a>
              </DropdownMenu.Item>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}
