// The checks every stored upload passes, from its bytes alone (the name and the declared type decide nothing):
// the kind from the signature, so a file over its kind's limit is refused before it is walked; then the whole
// file (an image's structure to its end, sniff.ts). The chat's upload route and the gateway's image parts both
// store only what passes here, with storeUpload (db/attachment-queries.ts).

import "server-only";
import { AppError } from "@/lib/domain/errors";
import { type SniffedImage, type SniffedMedia, sniffUpload, sniffUploadType } from "./sniff";
import { checkKindSize } from "./upload-limits";

const ACCEPTED =
  "upload a JPEG, PNG, GIF or WebP image, a PDF, an MP3, WAV, OGG, FLAC or M4A audio clip, or an MP4, WebM or MOV video (SVG is not accepted)";

/**
 * What the bytes are, once they pass: a 415 when they are no type this app accepts (or a broken image), a 413
 * when they are over their kind's limit. `declared` is only named in the 415's sentence.
 */
export function checkUploadBytes(bytes: Uint8Array, declared = ""): SniffedImage | SniffedMedia {
  const type = sniffUploadType(bytes);
  if (!type) throw notAcceptedType(declared);
  checkKindSize(type.kind, bytes.byteLength);
  return sniffUpload(bytes) ?? type;
}

/** A 415 that says what the bytes are not, naming the type the client declared when it declared one. */
function notAcceptedType(declared: string): AppError {
  const claimed = declared && declared !== "application/octet-stream" ? declared : null;
  return new AppError(
    "unsupported_media_type",
    claimed
      ? `The file is declared as ${claimed} but its bytes are not a file this app accepts: ${ACCEPTED}.`
      : `The file is not a type this app accepts: ${ACCEPTED}.`,
  );
}
