// The raw request's readable ("Pretty") form must not inline base64 media: every base64 data: URL (OpenAI chat
// `image_url`/`file`, OpenAI Responses `input_image`/`input_file`) and every media field's bare base64 (Anthropic
// `source.data`, Gemini `inlineData.data`, OpenAI chat `input_audio.data`: a `data`/`file_data` value beside a mime
// type or audio format) is replaced by a one-line placeholder naming its kind, type, decoded size and sha256,
// whatever its size, so a one-page PDF is elided like a photo. Other bare base64 is elided only when large, since
// a short one may be an ordinary value. Pure and client-safe; the exact-bytes view is untouched.

import { mediaKindName } from "@/components/ui/media-kind";

/** Bare base64 outside a media field stays inline below this length: it may not be media at all. */
export const INLINE_BASE64_LIMIT = 2_048;

export interface ElidedMedia {
  /** Where the string was, as a JSON path: "messages.1.content.0.image_url.url". */
  path: string;
  mediaType: string;
  bytes: number;
  base64: string;
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w-]+=[^;,]*)*;base64,/;
const BARE_BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const MIME_KEYS = ["mimeType", "mime_type", "mediaType", "media_type"];
/** The keys that hold a media part's bare base64 in the four wire formats. */
const MEDIA_DATA_KEYS = new Set(["data", "file_data"]);
/** OpenAI chat's `input_audio` names its format instead of a mime type. */
const AUDIO_FORMATS: Record<string, string> = { wav: "audio/wav", mp3: "audio/mpeg" };

function decodedBytes(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

function siblingMime(parent: unknown): string | null {
  if (!parent || typeof parent !== "object" || Array.isArray(parent)) return null;
  for (const key of MIME_KEYS) {
    const value = (parent as Record<string, unknown>)[key];
    if (typeof value === "string") return value;
  }
  const format = (parent as Record<string, unknown>).format;
  return typeof format === "string" ? (AUDIO_FORMATS[format] ?? null) : null;
}

function asMedia(value: string, parent: unknown, key: string, path: string): ElidedMedia | null {
  const dataUrl = DATA_URL.exec(value);
  if (dataUrl) {
    const base64 = value.slice(dataUrl[0].length);
    return { path, mediaType: dataUrl[1] ?? "application/octet-stream", bytes: decodedBytes(base64), base64 };
  }
  if (!BARE_BASE64.test(value)) return null;
  const mediaType = siblingMime(parent);
  const inMediaField = MEDIA_DATA_KEYS.has(key) && mediaType !== null;
  if (!inMediaField && value.length < INLINE_BASE64_LIMIT) return null;
  return {
    path,
    mediaType: mediaType ?? "application/octet-stream",
    bytes: decodedBytes(value),
    base64: value,
  };
}

export function formatMediaBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function mediaPlaceholder(media: ElidedMedia, sha256: string | null): string {
  return `[${mediaKindName(media.mediaType)} elided: ${media.mediaType}, ${formatMediaBytes(media.bytes)}, sha256 ${sha256 ?? "…"}]`;
}

/**
 * The body pretty-printed with large base64 media replaced by placeholders (hashes from `hashes` by path, "…"
 * while unknown), and the media found; null when the body is not JSON.
 */
export function prettyWithoutMedia(
  body: string,
  hashes: ReadonlyMap<string, string> = new Map(),
): { text: string; media: ElidedMedia[] } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const media: ElidedMedia[] = [];
  const walk = (value: unknown, parent: unknown, key: string, path: string): unknown => {
    if (typeof value === "string") {
      const found = asMedia(value, parent, key, path);
      if (!found) return value;
      media.push(found);
      return mediaPlaceholder(found, hashes.get(path) ?? null);
    }
    if (Array.isArray(value))
      return value.map((entry, index) =>
        walk(entry, value, `${index}`, path ? `${path}.${index}` : `${index}`),
      );
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value).map(([entryKey, entry]) => [
          entryKey,
          walk(entry, value, entryKey, path ? `${path}.${entryKey}` : entryKey),
        ]),
      );
    }
    return value;
  };
  const shown = walk(parsed, null, "", "");
  return { text: JSON.stringify(shown, null, 2), media };
}

/** The sha256 (hex) of the decoded bytes of a base64 string. */
export async function sha256OfBase64(base64: string): Promise<string> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
