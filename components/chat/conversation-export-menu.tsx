"use client";
import { iconLabel } from "@/components/ui/icon-label";
// Export from the header: the conversation as one archive that "Import" restores (JSON), or its model calls as
// OpenAI chat-format examples (JSONL). Plain download links: the browser saves what the export route sends.
import { DownloadIcon } from "@/components/ui/icons";

export function ConversationExportMenu({ conversationId }: { conversationId: string }) {
  const base = `/api/conversations/${conversationId}/export`;
  return (
    <details className="relative" data-testid="export-menu">
      <summary
        className="icon-button cursor-pointer list-none [&::-webkit-details-marker]:hidden"
        {...iconLabel("Export", "Export this conversation")}
        data-testid="export-menu-button"
      >
        <DownloadIcon />
      </summary>
      <div className="absolute right-0 z-20 mt-1 w-72 rounded-lg border border-zinc-200 bg-white p-1 text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900">
        <a
          href={`${base}?format=json`}
          download
          className="block rounded px-3 py-2 hover:bg-zinc-100 dark:hover:bg-zinc-800"
          data-testid="export-json"
        >
          <span className="block font-medium">Conversation (JSON)</span>
          <span className="block text-xs text-zinc-600 dark:text-zinc-300">
            Messages, images, every model call. Import it to replay.
          </span>
        </a>
        <a
          href={`${base}?format=jsonl`}
          download
          className="block rounded px-3 py-2 hover:bg-zinc-100 dark:hover:bg-zinc-800"
          data-testid="export-jsonl"
        >
          <span className="block font-medium">Model calls (JSONL)</span>
          <span className="block text-xs text-zinc-600 dark:text-zinc-300">
            OpenAI chat format, one example per answered call, for evals and fine-tuning.
          </span>
        </a>
      </div>
    </details>
  );
}
