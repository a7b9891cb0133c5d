// DELETE /api/conversations/:id/participants/:userId: the owner takes a member out or withdraws an invitation, a
// member leaves, or the invited user declines an invitation. The owner cannot be removed (409); what they wrote
// stays in the conversation. The owner gets 204 for any id, invited or not, an account or not: an invitation is
// sent to an email and never says whether an account has it (../route.ts), and a 404 here would. PATCH with
// { status: "accepted" }: the invited user accepts, and becomes a member. 204/200; 404 to the invited user when
// there is no such invitation (the same answer for a conversation the caller may not see).
import type { ConversationContext } from "@/app/api/conversations/readable-conversation";
import { getDb } from "@/db/client";
import { getReadableConversation } from "@/db/conversation-queries";
import { acceptInvitation, declineInvitation, removeParticipant } from "@/db/participant-queries";
import { parseId, readJson, requireUser, route } from "@/lib/api/route";
import { AppError } from "@/lib/domain/errors";
import { publishMembersChange } from "@/lib/live/publish";
import { invitationAnswerSchema } from "../schema";

export const dynamic = "force-dynamic";

export const DELETE = route(async (request: Request, { params }: ConversationContext<"userId">) => {
  const user = await requireUser(request);
  const { id, userId } = await params;
  const conversationId = parseId(id, "Conversation");
  const db = await getDb();
  let conversation: Awaited<ReturnType<typeof getReadableConversation>>;
  try {
    conversation = await getReadableConversation({ db, conversationId, userId: user.id });
  } catch (error) {
    // Not readable yet: perhaps an invitation to this conversation, which its invitee may decline.
    if (error instanceof AppError && error.code === "not_found" && userId === user.id) {
      await declineInvitation({ db, conversationId, userId: user.id }).catch(() => {
        throw error;
      });
      return new Response(null, { status: 204 });
    }
    throw error;
  }
  if (conversation.ownerId !== user.id && userId !== user.id) {
    throw new AppError("forbidden", "Only the owner can take someone else out of the conversation.");
  }
  if (userId === conversation.ownerId) {
    throw new AppError("conflict", "The owner cannot leave their own conversation: delete it instead.");
  }
  const removed = await removeParticipant({ db, conversationId: conversation.id, userId }).then(
    () => true,
    (error: unknown) => {
      // Nobody by that id was in it or invited: withdrawn all the same.
      if (error instanceof AppError && error.code === "not_found") return false;
      throw error;
    },
  );
  if (removed) void publishMembersChange({ db, conversationId });
  return new Response(null, { status: 204 });
});

export const PATCH = route(async (request: Request, { params }: ConversationContext<"userId">) => {
  const user = await requireUser(request);
  const { id, userId } = await params;
  const conversationId = parseId(id, "Conversation");
  await readJson(request, invitationAnswerSchema);
  if (userId !== user.id) throw new AppError("not_found", "Invitation not found");
  const db = await getDb();
  const participant = await acceptInvitation({ db, conversationId, userId: user.id });
  void publishMembersChange({ db, conversationId });
  return Response.json({ participant });
});
