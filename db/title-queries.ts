// Queries for generated conversation titles: what the title model reads (the first exchange) and the one write,
// which only ever replaces the default title, so a rename that lands while a title is being generated wins.

import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import { type ConversationArgs, inConversation } from "./query-parts";
import { conversations, type Message, messages } from "./schema";

/** The title a conversation gets when nobody named it (POST /api/conversations without a title). */
export const DEFAULT_CONVERSATION_TITLE = "New conversation";

/**
 * The first user message and the first complete persona reply to it, or null while the conversation has no
 * complete first exchange. Only the earliest few messages are read.
 */
export async function getFirstExchange({
  db,
  conversationId,
}: ConversationArgs): Promise<{ question: Message; reply: Message } | null> {
  const rows = await db
    .select()
    .from(messages)
    .where(
      inConversation(
        messages,
        conversationId,
        eq(messages.chosen, true),
        inArray(messages.authorType, ["user", "persona"]),
      ),
    )
    .orderBy(asc(messages.seq))
    .limit(20);
  const question = rows.find((row) => row.authorType === "user");
  if (!question) return null;
  const reply = rows.find(
    (row) => row.authorType === "persona" && row.seq > question.seq && row.status === "complete",
  );
  return reply ? { question, reply } : null;
}

/** Stores a generated title if the conversation still has the default one; true when it was stored. */
export async function storeGeneratedTitle({
  db,
  conversationId,
  title,
}: ConversationArgs & { title: string }): Promise<boolean> {
  // updatedAt is left alone: a title is not activity, and the list stays in the order the user last wrote.
  const updated = await db
    .update(conversations)
    .set({ title })
    .where(and(eq(conversations.id, conversationId), eq(conversations.title, DEFAULT_CONVERSATION_TITLE)))
    .returning({ id: conversations.id });
  return updated.length > 0;
}
