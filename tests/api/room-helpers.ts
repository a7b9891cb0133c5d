// The people routes called in-process, shared by the room tests: invite by email, accept, list, remove or leave;
// and the conversation's own PATCH (title, model).
import * as participantRoute from "@/app/api/conversations/[id]/participants/[userId]/route";
import * as participantsRoute from "@/app/api/conversations/[id]/participants/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import { call, type TestUser } from "../api-client";

export function invite(user: TestUser, conversationId: string, email: string) {
  return call(participantsRoute.POST, `/api/conversations/${conversationId}/participants`, {
    user,
    method: "POST",
    params: { id: conversationId },
    body: { email },
  });
}

/** `user` accepts the invitation of `participantId` (their own unless a test forges someone else's). */
export function accept(user: TestUser, conversationId: string, participantId = user.id) {
  return call(participantRoute.PATCH, `/api/conversations/${conversationId}/participants/${participantId}`, {
    user,
    method: "PATCH",
    params: { id: conversationId, userId: participantId },
    body: { status: "accepted" },
  });
}

/** The owner invites and the invitee accepts: what "adding someone" takes. */
export async function join(owner: TestUser, invitee: TestUser, conversationId: string): Promise<void> {
  const invited = await invite(owner, conversationId, invitee.email);
  if (invited.status !== 202) throw new Error(`invite failed: ${invited.status} ${await invited.text()}`);
  const accepted = await accept(invitee, conversationId);
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.status} ${await accepted.text()}`);
}

export function people(user: TestUser, conversationId: string) {
  return call(participantsRoute.GET, `/api/conversations/${conversationId}/participants`, {
    user,
    params: { id: conversationId },
  });
}

export function removeParticipant(user: TestUser, conversationId: string, userId: string) {
  return call(participantRoute.DELETE, `/api/conversations/${conversationId}/participants/${userId}`, {
    user,
    method: "DELETE",
    params: { id: conversationId, userId },
  });
}

/** `user` changes the conversation's settings (title, model…) with `body`. */
export function patchConversation(user: TestUser, conversationId: string, body: unknown) {
  return call(conversationRoute.PATCH, `/api/conversations/${conversationId}`, {
    user,
    method: "PATCH",
    params: { id: conversationId },
    body,
  });
}
