// What an uploaded file really is, from its bytes alone: the name and the declared type are whatever the client
// says, so they decide nothing. Only the four raster formats every model and browser takes are recognised; SVG
// (script inside an "image"), PDF, text and everything else is null, and the upload route refuses it. A file that
// starts like one of the four must also be one, whole: `sniffImage` walks its structure to the end (see
// verify-image.ts) and reads its dimensions with image-size, and refuses it with a 415 that says what is wrong.

import { imageSize } from "image-size";
import { AppError } from "@/lib/domain/errors";
import { IMAGE_MIMES, type ImageMime } from "./image-mimes";
import { imageStructureProblem } from "./verify-image";

export interface SniffedImage {
  kind: "image";
  mime: ImageMime;
  /** From the header when it is cheap to read; null when the header does not say (or says 0). */
  width: number | null;
  height: number | null;
}

type Sniffer = (bytes: Buffer) => SniffedImage | null;

const SNIFFERS: Sniffer[] = [sniffJpeg, sniffPng, sniffGif, sniffWebp];

/** The type the first bytes say, with what the header says of the size: no proof that the rest is there. */
export function sniffImageType(input: Uint8Array): SniffedImage | null {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  for (const sniff of SNIFFERS) {
    const found = sniff(bytes);
    if (found) return found;
  }
  return null;
}

const FORMAT_NAMES: Record<ImageMime, string> = {
  "image/jpeg": "JPEG",
  "image/png": "PNG",
  "image/gif": "GIF",
  "image/webp": "WebP",
};

/** image-size's name for each type, to check that the decoder read the file as the type the bytes claim. */
const DECODER_TYPES: Record<ImageMime, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
};

/**
 * A whole image of one of the four types, with its dimensions; null when the bytes are not one of the four at
 * all. Throws a 415 AppError when they start like one but are not a whole, readable image of it.
 */
export function sniffImage(input: Uint8Array): SniffedImage | null {
  const found = sniffImageType(input);
  if (!found) return null;
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const format = FORMAT_NAMES[found.mime];
  const problem = imageStructureProblem(bytes, found.mime);
  if (problem) throw notAWholeImage(`The file starts like a ${format} image but ${problem}.`);
  let decoded: { width?: number; height?: number; type?: string };
  try {
    decoded = imageSize(input);
  } catch {
    throw notAWholeImage(`The file starts like a ${format} image but its size cannot be read.`);
  }
  if (decoded.type !== DECODER_TYPES[found.mime] || !decoded.width || !decoded.height) {
    throw notAWholeImage(`The file starts like a ${format} image but does not say its width and height.`);
  }
  return image(found.mime, decoded.width, decoded.height);
}

function notAWholeImage(message: string): AppError {
  return new AppError("unsupported_media_type", `${message} Upload a complete JPEG, PNG, GIF or WebP file.`);
}

function image(mime: ImageMime, width: number | null, height: number | null): SniffedImage {
  return { kind: "image", mime, width: width || null, height: height || null };
}

function startsWith(bytes: Buffer, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((byte, index) => bytes[at + index] === byte);
}

function ascii(bytes: Buffer, at: number, length: number): string {
  return bytes.length < at + length ? "" : bytes.toString("latin1", at, at + length);
}

