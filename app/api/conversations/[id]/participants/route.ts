// The people of a conversation (rooms). GET: everyone who may read it sees who is in it (members who
// accepted, and the owner). POST: the owner invites an account by email. 202 whatever the email: the invitation
// waits for the invited account to accept it (GET /api/invitations), and the answer never says whether an account
// has that email or is in the conversation already.

import {
  type ConversationContext,
  readableConversationRoute,
  requireOwnedConversation,
} from "@/app/api/conversations/readable-conversation";
import { inviteParticipant, listParticipants } from "@/db/participant-queries";
import { respond } from "@/lib/api/respond";
import { route } from "@/lib/api/route";
import { inviteSchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = readableConversationRoute(async ({ db, conversationId }) => {
  return respond("GET /api/conversations/:id/participants", {
    participants: await listParticipants({ db, conversationId }),
  });
});

export const POST = route(async (request: Request, { params }: ConversationContext) => {
  const { db, conversationId, body } = await requireOwnedConversation(request, params, inviteSchema);
  const email = body.email.trim();
  await inviteParticipant({ db, conversationId, email });
  return respond(
    "POST /api/conversations/:id/participants",
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
