// POST /api/conversations/:id/branch { messageId }: "branch from here". A new private conversation of the caller
// holding the chosen messages up to and including that one (and the summary when it covers only messages before
// it), linked to its origin. Anyone who may read the conversation may branch it. 201 { id }.
import { z } from "zod";
import { readableConversationRoute } from "@/app/api/conversations/readable-conversation";
import { branchConversation } from "@/db/conversation-branch-queries";
import { respond } from "@/lib/api/respond";
import { readJson } from "@/lib/api/route";

export const dynamic = "force-dynamic";

const branchRequestSchema = z.strictObject({
  messageId: z.uuid({ error: "messageId must be the id of a message of this conversation" }),
});

export const POST = readableConversationRoute(async ({ user, db, conversation: source }, request) => {
  const { messageId } = await readJson(request, branchRequestSchema);
  const branch = await branchConversation({ db, source, messageId, ownerId: user.id });
  return respond(
    "POST /api/conversations/:id/branch",
    { id: branch.id, title: branch.title },
    { status: 201 },
  );
});