// PNG: 8-byte signature, then the IHDR chunk (length, "IHDR", width, height as big-endian 32-bit).
function sniffPng(bytes: Buffer): SniffedImage | null {
  if (!startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return null;
  if (ascii(bytes, 12, 4) !== "IHDR" || bytes.length < 24) return image("image/png", null, null);
  return image("image/png", bytes.readUInt32BE(16), bytes.readUInt32BE(20));
}

// GIF: "GIF87a" or "GIF89a", then the logical screen width and height as little-endian 16-bit.
function sniffGif(bytes: Buffer): SniffedImage | null {
  const signature = ascii(bytes, 0, 6);
  if (signature !== "GIF87a" && signature !== "GIF89a") return null;
  if (bytes.length < 10) return image("image/gif", null, null);
  return image("image/gif", bytes.readUInt16LE(6), bytes.readUInt16LE(8));
}

// WebP: "RIFF" <size> "WEBP", then the first chunk says which of the three bitstreams follows.
function sniffWebp(bytes: Buffer): SniffedImage | null {
  if (ascii(bytes, 0, 4) !== "RIFF" || ascii(bytes, 8, 4) !== "WEBP") return null;
  const chunk = ascii(bytes, 12, 4);
  const data = 20; // chunk payload, after its 4-byte type and 4-byte size
  // Lossy: 3-byte frame tag, start code 9D 01 2A, then 14-bit width and height (top 2 bits are scaling).
  if (chunk === "VP8 " && startsWith(bytes, [0x9d, 0x01, 0x2a], data + 3) && bytes.length >= data + 10) {
    return image("image/webp", bytes.readUInt16LE(data + 6) & 0x3fff, bytes.readUInt16LE(data + 8) & 0x3fff);
  }
  // Lossless: signature byte 0x2F, then width − 1 and height − 1 packed as two 14-bit fields.
  if (chunk === "VP8L" && bytes[data] === 0x2f && bytes.length >= data + 5) {
    const packed = bytes.readUInt32LE(data + 1);
    return image("image/webp", (packed & 0x3fff) + 1, ((packed >>> 14) & 0x3fff) + 1);
  }
  // Extended: flags and 3 reserved bytes, then canvas width − 1 and height − 1 as little-endian 24-bit.
  if (chunk === "VP8X" && bytes.length >= data + 10) {
    return image("image/webp", bytes.readUIntLE(data + 4, 3) + 1, bytes.readUIntLE(data + 7, 3) + 1);
  }
  return image("image/webp", null, null);
}

// JPEG: FF D8 FF, then segments (FF <marker> <16-bit length> …) until a start-of-frame gives height and width.
// Every SOFn has the same layout; C4 (DHT), C8 (JPG) and CC (DAC) share the range but are not frames.
function sniffJpeg(bytes: Buffer): SniffedImage | null {
  if (!startsWith(bytes, [0xff, 0xd8, 0xff])) return null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) break; // not a marker where one must be: stop looking, the signature still holds
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte before a marker
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image, or start of scan: no frame header before it
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers that stand alone, without a length
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame && at + 9 <= bytes.length) {
      return image("image/jpeg", bytes.readUInt16BE(at + 7), bytes.readUInt16BE(at + 5));
    }
    if (length < 2) break;
    at += 2 + length;
  }
  return image("image/jpeg", null, null);
}

// ---------------------------------------------------------------------------------------------------------------
// Documents, audio and video (docs/features.md#documents-audio-and-video): recognised by their container's
// signature. Their contents are not decoded here; the provider reads them. A PDF must also end like one (its
// `%%EOF` marker near the end), so a truncated upload is refused rather than sent.

export type NonImageKind = "file" | "audio" | "video";

export const DOCUMENT_MIMES = ["application/pdf"] as const;
export const AUDIO_MIMES = ["audio/mpeg", "audio/wav", "audio/ogg", "audio/flac", "audio/mp4"] as const;
export const VIDEO_MIMES = ["video/mp4", "video/webm", "video/quicktime"] as const;

export interface SniffedMedia {
  kind: NonImageKind;
  mime: (typeof DOCUMENT_MIMES)[number] | (typeof AUDIO_MIMES)[number] | (typeof VIDEO_MIMES)[number];
  width: null;
  height: null;
}

/** Every type an upload may be, for the composer's file picker and the messages that list them. */
export const ACCEPTED_UPLOAD_MIMES: readonly string[] = [
  ...IMAGE_MIMES,
  ...DOCUMENT_MIMES,
  ...AUDIO_MIMES,
  ...VIDEO_MIMES,
];

/** What each kind is called in messages to people ("a PDF", "an audio clip"). */
export const KIND_NAMES: Record<SniffedImage["kind"] | NonImageKind, string> = {
  image: "image",
  file: "PDF document",
  audio: "audio clip",
  video: "video",
};

