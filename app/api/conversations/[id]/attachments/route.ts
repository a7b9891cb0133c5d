// POST /api/conversations/:id/attachments: upload one image (multipart/form-data, field `file`) for the next
// message of a conversation the user may read. The type comes from the bytes, never the name or declared type:
// JPEG, PNG, GIF and WebP only (SVG can carry script). 201 with the attachment and the url it is served at; the
// chat request then sends that url as a file part. Nothing is stored when a check fails.

import { readableConversationRoute } from "@/app/api/conversations/readable-conversation";
import { storeUpload } from "@/db/queries";
import { AppError } from "@/lib/errors";
import { toAttachmentView } from "@/lib/media/attachment-view";
import { MAX_UPLOAD_BYTES, readUploadForm, uploadTooLarge } from "@/lib/media/read-upload";
import { sniffImage } from "@/lib/media/sniff";
import { uploadFormSchema } from "./schema";

export const dynamic = "force-dynamic";

export const POST = readableConversationRoute(async ({ user, db, conversationId }, request) => {
  const { file, filename } = (await readUploadForm(request, uploadFormSchema)).file;
  if (file.size > MAX_UPLOAD_BYTES) throw uploadTooLarge();
  if (file.size === 0) throw new AppError("bad_request", "file: the file is empty.");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const image = sniffImage(bytes);
  if (!image) {
    throw new AppError(
      "unsupported_media_type",
      "The file is not an image this app accepts: upload a JPEG, PNG, GIF or WebP (SVG is not accepted).",
    );
  }
  const attachment = await storeUpload({
    db,
    conversationId,
    uploadedBy: user.id,
    bytes,
    mime: image.mime,
    kind: image.kind,
    filename,
    width: image.width,
    height: image.height,
  });
  return Response.json({ attachment: toAttachmentView(attachment) }, { status: 201 });
});
