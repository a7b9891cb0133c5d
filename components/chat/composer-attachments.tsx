"use client";
// The files attached to the next message, as chips above the message box: a thumbnail or the file's kind, its
// name, whether it is still uploading or was refused (with the server's reason), and a remove button.
import { AudioIcon, DocumentIcon, ImageIcon, VideoIcon } from "@/components/ui/icons";
import { RemoveButton } from "@/components/ui/remove-button";
import type { PendingAttachment } from "./attachment-picker";

function KindIcon({ kind }: { kind: "image" | "video" | "audio" | "file" }) {
  if (kind === "audio") return <AudioIcon size={14} />;
  if (kind === "video") return <VideoIcon size={14} />;
  if (kind === "file") return <DocumentIcon size={14} />;
  return <ImageIcon size={14} />;
}

export function ComposerAttachments({
  attachments,
  onRemove,
}: {
  attachments: PendingAttachment[];
  onRemove: (key: string) => void;
}) {
  if (attachments.length === 0) return null;
  return (
    <ul className="mb-2 flex flex-wrap gap-2" data-testid="composer-attachments">
      {attachments.map((entry) => (
        <AttachmentChip key={entry.key} entry={entry} onRemove={() => onRemove(entry.key)} />
      ))}
    </ul>
  );
}

/** One file: its thumbnail or kind, its name, its upload state and the remove button. */
function AttachmentChip({ entry, onRemove }: { entry: PendingAttachment; onRemove: () => void }) {
  return (
    <li
      className="flex items-center gap-2 rounded-lg border border-zinc-200 bg-white py-1 pr-1 pl-1 text-xs dark:border-zinc-700 dark:bg-zinc-900"
      data-testid="composer-attachment"
      data-state={entry.state}
    >
      {entry.state === "ready" && entry.attachment.kind === "image" ? (
        // biome-ignore lint/performance/noImgElement: a private attachment route, not a static asset
        <img src={entry.attachment.url} alt={entry.name} className="size-8 rounded object-cover" />
      ) : (
        <span
          className="flex size-8 items-center justify-center rounded bg-zinc-100 dark:bg-zinc-800"
          data-kind={entry.state === "ready" ? entry.attachment.kind : undefined}
        >
          <KindIcon kind={entry.state === "ready" ? entry.attachment.kind : "image"} />
        </span>
      )}
      <span className="max-w-40 truncate">{entry.name}</span>
      {entry.state === "uploading" && <span className="text-zinc-500 dark:text-zinc-400">uploading…</span>}
      {entry.state === "failed" && (
        <span className="max-w-64 text-red-700 dark:text-red-300" data-testid="attachment-error">
          {entry.error}
        </span>
      )}
      <RemoveButton name={entry.name} onClick={onRemove} testId="remove-attachment" />
    </li>
  );
}
