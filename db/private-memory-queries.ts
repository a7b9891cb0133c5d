// The lookups behind private-memory redaction (docs/features.md#private-memories): whose private memories a
// turn's payload could carry, and the names a redaction placeholder shows.

import { and, eq, inArray, or } from "drizzle-orm";
import type { Database } from "./client";
import { conversations, memories, messages, turns, user } from "./schema";

/**
 * The private memories (user and user × persona scope, inactive ones included: they may have been active when
 * the payload was built) of everyone whose memories these attempts could have loaded: the conversations' owners
 * and the author of each turn's user message.
 */
export async function listPrivateMemoryCandidates({
  db,
  conversationIds,
  turnIds,
}: {
  db: Database;
  conversationIds: string[];
  turnIds: string[];
}) {
  if (conversationIds.length === 0) return [];
  const owners = db
    .select({ userId: conversations.ownerId })
    .from(conversations)
    .where(inArray(conversations.id, conversationIds));
  const authors = db
    .select({ userId: messages.authorUserId })
    .from(turns)
    .innerJoin(messages, eq(messages.id, turns.userMessageId))
    .where(inArray(turns.id, turnIds.length > 0 ? turnIds : ["00000000-0000-0000-0000-000000000000"]));
  return db
    .select({ id: memories.id, userId: memories.userId, content: memories.content })
    .from(memories)
    .where(
      and(
        inArray(memories.scope, ["user", "user_persona"]),
        or(inArray(memories.userId, owners), inArray(memories.userId, authors)),
      ),
    );
}

export async function listUserNames({ db, userIds }: { db: Database; userIds: string[] }) {
  if (userIds.length === 0) return new Map<string, string>();
  const rows = await db.select({ id: user.id, name: user.name }).from(user).where(inArray(user.id, userIds));
  return new Map(rows.map((row) => [row.id, row.name]));
}
