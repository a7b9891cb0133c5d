"use client";
// One file of a message, by its kind (docs/features.md#documents-audio-and-video): an image as a picture (with
// the link it was fetched from, for an image link), a PDF as a card with its name and size, audio with a player,
// video with a player that loads only its first frame until played.
import type { FileUIPart } from "ai";
import { formatBytes } from "@/components/ui/format";
import { DocumentIcon } from "@/components/ui/icons";
import { fileKind } from "@/components/ui/media-kind";

export function MessageFile({
  file,
  facts,
}: {
  file: FileUIPart;
  facts?: { sizeBytes?: number; originUrl?: string | null };
}) {
  const kind = fileKind(file.mediaType);
  const name = file.filename ?? "attachment";
  if (kind === "image") {
    return (
      <a
        href={file.url}
        target="_blank"
        rel="noreferrer"
        data-testid="message-image"
        title={facts?.originUrl ? `Fetched from ${facts.originUrl}` : undefined}
        data-origin-url={facts?.originUrl ?? undefined}
      >
        {/* biome-ignore lint/performance/noImgElement: a private attachment route, not a static asset */}
        <img
          src={file.url}
          alt={
            facts?.originUrl ? `image fetched from ${facts.originUrl}` : (file.filename ?? "attached image")
          }
          className="max-h-60 min-h-16 w-auto max-w-full rounded-lg border border-zinc-200 object-contain dark:border-zinc-700"
        />
      </a>
    );
  }
  if (kind === "audio") {
    return (
      <figure className="w-72 max-w-full" data-testid="message-audio">
        {/* biome-ignore lint/a11y/useMediaCaption: a user's own clip has no captions to offer */}
        <audio controls preload="metadata" src={file.url} className="w-full" aria-label={`audio: ${name}`} />
        <figcaption className="mt-0.5 truncate text-left text-xs text-zinc-600 dark:text-zinc-300">
          {name}
          {facts?.sizeBytes !== undefined && ` · ${formatBytes(facts.sizeBytes)}`}
        </figcaption>
      </figure>
    );
  }
  if (kind === "video") {
    return (
      <figure className="w-80 max-w-full" data-testid="message-video">
        {/* biome-ignore lint/a11y/useMediaCaption: a user's own clip has no captions to offer */}
        <video
          controls
          preload="metadata"
          src={file.url}
          className="max-h-60 w-full rounded-lg border border-zinc-200 dark:border-zinc-700"
          aria-label={`video: ${name}`}
        />
        <figcaption className="mt-0.5 truncate text-left text-xs text-zinc-600 dark:text-zinc-300">
          {name}
          {facts?.sizeBytes !== undefined && ` · ${formatBytes(facts.sizeBytes)}`}
        </figcaption>
      </figure>
    );
  }
  return (
    <a
      href={file.url}
      target="_blank"
      rel="noreferrer"
      className="flex w-64 max-w-full items-center gap-2 rounded-lg border border-zinc-200 bg-white p-2 text-left text-zinc-900 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
      data-testid="message-document"
    >
      <span className="flex size-10 shrink-0 items-center justify-center rounded bg-red-50 text-red-700 dark:bg-red-950 dark:text-red-300">
        <DocumentIcon size={20} />
      </span>
      <span className="min-w-0">
        <span className="block truncate text-sm font-medium">{name}</span>
        <span className="block text-xs text-zinc-600 dark:text-zinc-300">
          {kind === "document" ? "PDF" : file.mediaType}
          {facts?.sizeBytes !== undefined && ` · ${formatBytes(facts.sizeBytes)}`}
        </span>
      </span>
    </a>
  );
}
