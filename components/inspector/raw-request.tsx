"use client";
// The exact request body the provider received: pretty-printed or byte for byte, with copy, download and
// "copy as cURL" (the recorded URL, the key as a placeholder, the exact body).
import { type RefObject, useEffect, useMemo, useRef, useState } from "react";
import { copyText, downloadText } from "@/components/ui/clipboard";
import { CopyButton } from "@/components/ui/copy-button";
import { formatBytes } from "@/components/ui/format";
import { CheckIcon, DownloadIcon, TerminalIcon } from "@/components/ui/icons";
import { mediaKindName } from "@/components/ui/media-kind";
import type { ProviderName } from "@/lib/domain/types";
import { curlCommand } from "./curl-command";
import { JsonText } from "./json-lines";
import { pointerLineRange } from "./json-pointer-lines";
import { type ElidedMedia, formatMediaBytes, prettyWithoutMedia, sha256OfBase64 } from "./media-placeholders";

/** The readable form: indented, large base64 media as placeholders whose sha256 fills in once computed. */
function usePrettyBody(body: string | null): {
  text: string | null;
  media: ElidedMedia[];
  hashes: ReadonlyMap<string, string>;
} {
  const [hashes, setHashes] = useState<ReadonlyMap<string, string>>(new Map());
  const pretty = useMemo(() => (body === null ? null : prettyWithoutMedia(body, hashes)), [body, hashes]);
  const media = useMemo(() => (body === null ? [] : (prettyWithoutMedia(body)?.media ?? [])), [body]);
  useEffect(() => {
    if (media.length === 0) return;
    let cancelled = false;
    void Promise.all(media.map(async (entry) => [entry.path, await sha256OfBase64(entry.base64)] as const))
      .then((entries) => {
        if (!cancelled) setHashes(new Map(entries));
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [media]);
  return { text: pretty?.text ?? null, media, hashes };
}

/** The media the body carries, as thumbnails beside their placeholders; the bytes open in a new tab on demand. */
function MediaStrip({ media, hashes }: { media: ElidedMedia[]; hashes: ReadonlyMap<string, string> }) {
  if (media.length === 0) return null;
  const openBytes = (entry: ElidedMedia) => {
    const binary = atob(entry.base64);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
    const url = URL.createObjectURL(new Blob([bytes], { type: entry.mediaType }));
    window.open(url, "_blank", "noopener");
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
  return (
    <ul className="flex flex-wrap gap-2" data-testid="raw-media">
      {media.map((entry) => (
        <li
          key={entry.path}
          className="flex items-center gap-2 rounded-lg border border-zinc-200 p-1.5 text-[11px] dark:border-zinc-800"
          data-testid="raw-media-item"
          data-media-type={entry.mediaType}
          data-sha256={hashes.get(entry.path) ?? ""}
        >
          {entry.mediaType.startsWith("image/") ? (
            // biome-ignore lint/performance/noImgElement: a data URL thumbnail of the bytes sent, not a page image
            <img
              src={`data:${entry.mediaType};base64,${entry.base64}`}
              alt={`${entry.mediaType} sent at ${entry.path}`}
              className="size-12 rounded object-cover"
              data-testid="raw-media-thumbnail"
            />
          ) : (
            <span
              className="flex size-12 items-center justify-center rounded bg-zinc-100 text-center leading-tight dark:bg-zinc-800"
              data-testid="raw-media-kind"
            >
              {mediaKindName(entry.mediaType)}
            </span>
          )}
          <span className="space-y-0.5">
            <span className="block font-mono">
              {entry.mediaType} · {formatMediaBytes(entry.bytes)}
            </span>
            <span className="block font-mono text-zinc-600 dark:text-zinc-300">
              sha256 {(hashes.get(entry.path) ?? "…").slice(0, 16)}
            </span>
            <button
              type="button"
              className="text-indigo-700 underline dark:text-indigo-300"
              onClick={() => openBytes(entry)}
              data-testid="raw-media-open"
            >
              Open the bytes
            </button>
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The pretty body with the lines of one element marked and scrolled to: the bytes an item's address points at.
 * Rendered plain (no colouring) so the mark can wrap exactly those lines.
 */
function MarkedBody({ text, body, pointer }: { text: string; body: string; pointer: string }) {
  const mark = useRef<HTMLElement>(null);
  const range = useMemo(() => {
    try {
      return pointerLineRange(JSON.parse(body), pointer);
    } catch {
      return null;
    }
  }, [body, pointer]);
  // Scrolled to whenever another element is marked.
  const markKey = range ? `${range.first}:${range.last}` : null;
  useEffect(() => {
    if (markKey !== null) mark.current?.scrollIntoView({ block: "center" });
  }, [markKey]);
  const lines = text.split("\n");
  if (!range) {
    return (
      <p className="text-xs text-rose-700 dark:text-rose-300" data-testid="raw-highlight-missing">
        {pointer} is not in this request's body.
      </p>
    );
  }
  return (
    <pre className="code-surface overflow-x-auto p-3 break-all whitespace-pre-wrap" data-testid="raw-body">
      {lines.slice(0, range.first).join("\n")}
      {range.first > 0 && "\n"}
      <mark
        ref={mark}
        className="rounded bg-amber-200/70 text-inherit dark:bg-amber-500/30"
        data-testid="raw-highlight"
        data-pointer={pointer}
      >
        {lines.slice(range.first, range.last + 1).join("\n")}
      </mark>
      {range.last + 1 < lines.length && "\n"}
      {lines.slice(range.last + 1).join("\n")}
    </pre>
  );
}

export function RawRequest({
  provider,
  request,
  requests,
  downloadName,
  scrollContainer,
  highlightPointer = null,
}: {
  provider: ProviderName | null;
  request: { url: string; body: string } | null;
  /** Every HTTP request of the attempt (SDK retries), when there was more than one. */
  requests?: { url: string; status: number | null; body: string }[];
  downloadName: string;
  scrollContainer: RefObject<HTMLElement | null>;
  /** A JSON Pointer into the request the items belong to (the last one): its lines are marked in the pretty view. */
  highlightPointer?: string | null;
}) {
  const [mode, setMode] = useState<"pretty" | "exact">("pretty");
  const [requestIndex, setRequestIndex] = useState<number | null>(null);
  const [curlShown, setCurlShown] = useState(false);
  const [curlCopied, setCurlCopied] = useState(false);
  const chosen = requestIndex !== null && requests?.[requestIndex] ? requests[requestIndex] : request;
  const { text: pretty, media, hashes } = usePrettyBody(chosen?.body ?? null);
  const curl = useMemo(() => (chosen ? curlCommand(provider, chosen) : null), [provider, chosen]);

  if (!chosen) {
    return (
      <p
        className="rounded-lg bg-zinc-50 px-3 py-2 text-sm text-zinc-500 dark:bg-zinc-900 dark:text-zinc-400"
        data-testid="raw-request-missing"
      >
        No HTTP request was made: the attempt failed before the provider was called.
      </p>
    );
  }

  const bytes = new TextEncoder().encode(chosen.body).length;
  const shown = mode === "pretty" && pretty !== null ? pretty : chosen.body;
  const itemsRequest = requestIndex === null || !requests || requestIndex === requests.length - 1;
  const marked = mode === "pretty" && pretty !== null && itemsRequest ? highlightPointer : null;
  return (
    <section className="space-y-2" data-testid="raw-request">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className="chip bg-zinc-900 font-mono text-white dark:bg-zinc-100 dark:text-zinc-900">
          POST
        </span>
        <code
          className="min-w-0 flex-1 truncate font-mono text-zinc-600 dark:text-zinc-300"
          data-testid="raw-url"
          title={chosen.url}
        >
          {chosen.url}
        </code>
        <span className="text-zinc-500 tabular-nums dark:text-zinc-400" data-testid="raw-size">
          {formatBytes(bytes)}
        </span>
      </div>
      {requests && requests.length > 1 && (
        <div className="flex flex-wrap items-center gap-1 text-[11px]">
          <span className="text-zinc-500 dark:text-zinc-400">HTTP requests in this attempt:</span>
          {requests.map((entry, index) => (
            <button
              // biome-ignore lint/suspicious/noArrayIndexKey: requests are positional
              key={index}
              type="button"
              onClick={() => setRequestIndex(index)}
              className={`chip font-mono ${(requestIndex ?? requests.length - 1) === index ? "bg-indigo-100 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200" : "bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300"}`}
              data-testid="http-request-tab"
            >
              #{index + 1} · {entry.status ?? "no response"}
            </button>
          ))}
        </div>
      )}
      <div className="flex flex-wrap items-center gap-1">
        <div className="mr-1 inline-flex rounded-lg border border-zinc-200 p-0.5 text-[11px] dark:border-zinc-800">
          {(["pretty", "exact"] as const).map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={mode === option}
              onClick={() => setMode(option)}
              disabled={option === "pretty" && pretty === null}
              className={`rounded-md px-2 py-0.5 font-medium ${mode === option ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"}`}
              data-testid={`raw-mode-${option}`}
              title={option === "exact" ? "The bytes exactly as sent" : "Indented for reading"}
            >
              {option === "pretty" ? "Pretty" : "Exact bytes"}
            </button>
          ))}
        </div>
        <CopyButton text={chosen.body} label="Copy body" testId="copy-body" />
        <button
          type="button"
          className="button-ghost-sm"
          onClick={() => downloadText(downloadName, chosen.body)}
          data-testid="download-body"
        >
          <DownloadIcon />
          Download .json
        </button>
        <button
          type="button"
          className="button-ghost-sm"
          disabled={!curl}
          title={
            curl ? "A shell command that replays this request" : "The offline model is not called over HTTP"
          }
          onClick={async () => {
            if (!curl) return;
            setCurlShown(true);
            await copyText(curl.command);
            setCurlCopied(true);
            setTimeout(() => setCurlCopied(false), 1_500);
          }}
          data-testid="copy-curl"
        >
          {curlCopied ? <CheckIcon className="text-emerald-600" /> : <TerminalIcon />}
          {curlCopied ? "Copied" : "Copy as cURL"}
        </button>
      </div>
      {curlShown && curl && (
        <div className="space-y-1" data-testid="curl-panel">
          <p className="text-[11px] text-zinc-500 dark:text-zinc-400">
            Set{" "}
            {curl.variables.map((name, index) => (
              <span key={name}>
                {index > 0 && " and optionally "}
                <code className="font-mono">${name}</code>
              </span>
            ))}{" "}
            first. The body is the exact recorded bytes.
          </p>
          <pre
            className="code-surface max-h-48 overflow-auto p-2 break-all whitespace-pre-wrap"
            data-testid="curl-command"
          >
            {curl.command}
          </pre>
        </div>
      )}
      <MediaStrip media={media} hashes={hashes} />
      {marked ? (
        <MarkedBody text={shown} body={chosen.body} pointer={marked} />
      ) : (
        <JsonText text={shown} scrollContainer={scrollContainer} testId="raw-body" />
      )}
    </section>
  );
}
