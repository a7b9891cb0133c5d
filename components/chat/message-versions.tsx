"use client";
// The "edited" mark on a message and, when opened, its earlier versions, each restorable.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { listMessageVersions, type MessageVersion, versionText } from "./message-api";

export function MessageVersions({
  conversationId,
  messageId,
  canRestore,
  onRestore,
}: {
  conversationId: string;
  messageId: string;
  canRestore: boolean;
  onRestore: (versionId: string) => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  const [restoring, setRestoring] = useState<string | null>(null);
  const versions = useQuery({
    queryKey: ["message-versions", conversationId, messageId],
    queryFn: () => listMessageVersions(conversationId, messageId),
    enabled: open,
  });
  const restore = async (versionId: string) => {
    setRestoring(versionId);
    try {
      await onRestore(versionId);
      setOpen(false);
    } finally {
      setRestoring(null);
    }
  };
  return (
    <span className="relative" data-testid="message-versions">
      <button
        type="button"
        className="chip bg-zinc-100 text-zinc-700 hover:bg-zinc-200 dark:bg-zinc-800 dark:text-zinc-200"
        onClick={() => setOpen((value) => !value)}
        aria-expanded={open}
        data-testid="edited-chip"
        title="Edited after it was sent: see the earlier versions"
      >
        edited
      </button>
      {open && (
        <div
          className="absolute right-0 z-20 mt-1 w-80 max-w-[80vw] space-y-2 rounded-xl border border-zinc-200 bg-white p-3 text-left text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
          data-testid="message-versions-list"
        >
          <p className="text-xs font-medium text-zinc-600 dark:text-zinc-300">
            Earlier versions, oldest first
          </p>
          {versions.isPending && <p className="text-xs text-zinc-600 dark:text-zinc-300">Loading…</p>}
          {versions.data?.versions.length === 0 && (
            <p className="text-xs text-zinc-600 dark:text-zinc-300">No earlier version is kept.</p>
          )}
          {versions.data?.versions.map((version) => (
            <VersionCard
              key={version.id}
              version={version}
              onRestore={canRestore ? restore : undefined}
              restoringId={restoring}
            />
          ))}
        </div>
      )}
    </span>
  );
}

/** One earlier version: its text, when it was written, and Restore where the message may be edited. */
function VersionCard({
  version,
  onRestore,
  restoringId,
}: {
  version: MessageVersion;
  onRestore: ((versionId: string) => Promise<void>) | undefined;
  /** The version being restored, if any: no other can be restored meanwhile. */
  restoringId: string | null;
}) {
  return (
    <div className="rounded-lg border border-zinc-200 p-2 dark:border-zinc-700" data-testid="message-version">
      <p className="line-clamp-4 whitespace-pre-wrap text-zinc-800 dark:text-zinc-100">
        {versionText(version) || "(no text)"}
      </p>
      <div className="mt-1 flex items-center justify-between text-xs text-zinc-600 dark:text-zinc-300">
        <time dateTime={version.createdAt}>{new Date(version.createdAt).toLocaleString()}</time>
        {onRestore && (
          <button
            type="button"
            className="button-ghost-sm"
            disabled={restoringId !== null}
            onClick={() => onRestore(version.id)}
            data-testid="restore-version"
          >
            {restoringId === version.id ? "Restoring…" : "Restore"}
          </button>
        )}
      </div>
    </div>
  );
}
