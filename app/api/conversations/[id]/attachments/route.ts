// POST /api/conversations/:id/attachments: upload one file (multipart/form-data, field `file`) for the next
// message of a conversation the user may read. The type comes from the bytes, never the name or declared type:
// JPEG, PNG, GIF and WebP images (SVG can carry script), PDF documents, MP3/WAV/OGG/FLAC/M4A audio and
// MP4/WebM/MOV video, each kind under its own size limit (docs/features.md#documents-audio-and-video). 201
// with the attachment and the url it is served at; the chat request then sends that url as a file part. Nothing is
// stored when a check fails.

import { readableConversationRoute } from "@/app/api/conversations/readable-conversation";
import { storeUpload } from "@/db/attachment-queries";
import { respond } from "@/lib/api/respond";
import { AppError } from "@/lib/domain/errors";
import { toAttachmentView } from "@/lib/media/attachment-view";
import { checkUploadBytes } from "@/lib/media/check-upload";
import { readUploadForm, uploadTooLarge } from "@/lib/media/read-upload";
import { maxUploadBytes } from "@/lib/media/upload-limits";
import { uploadFormSchema } from "./schema";

export const dynamic = "force-dynamic";

export const POST = readableConversationRoute(async ({ user, db, conversationId }, request) => {
  const maxFileBytes = maxUploadBytes();
  const { file, filename } = (await readUploadForm(request, uploadFormSchema, { maxFileBytes })).file;
  if (file.size > maxFileBytes) throw uploadTooLarge(maxFileBytes);
  if (file.size === 0) throw new AppError("bad_request", "file: the file is empty.");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const sniffed = checkUploadBytes(bytes, file.type);
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
  return respond(
    "POST /api/conversations/:id/attachments",
    { attachment: toAttachmentView(attachment) },
    { status: 201 },
  );
});
