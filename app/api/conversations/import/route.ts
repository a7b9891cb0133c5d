// POST /api/conversations/import: an archive from GET /api/conversations/:id/export becomes a new private
// conversation of the caller (fresh ids, the persona matched by id, then name, else the default one). The archive
// is checked whole before anything is stored. 201 { id, title, notices }.
import { getDb } from "@/db/client";
import { readJson, requireUser, route } from "@/lib/api/route";
import { conversationArchiveSchema } from "@/lib/export/conversation-archive";
import { importConversation } from "@/lib/export/import-conversation";

export const dynamic = "force-dynamic";

/** An archive carries its images' bytes: room for a few uploads' worth. */
const MAX_ARCHIVE_BYTES = 32 * 1024 * 1024;

export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  const archive = await readJson(request, conversationArchiveSchema, { maxBytes: MAX_ARCHIVE_BYTES });
  const outcome = await importConversation({ db: await getDb(), archive, ownerId: user.id });
  return Response.json(
    { id: outcome.conversationId, title: outcome.title, notices: outcome.notices },
    { status: 201 },
  );
});
