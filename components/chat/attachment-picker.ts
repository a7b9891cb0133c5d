"use client";
// The files picked for the next message: each uploads at once (so the message itself stays small), shows as a
// chip while it does, and can be removed before sending. A refused file shows the server's reason.
import { useCallback, useState } from "react";
import { type UploadedAttachment, uploadAttachment } from "./api";

/**
 * What the file picker offers: the types the server accepts (it decides from the bytes, see lib/media/sniff.ts),
 * with the extensions too, since browsers name some audio and video types differently.
 */
export const ACCEPTED_UPLOAD_TYPES = [
  "image/png,image/jpeg,image/gif,image/webp",
  "application/pdf,.pdf",
  "audio/mpeg,audio/wav,audio/x-wav,audio/ogg,audio/flac,audio/mp4,audio/x-m4a,.mp3,.wav,.ogg,.flac,.m4a",
  "video/mp4,video/webm,video/quicktime,.mp4,.webm,.mov",
].join(",");

export type PendingAttachment =
  | { key: string; name: string; state: "uploading" }
  | { key: string; name: string; state: "ready"; attachment: UploadedAttachment }
  | { key: string; name: string; state: "failed"; error: string };

let nextKey = 0;

export function useAttachmentPicker(conversationId: string) {
  const [pending, setPending] = useState<PendingAttachment[]>([]);

  const add = useCallback(
    (files: Iterable<File>) => {
      for (const file of files) {
        const key = `upload-${nextKey++}`;
        setPending((current) => [...current, { key, name: file.name, state: "uploading" }]);
        uploadAttachment(conversationId, file).then(
          (attachment) =>
            setPending((current) =>
              current.map((entry) =>
                entry.key === key ? { key, name: file.name, state: "ready", attachment } : entry,
              ),
            ),
          (error: unknown) =>
            setPending((current) =>
              current.map((entry) =>
                entry.key === key
                  ? {
                      key,
                      name: file.name,
                      state: "failed",
                      error: error instanceof Error ? error.message : String(error),
                    }
                  : entry,
              ),
            ),
        );
      }
    },
    [conversationId],
  );
  const remove = useCallback(
    (key: string) => setPending((current) => current.filter((entry) => entry.key !== key)),
    [],
  );
  const clear = useCallback(() => setPending([]), []);

  const ready = pending.flatMap((entry) => (entry.state === "ready" ? [entry.attachment] : []));
  const uploading = pending.some((entry) => entry.state === "uploading");
  return { pending, ready, uploading, add, remove, clear };
}
