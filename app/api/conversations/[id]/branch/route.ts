// POST /api/conversations/:id/branch { messageId }: "branch from here". A new private conversation of the caller
// holding the chosen messages up to and including that one (and the summary when it covers only messages before
// it), linked to its origin. Anyone who may read the conversation may branch it. 201 { id }.
import { z } from "zod";
import { getDb } from "@/db/client";
import { branchConversation } from "@/db/message-queries";
import { getReadableConversation } from "@/db/queries";
import { parseId, readJson, requireUser, route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

const branchRequestSchema = z.strictObject({
  messageId: z.uuid({ error: "messageId must be the id of a message of this conversation" }),
});

export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  const db = await getDb();
  const source = await getReadableConversation({ db, conversationId, userId: user.id });
  const { messageId } = await readJson(request, branchRequestSchema);
  const branch = await branchConversation({ db, source, messageId, ownerId: user.id });
  return Response.json({ id: branch.id, title: branch.title }, { status: 201 });
});
