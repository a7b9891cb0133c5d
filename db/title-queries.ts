// Queries for generated conversation titles: the claim a generation holds while it runs, what the title model reads
// (the first exchange) and the one write, which only ever replaces the default title, so a rename that lands while
// a title is being generated wins.

import "server-only";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { type ConversationArgs, inConversation } from "./query-parts";
import { queryRows } from "./raw-sql";
import { conversations, type Message, messages, titleClaims } from "./schema";

/** The title a conversation gets when nobody named it (POST /api/conversations without a title). */
export const DEFAULT_CONVERSATION_TITLE = "New conversation";

/**
 * How long a claim stands: longer than a generation can take (each try's time limit, its retries and their
 * waits), so that only a claim whose instance died lapses, and the next finished turn then tries again.
 */
export const TITLE_CLAIM_LEASE_SECONDS = 300;

/**
 * Claims the conversation's title generation for the caller: true when the conversation is there, still has the
 * default title, and no other generation holds a claim younger than its lease. The title is checked by the same
 * statement, so a generation that stored its title and released its claim just before is never followed by a
 * second one. The clock is the database's, the one every instance shares.
 */
export async function claimTitleGeneration({ db, conversationId }: ConversationArgs): Promise<boolean> {
  const claimed = await queryRows(
    db,
    sql`insert into ${titleClaims} ("conversationId", "claimedAt")
      select ${conversations.id}, now() from ${conversations}
      where ${conversations.id} = ${conversationId} and ${conversations.title} = ${DEFAULT_CONVERSATION_TITLE}
      on conflict ("conversationId") do update set "claimedAt" = now()
      where ${titleClaims.claimedAt} < now() - make_interval(secs => ${TITLE_CLAIM_LEASE_SECONDS})
      returning "conversationId"`,
  );
  return claimed.length > 0;
}

/** Ends the generation's claim, however it ended: a failed one may be tried again by the next finished turn. */
export async function releaseTitleClaim({ db, conversationId }: ConversationArgs): Promise<void> {
  await db.delete(titleClaims).where(eq(titleClaims.conversationId, conversationId));
}

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
