// DELETE /api/conversations/:id/participants/:userId: the owner takes a member out, or a member leaves. The owner
// cannot be removed; what they wrote stays in the conversation. 204; 404 when there is no such member.
import { getDb } from "@/db/client";
import { getReadableConversation, removeParticipant } from "@/db/queries";
import { parseId, requireUser, route } from "@/lib/api/route";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

export const DELETE = route(
  async (request: Request, { params }: { params: Promise<{ id: string; userId: string }> }) => {
    const user = await requireUser(request);
    const { id, userId } = await params;
    const conversationId = parseId(id, "Conversation");
    const db = await getDb();
    const conversation = await getReadableConversation({ db, conversationId, userId: user.id });
    if (conversation.ownerId !== user.id && userId !== user.id) {
      throw new AppError("forbidden", "Only the owner can take someone else out of the conversation.");
    }
    await removeParticipant({ db, conversationId: conversation.id, userId });
    return new Response(null, { status: 204 });
  },
);
