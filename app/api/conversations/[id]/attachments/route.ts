// POST /api/conversations/:id/attachments: upload one file (multipart/form-data, field `file`) for the next
// message of a conversation the user may read. The type comes from the bytes, never the name or declared type:
// JPEG, PNG, GIF and WebP images (SVG can carry script), PDF documents, MP3/WAV/OGG/FLAC/M4A audio and
// MP4/WebM/MOV video, each kind under its own size limit (docs/features.md#documents-audio-and-video). 201
// with the attachment and the url it is served at; the chat request then sends that url as a file part. Nothing is
// stored when a check fails.

import { readableConversationRoute } from "@/app/api/conversations/readable-conversation";
import { storeUpload } from "@/db/attachment-queries";
import { AppError } from "@/lib/domain/errors";
import { toAttachmentView } from "@/lib/media/attachment-view";
import { readUploadForm, uploadTooLarge } from "@/lib/media/read-upload";
import { sniffUpload, sniffUploadType } from "@/lib/media/sniff";
import { checkKindSize, maxUploadBytes } from "@/lib/media/upload-limits";
import { uploadFormSchema } from "./schema";

export const dynamic = "force-dynamic";

export const POST = readableConversationRoute(async ({ user, db, conversationId }, request) => {
  const maxFileBytes = maxUploadBytes();
  const { file, filename } = (await readUploadForm(request, uploadFormSchema, { maxFileBytes })).file;
  if (file.size > maxFileBytes) throw uploadTooLarge(maxFileBytes);
  if (file.size === 0) throw new AppError("bad_request", "file: the file is empty.");
  const bytes = new Uint8Array(await file.arrayBuffer());
  // The kind first, from the signature alone, so a file over its kind's limit is a 413 before it is walked.
  const type = sniffUploadType(bytes);
  if (!type) throw notAcceptedType(file.type);
  checkKindSize(type.kind, bytes.byteLength);
  const sniffed = sniffUpload(bytes) ?? type;
  const attachment = await storeUpload({
    db,
    conversationId,
    uploadedBy: user.id,
    bytes,
    mime: sniffed.mime,
    kind: sniffed.kind,
    filename,
    width: sniffed.width,
    height: sniffed.height,
  });
  return Response.json({ attachment: toAttachmentView(attachment) }, { status: 201 });
});

const ACCEPTED =
  "upload a JPEG, PNG, GIF or WebP image, a PDF, an MP3, WAV, OGG, FLAC or M4A audio clip, or an MP4, WebM or MOV video (SVG is not accepted)";

/** A 415 that says what the bytes are not, naming the type the browser declared when it declared one. */
function notAcceptedType(declared: string): AppError {
  const claimed = declared && declared !== "application/octet-stream" ? declared : null;
  return new AppError(
    "unsupported_media_type",
    claimed
      ? `The file is declared as ${claimed} but its bytes are not a file this app accepts: ${ACCEPTED}.`
      : `The file is not a type this app accepts: ${ACCEPTED}.`,
  );
}
