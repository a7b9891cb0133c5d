"use client";
// The parts of one context item: text (folded when long, notices highlighted), media as thumbnails or tiles,
// tool calls and results, reasoning.
import type { ReactNode } from "react";
import { FoldedText } from "@/components/ui/folded-text";
import { AudioIcon, DocumentIcon, ImageIcon, VideoIcon } from "@/components/ui/icons";
import { fileKind, mediaKindName } from "@/components/ui/media-kind";
import type { ItemPart } from "@/lib/domain/types";

const NOTICE = /\[System: [^\]\n]*\]/g;

/** Text with `[System: …]` notices marked, so omissions and injections stand out. */
export function withNotices(text: string): ReactNode {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(NOTICE)) {
    const start = match.index ?? 0;
    if (start > last) nodes.push(text.slice(last, start));
    nodes.push(
      <mark
        key={start}
        className="rounded bg-amber-100 px-0.5 text-amber-950 dark:bg-amber-500/20 dark:text-amber-100"
        data-testid="notice"
      >
        {match[0]}
      </mark>,
    );
    last = start + match[0].length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

/** A data URL with real bytes (not an elided marker) or an http(s) URL can be shown. */
function displayableImage(url: string): boolean {
  return (/^data:image\//.test(url) && !url.includes("[elided-media")) || /^https?:\/\//.test(url);
}

const KIND_ICONS = {
  image: ImageIcon,
  audio: AudioIcon,
  video: VideoIcon,
  document: DocumentIcon,
  other: DocumentIcon,
};

function KindIcon({ mediaType }: { mediaType: string }) {
  const Icon = KIND_ICONS[fileKind(mediaType)];
  return <Icon size={20} />;
}

function MediaTile({
  label,
  detail,
  url,
  mediaType,
}: {
  label: string;
  detail: string;
  url?: string;
  mediaType: string;
}) {
  return (
    <span
      className="inline-flex items-center gap-2 rounded-lg border border-zinc-200 bg-zinc-50 p-1.5 pr-3 text-[11px] dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="media-part"
      data-kind={mediaKindName(mediaType)}
    >
      {url && displayableImage(url) ? (
        // biome-ignore lint/performance/noImgElement: data URLs and remote thumbnails, not optimisable assets
        <img
          src={url}
          alt={label}
          className="size-14 rounded object-cover"
          data-testid="media-thumbnail"
          loading="lazy"
        />
      ) : (
        <span className="flex size-14 items-center justify-center rounded bg-zinc-200/70 text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400">
          <KindIcon mediaType={mediaType} />
        </span>
      )}
      <span className="min-w-0">
        <span className="block font-mono font-medium">{label}</span>
        <span className="block text-zinc-500 dark:text-zinc-400">{detail}</span>
      </span>
    </span>
  );
}

/** Long opaque values (signatures, encrypted reasoning) are shown by their start and length. */
const METADATA_VALUE_CHARS = 32;

function metadataValue(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  return text.length > METADATA_VALUE_CHARS
    ? `${text.slice(0, METADATA_VALUE_CHARS)}… (${text.length} chars)`
    : text;
}

/** What the provider attached to a part and gets back with it: `google.thoughtSignature`, `openai.itemId`, … */
function ProviderMetadataLines({
  metadata,
}: {
  metadata: Record<string, Record<string, unknown>> | undefined;
}) {
  if (metadata === undefined) return null;
  const entries = Object.entries(metadata).flatMap(([provider, fields]) =>
    Object.entries(fields ?? {})
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([field, value]) => ({ name: `${provider}.${field}`, value: metadataValue(value) })),
  );
  if (entries.length === 0) return null;
  return (
    <ul
      className="mt-1 space-y-0.5 font-mono text-[11px] text-zinc-500 dark:text-zinc-400"
      aria-label="Provider metadata, sent back with the part"
      data-testid="item-provider-metadata"
    >
      {entries.map((entry) => (
        <li key={entry.name} className="break-all">
          <span className="text-purple-700 dark:text-purple-300">{entry.name}</span> = {entry.value}
        </li>
      ))}
    </ul>
  );
}

export function ItemParts({ parts }: { parts: ItemPart[] }) {
  return (
    <div className="mt-1.5 space-y-1.5">
      {parts.map((part, index) => {
        const key = index;
        switch (part.type) {
          case "text":
            return part.providerMetadata ? (
              <div key={key}>
                <FoldedText
                  text={part.text}
                  render={withNotices}
                  className="text-[13px] leading-5 break-words whitespace-pre-wrap text-zinc-800 dark:text-zinc-200"
                  testId="item-text"
                />
                <ProviderMetadataLines metadata={part.providerMetadata} />
              </div>
            ) : (
              <FoldedText
                key={key}
                text={part.text}
                render={withNotices}
                className="text-[13px] leading-5 break-words whitespace-pre-wrap text-zinc-800 dark:text-zinc-200"
                testId="item-text"
              />
            );
          case "reasoning":
            return (
              <div key={key}>
                {part.text.trim() === "" ? (
                  <p
                    className="border-l-2 border-purple-300 pl-2 text-[13px] text-zinc-600 italic dark:border-purple-800 dark:text-zinc-400"
                    data-testid="item-reasoning"
                  >
                    Reasoning hidden by the provider (sent back as it came)
                  </p>
                ) : (
                  <FoldedText
                    text={part.text}
                    className="border-l-2 border-purple-300 pl-2 text-[13px] leading-5 whitespace-pre-wrap text-zinc-600 italic dark:border-purple-800 dark:text-zinc-400"
                    testId="item-reasoning"
                  />
                )}
                <ProviderMetadataLines metadata={part.providerMetadata} />
              </div>
            );
          case "tool-call":
          case "tool-result": {
            const call = part.type === "tool-call";
            return (
              <div key={key} className="code-surface px-2 py-1.5" data-testid={`item-${part.type}`}>
                <span
                  className={
                    call ? "text-teal-700 dark:text-teal-300" : "text-emerald-700 dark:text-emerald-300"
                  }
                >
                  {call ? "→" : "←"} {part.toolName}
                </span>
                <span className="text-zinc-500 dark:text-zinc-400"> · {part.toolCallId}</span>
                <FoldedText
                  text={stringify(part.type === "tool-call" ? part.input : part.output)}
                  className="break-words whitespace-pre-wrap"
                />
                <ProviderMetadataLines metadata={part.providerMetadata} />
              </div>
            );
          }
          case "media":
            return (
              <MediaTile
                key={key}
                label={part.descriptor.handle}
                detail={`${mediaKindName(part.descriptor.mime)} · ${part.descriptor.mime} · ${part.descriptor.state === "render" ? "to render" : "outside the media window"}`}
                url={part.descriptor.url}
                mediaType={part.descriptor.mime}
              />
            );
          default:
            return (
              <MediaTile
                key={key}
                label={part.handle}
                detail={`${mediaKindName(part.mediaType)} sent · ${part.mediaType}${part.filename ? ` · ${part.filename}` : ""}`}
                url={part.url}
                mediaType={part.mediaType}
              />
            );
        }
      })}
    </div>
  );
}