/** ISO base media (MP4, M4A, MOV): `ftyp` at offset 4, then the major brand. */
const AUDIO_BRANDS = new Set(["M4A ", "M4B ", "M4P "]);
const QUICKTIME_BRANDS = new Set(["qt  "]);

function sniffIsoMedia(bytes: Buffer): SniffedMedia | null {
  if (ascii(bytes, 4, 4) !== "ftyp") return null;
  const brand = ascii(bytes, 8, 4);
  if (brand === "") return null;
  if (AUDIO_BRANDS.has(brand)) return media("audio", "audio/mp4");
  if (QUICKTIME_BRANDS.has(brand)) return media("video", "video/quicktime");
  // isom, iso2…iso9, mp41, mp42, avc1, dash, M4V, 3gp…: the video family of the format.
  return /^[\x20-\x7e]{4}$/.test(brand) ? media("video", "video/mp4") : null;
}

// EBML header (1A 45 DF A3), then a DocType element (42 82) whose value says "webm" (Matroska is not accepted).
function sniffWebm(bytes: Buffer): SniffedMedia | null {
  if (!startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return null;
  const header = bytes.subarray(0, Math.min(bytes.length, 64)).toString("latin1");
  const docType = header.indexOf("\u0042\u0082");
  return docType >= 0 && header.slice(docType + 3, docType + 7) === "webm"
    ? media("video", "video/webm")
    : null;
}

// MP3: an ID3v2 tag, or an MPEG audio frame sync (11 set bits) whose layer bits say layer III.
function sniffMp3(bytes: Buffer): SniffedMedia | null {
  if (ascii(bytes, 0, 3) === "ID3") return media("audio", "audio/mpeg");
  if (
    bytes.length >= 4 &&
    bytes[0] === 0xff &&
    (bytes[1] & 0xe0) === 0xe0 &&
    ((bytes[1] >> 1) & 0x03) === 1
  ) {
    return media("audio", "audio/mpeg");
  }
  return null;
}

const MEDIA_SNIFFERS: Array<(bytes: Buffer) => SniffedMedia | null> = [
  (bytes) => (ascii(bytes, 0, 5) === "%PDF-" ? media("file", "application/pdf") : null),
  (bytes) =>
    ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WAVE" ? media("audio", "audio/wav") : null,
  (bytes) => (ascii(bytes, 0, 4) === "OggS" ? media("audio", "audio/ogg") : null),
  (bytes) => (ascii(bytes, 0, 4) === "fLaC" ? media("audio", "audio/flac") : null),
  sniffIsoMedia,
  sniffWebm,
  sniffMp3,
];

/** A PDF's trailer ends with `%%EOF`, perhaps followed by a line end or some padding. */
const PDF_TAIL_BYTES = 1_024;

/** The type an upload's first bytes say (an image, a PDF, an audio clip or a video), before any proof it is whole. */
export function sniffUploadType(input: Uint8Array): SniffedImage | SniffedMedia | null {
  const image = sniffImageType(input);
  if (image) return image;
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  for (const sniff of MEDIA_SNIFFERS) {
    const found = sniff(bytes);
    if (found) return found;
  }
  return null;
}

/**
 * What an upload is, from its bytes: a whole image (see sniffImage), a PDF, an audio clip or a video; null when
 * it is none of them. Throws a 415 AppError for an image that is not whole and a PDF that is cut short.
 */
export function sniffUpload(input: Uint8Array): SniffedImage | SniffedMedia | null {
  const found = sniffUploadType(input);
  if (found === null) return null;
  if (found.kind === "image") return sniffImage(input);
  if (found.mime === "application/pdf") {
    const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    const tail = bytes.subarray(Math.max(0, bytes.length - PDF_TAIL_BYTES)).toString("latin1");
    if (!tail.includes("%%EOF")) {
      throw new AppError(
        "unsupported_media_type",
        "The file starts like a PDF but is truncated (it has no %%EOF end marker). Upload the complete PDF.",
      );
    }
  }
  return found;
}

function media(kind: NonImageKind, mime: SniffedMedia["mime"]): SniffedMedia {
  return { kind, mime, width: null, height: null };
}
