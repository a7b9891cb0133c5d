// The largest file of each kind (docs/features.md#documents-audio-and-video), from the configuration. The
// multipart reader stops at the largest of them; the kind, known once the bytes are sniffed, then has its own.
import "server-only";
import { env, type ServerEnvironment } from "@/lib/config/env";
import { AppError } from "@/lib/domain/errors";
import { KIND_NAMES, type NonImageKind } from "./sniff";

export type UploadKind = "image" | NonImageKind;

/** Images one message may carry: the chat's uploads (app/api/chat/schema.ts) and a gateway call's image parts. */
export const MAX_MESSAGE_IMAGES = 10;

/** The setting that holds each kind's largest file. */
const MAX_BYTES_SETTING = {
  image: "MEDIA_MAX_IMAGE_BYTES",
  file: "MEDIA_MAX_PDF_BYTES",
  audio: "MEDIA_MAX_AUDIO_BYTES",
  video: "MEDIA_MAX_VIDEO_BYTES",
} as const satisfies Record<UploadKind, keyof ServerEnvironment>;

export function maxBytesFor(kind: UploadKind): number {
  return env()[MAX_BYTES_SETTING[kind]];
}

/** The most any upload may carry: the largest of the per-kind limits. */
export function maxUploadBytes(): number {
  return Math.max(...(["image", "file", "audio", "video"] as const).map(maxBytesFor));
}

/** A 413 when the file is over its kind's limit. */
export function checkKindSize(kind: UploadKind, sizeBytes: number): void {
  const limit = maxBytesFor(kind);
  if (sizeBytes <= limit) return;
  const name = KIND_NAMES[kind];
  throw new AppError(
    "payload_too_large",
    `The ${name} is larger than ${formatMegabytes(limit)}, the limit for ${name}s (it is ${formatMegabytes(sizeBytes)}).`,
  );
}

export function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
