// POST /api/conversations/import: an archive from GET /api/conversations/:id/export becomes a new private
// conversation of the caller (fresh ids, the persona matched by id, then name, else the default one). The archive
// is checked whole before anything is stored. 201 { id, title, notices }.
import { getDb } from "@/db/client";
import { respond } from "@/lib/api/respond";
import { readJson, requireUser, route } from "@/lib/api/route";
import { conversationArchiveSchema } from "@/lib/export/conversation-archive";
import { importConversation } from "@/lib/export/import-conversation";

export const dynamic = "force-dynamic";

/** An archive carries its images' bytes: room for a few uploads' worth. */
const MAX_ARCHIVE_BYTES = 32 * 1024 * 1024;

/**
 * One JSON value per 8 bytes of the byte cap (4 194 304). Export's densest shape is a prompt item of a short
 * message (`{"role":"user","content":[{"type":"text","text":"ok"}]}`: 6 values in 55 bytes, 9 bytes each) and a
 * bare archived message is 17 values in about 250 bytes, so every archive export writes within the byte cap fits,
 * the schema's 100 000 messages (1.7 million values) with room to spare. A body of bare numbers (2 bytes each)
 * could hold four times as many; parsed, a value costs 8 bytes (a small number in a list) to tens (an object), so
 * this cap, not the byte cap, is what bounds the parse.
 */
const MAX_ARCHIVE_VALUES = MAX_ARCHIVE_BYTES / 8;

/** The longest string: a blob's base64, 4 characters per 3 bytes of an upload, fits with room. */
const MAX_ARCHIVE_STRING_CHARS = MAX_ARCHIVE_BYTES;

export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  const archive = await readJson(request, conversationArchiveSchema, {
    maxBytes: MAX_ARCHIVE_BYTES,
    maxElements: MAX_ARCHIVE_VALUES,
    maxStringChars: MAX_ARCHIVE_STRING_CHARS,
  });
  const outcome = await importConversation({ db: await getDb(), archive, ownerId: user.id });
  return respond(
    "POST /api/conversations/import",
    { id: outcome.conversationId, title: outcome.title, notices: outcome.notices },
    { status: 201 },
  );
});
