// Request bodies carry media as base64 (data URLs for OpenAI, inlineData for Gemini). Storing that for every
// attempt would bloat the database, so bodies are stored with each base64 run replaced by a marker that names
// its sha256 and size; `restoreMedia` puts the bytes back from the attachments, giving the exact original body.

import "server-only";
import { createHash } from "node:crypto";

export interface ElidedMedia {
  sha256: string;
  mime: string;
  bytes: number;
}

/** Runs shorter than this are left alone: they cost nothing and may not be media. */
const MIN_BASE64_LENGTH = 512;
const DATA_URL = /data:([a-z]+\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/]+={0,2})/g;
const GEMINI_INLINE = /("mimeType":"([a-z]+\/[a-z0-9.+-]+)","data":")([A-Za-z0-9+/]+={0,2})"/g;
/** OpenAI chat's audio part names a format, not a mime type: `"input_audio":{"data":"…","format":"wav"}`. */
const OPENAI_INPUT_AUDIO = /("input_audio":\{"data":")([A-Za-z0-9+/]+={0,2})(","format":"(wav|mp3)")/g;
const AUDIO_FORMAT_MIMES: Record<string, string> = { wav: "audio/wav", mp3: "audio/mpeg" };
/** The marker that stands for elided bytes; the first group is their sha256. */
export const MEDIA_MARKER = /\[elided-media sha256=([0-9a-f]{64}) bytes=(\d+)\]/g;

function elisionMarker(base64: string, mime: string, found: Map<string, ElidedMedia>): string {
  const bytes = Buffer.from(base64, "base64");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  found.set(sha256, { sha256, mime, bytes: bytes.length });
  return `[elided-media sha256=${sha256} bytes=${bytes.length}]`;
}

export function elideMedia(body: string): { body: string; media: ElidedMedia[] } {
  const found = new Map<string, ElidedMedia>();
  const withoutDataUrls = body.replace(DATA_URL, (match, mime: string, base64: string) =>
    base64.length < MIN_BASE64_LENGTH ? match : `data:${mime};base64,${elisionMarker(base64, mime, found)}`,
  );
  const elided = withoutDataUrls.replace(
    GEMINI_INLINE,
    (match, prefix: string, mime: string, base64: string) =>
      base64.length < MIN_BASE64_LENGTH ? match : `${prefix}${elisionMarker(base64, mime, found)}"`,
  );
  const withoutAudio = elided.replace(
    OPENAI_INPUT_AUDIO,
    (match, prefix: string, base64: string, suffix: string, format: string) =>
      base64.length < MIN_BASE64_LENGTH
        ? match
        : `${prefix}${elisionMarker(base64, AUDIO_FORMAT_MIMES[format] ?? "audio/wav", found)}${suffix}`,
  );
  return { body: withoutAudio, media: [...found.values()] };
}

/** Rebuild the exact body: `base64BySha256` gives each elided item's bytes (from the attachments table). */
export function restoreMedia(body: string, base64BySha256: (sha256: string) => string | undefined): string {
  return body.replace(MEDIA_MARKER, (match, sha256: string) => base64BySha256(sha256) ?? match);
}
