// Participants and invitations: who takes part in a conversation, and inviting, accepting, declining, removing.

import "server-only";
import { and, asc, desc, eq, ne, type SQL, sql } from "drizzle-orm";
import { notFound } from "@/lib/domain/errors";
import type { ReadableConversationArgs } from "./conversation-queries";
import { preparedStatement } from "./prepared-statements";
import { type ConversationArgs, inConversation, type UserArgs } from "./query-parts";
import { conversations, participants, user } from "./schema";

export async function listParticipants({ db, conversationId }: ConversationArgs) {
  return participantsStatement(db).execute({ conversationId });
}

const participantsStatement = preparedStatement("listParticipants", (db) =>
  db
    .select({
      userId: participants.userId,
      name: user.name,
      role: participants.role,
      joinedAt: participants.joinedAt,
    })
    .from(participants)
    .innerJoin(user, eq(user.id, participants.userId))
    .where(
      and(
        eq(participants.conversationId, sql.placeholder("conversationId")),
        ne(participants.role, "invited"),
      ),
    )
    .orderBy(asc(participants.joinedAt)),
);

/**
 * Invite someone into a conversation by the email of their account (the owner's call). The
 * invitation is pending until the invited account accepts it; until then it grants nothing. Whether the email
 * has an account, or is in the conversation already, is not told: the inviter gets the same answer either way,
 * and an unknown email stores nothing.
 */
export async function inviteParticipant({
  db,
  conversationId,
  email,
}: ConversationArgs & { email: string }): Promise<void> {
  const [invitee] = await db
    .select({ id: user.id })
    .from(user)
    .where(eq(sql`lower(${user.email})`, email.trim().toLowerCase()))
    .limit(1);
  if (!invitee) return;
  await db
    .insert(participants)
    .values({ conversationId, userId: invitee.id, role: "invited" })
    .onConflictDoNothing();
}

/** The invitations waiting for this user's answer, newest first, with who asked and to what. */
export async function listInvitations({ db, userId }: UserArgs) {
  return db
    .select({
      conversationId: conversations.id,
      title: conversations.title,
      invitedBy: user.name,
      invitedAt: participants.joinedAt,
    })
    .from(participants)
    .innerJoin(conversations, eq(conversations.id, participants.conversationId))
    .innerJoin(user, eq(user.id, conversations.ownerId))
    .where(and(eq(participants.userId, userId), eq(participants.role, "invited")))
    .orderBy(desc(participants.joinedAt));
}

/** One person's place in one conversation (the people routes name both). */
type ParticipantArgs = ReadableConversationArgs;

/** The participant row of `userId` in the conversation, when its role passes `role`. */
function participantRow({ conversationId, userId }: ParticipantArgs, role: SQL) {
  return inConversation(participants, conversationId, eq(participants.userId, userId), role);
}

/** Accept a pending invitation: the user becomes a member and the conversation a room. 404 when none is pending. */
export async function acceptInvitation(args: ParticipantArgs) {
  const { db, conversationId, userId } = args;
  return db.transaction(async (tx) => {
    const [accepted] = await tx
      .update(participants)
      .set({ role: "member", joinedAt: new Date() })
      .where(participantRow(args, eq(participants.role, "invited")))
      .returning();
    if (!accepted) throw notFound("Invitation");
    await tx.update(conversations).set({ visibility: "room" }).where(eq(conversations.id, conversationId));
    const [named] = await tx.select({ name: user.name }).from(user).where(eq(user.id, userId));
    return { userId, name: named?.name ?? "", role: accepted.role, joinedAt: accepted.joinedAt };
  });
}

/** Decline a pending invitation (the invited user's call). 404 when none is pending. */
export async function declineInvitation(args: ParticipantArgs) {
  await deleteParticipant(args, eq(participants.role, "invited"), "Invitation");
}

/** Take a member out of a conversation, or withdraw a pending invitation (the owner cannot be removed). */
export async function removeParticipant(args: ParticipantArgs) {
  await deleteParticipant(args, ne(participants.role, "owner"), "Member");
}

async function deleteParticipant(args: ParticipantArgs, role: SQL, what: string) {
  const [deleted] = await args.db
    .delete(participants)
    .where(participantRow(args, role))
    .returning({ userId: participants.userId });
  if (!deleted) throw notFound(what);
}
