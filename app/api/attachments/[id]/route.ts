// GET /api/attachments/:id: the bytes of an attachment, to those who may read its conversation. A bad id, an
// unknown one and someone else's are the same 404, so ids cannot be probed. The stored mime is always one the
// upload sniffed from the bytes, and nosniff keeps the browser from second-guessing it.
import { getDb } from "@/db/client";
import { getReadableAttachment } from "@/db/queries";
import { parseId, requireUser, route } from "@/lib/api/route";
import { notFound } from "@/lib/errors";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const user = await requireUser(request);
  const attachmentId = parseId((await params).id, "Attachment");
  const db = await getDb();
  const found = await getReadableAttachment({ db, attachmentId, userId: user.id });
  if (!found) throw notFound("Attachment");
  const bytes = Buffer.from(found.data, "base64");
  return new Response(bytes, {
    headers: {
      "Content-Type": found.attachment.mime,
      "Content-Length": String(bytes.byteLength),
      "X-Content-Type-Options": "nosniff",
      // An attachment's bytes never change under its id; "private" keeps shared caches from serving them.
      "Cache-Control": "private, max-age=31536000, immutable",
      "Content-Disposition": "inline",
    },
  });
});
