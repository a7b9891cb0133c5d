// The people of a conversation (rooms). GET: everyone who may read it sees who is in it (members who
// accepted, and the owner). POST: the owner invites an account by email. 202 whatever the email: the invitation
// waits for the invited account to accept it (GET /api/invitations), and the answer never says whether an account
// has that email or is in the conversation already.

import {
  type ConversationContext,
  readableConversationRoute,
} from "@/app/api/conversations/readable-conversation";
import { getDb } from "@/db/client";
import { getOwnedConversation, inviteParticipant, listParticipants } from "@/db/queries";
import { parseId, readJson, requireUser, route } from "@/lib/api/route";
import { inviteSchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = readableConversationRoute(async ({ db, conversationId }) => {
  return Response.json({ participants: await listParticipants({ db, conversationId }) });
});

export const POST = route(async (request: Request, { params }: ConversationContext) => {
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  const body = await readJson(request, inviteSchema);
  const db = await getDb();
  await getOwnedConversation({ db, conversationId, userId: user.id });
  const email = body.email.trim();
  await inviteParticipant({ db, conversationId, email });
  return Response.json(
    {
      invitation: {
        email,
        status: "sent",
        message: `If ${email} has an account, they can accept the invitation from their Invitations page; they appear here once they do.`,
      },
    },
    { status: 202 },
  );
});
