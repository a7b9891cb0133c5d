// GET /api/attachments/:id: the bytes of an attachment, to those who may read its conversation. A bad id, an
// unknown one and someone else's are the same 404, so ids cannot be probed. The stored mime is always one the
// upload proved from the bytes, and nosniff keeps the browser from second-guessing it. A `Range` of one span is
// answered with 206; the bytes are streamed in slices read from the database one at a time, so a large image is
// never held whole in memory by a request.

import { getReadableAttachmentInfo, readAttachmentBytes } from "@/db/attachment-queries";
import { getDb } from "@/db/client";
import { parseRange } from "@/lib/api/byte-range";
import { parseId, requireUser, route } from "@/lib/api/route";
import { AppError, notFound } from "@/lib/domain/errors";
import { logger } from "@/lib/logger";

export const dynamic = "force-dynamic";

/** Bytes read from the database per slice of the response. */
const SLICE_BYTES = 192 * 1024;

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const user = await requireUser(request);
  const attachmentId = parseId((await params).id, "Attachment");
  const db = await getDb();
  const attachment = await getReadableAttachmentInfo({ db, attachmentId, userId: user.id });
  if (!attachment) throw notFound("Attachment");
  const size = attachment.sizeBytes;
  const range = parseRange(request.headers.get("range"), size);
  if (range === "unsatisfiable") {
    throw new AppError(
      "range_not_satisfiable",
      `The requested range is outside the attachment, which is ${size} bytes long.`,
      { headers: { "Content-Range": `bytes */${size}` } },
    );
  }
  const span = range === "all" ? { start: 0, end: size - 1 } : range;
  const length = Math.max(0, span.end - span.start + 1);
  let next = span.start;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next > span.end) {
        controller.close();
        return;
      }
      const end = Math.min(span.end, next + SLICE_BYTES - 1);
      try {
        const bytes = await readAttachmentBytes({ db, storageKey: attachment.storageKey, start: next, end });
        next = end + 1;
        controller.enqueue(new Uint8Array(bytes));
      } catch (error) {
        logger.warn({ err: error, attachmentId }, "attachment read failed mid-response");
        controller.error(error);
      }
    },
  });
  return new Response(length === 0 ? null : body, {
    status: range === "all" ? 200 : 206,
    headers: {
      "Content-Type": attachment.mime,
      "Content-Length": String(length),
      "Accept-Ranges": "bytes",
      ...(range === "all" ? {} : { "Content-Range": `bytes ${span.start}-${span.end}/${size}` }),
      "X-Content-Type-Options": "nosniff",
      // An attachment's bytes never change under its id; "private" keeps shared caches from serving them.
      "Cache-Control": "private, max-age=31536000, immutable",
      "Content-Disposition": "inline",
    },
  });
});
