// What the API says about an attachment: enough to show it and to send it with a message (by its url), without
// the storage details (sha256, storage key, uploader).
import type { Attachment } from "@/db/schema";

export interface AttachmentView {
  id: string;
  kind: Attachment["kind"];
  mime: string;
  filename: string | null;
  sizeBytes: number;
  width: number | null;
  height: number | null;
  /** Where the bytes are served, to those who may read the conversation. */
  url: string;
}

export function attachmentUrl(attachmentId: string): string {
  return `/api/attachments/${attachmentId}`;
}

export function toAttachmentView(attachment: Attachment): AttachmentView {
  const { id, kind, mime, filename, sizeBytes, width, height } = attachment;
  return { id, kind, mime, filename, sizeBytes, width, height, url: attachmentUrl(id) };
}
