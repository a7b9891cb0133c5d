// Summary storage: the queries behind automatic and manual summarisation, the summaries API and
// revert. Every write that changes what the model sees (a new summary, a revert) is one transaction that locks the
// conversation row first, so two turns summarising at once cannot both supersede the same summary.

import "server-only";
import { and, asc, desc, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import { AppError, notFound } from "@/lib/domain/errors";
import type { Database } from "./client";
import { findConversation, getOwnedConversation, getReadableConversation } from "./conversation-queries";
import { preparedStatement } from "./prepared-statements";
import {
  type AfterSeqArgs,
  type ConversationArgs,
  inConversation,
  lockConversation,
  onlyRow,
  type Transaction,
  unsummarisedMessagesAfter,
} from "./query-parts";
import { type Conversation, type Message, memories, messages, type Summary, summaries } from "./schema";

/** One of the conversation's summaries. */
type SummaryArgs = ConversationArgs & { summaryId: string };

/** The conversation for the summaries API: readers may look, only the owner or an admin may change. */
export async function getConversationForSummaries({
  db,
  conversationId,
  user,
  write,
}: {
  db: Database;
  conversationId: string;
  /** The caller: admins read and manage every conversation's summaries. */
  user: { id: string; role: "admin" | "user" };
  write: boolean;
}): Promise<Conversation> {
  if (user.role === "admin") {
    const conversation = await findConversation({ db, conversationId });
    if (!conversation) throw notFound("Conversation");
    return conversation;
  }
  if (!write) return getReadableConversation({ db, conversationId, userId: user.id });
  const refusal = "Only the conversation's owner or an admin can change its summaries.";
  return getOwnedConversation({ db, conversationId, userId: user.id, refusal });
}

/**
 * User turns among the unsummarised messages after `afterSeq`: a user message whose previous unsummarised message
 * is not a user's (consecutive user messages share a turn), counted in the database without loading the rows.
 */
export async function countUnsummarisedUserTurns({
  db,
  conversationId,
  afterSeq,
}: AfterSeqArgs): Promise<number> {
  const previous = sql`lag(${messages.authorType}) over (order by ${messages.seq})`;
  const ordered = db
    .select({ authorType: messages.authorType, previous: sql<string | null>`${previous}`.as("previous") })
    .from(messages)
    .where(unsummarisedMessagesAfter(conversationId, afterSeq))
    .as("ordered");
  const [row] = await db
    .select({ turns: sql<number>`count(*)::int` })
    .from(ordered)
    .where(
      and(eq(ordered.authorType, "user"), or(isNull(ordered.previous), sql`${ordered.previous} <> 'user'`)),
    );
  return row?.turns ?? 0;
}

/** Every unsummarised message after `afterSeq`, in seq order (only loaded when a summary is about to be made). */
export async function listUnsummarisedMessages({
  db,
  conversationId,
  afterSeq,
}: AfterSeqArgs): Promise<Message[]> {
  return db
    .select()
    .from(messages)
    .where(unsummarisedMessagesAfter(conversationId, afterSeq))
    .orderBy(asc(messages.seq));
}

/** All summaries of a conversation, newest first (active, superseded and reverted ones). */
export async function listSummaries({ db, conversationId }: ConversationArgs): Promise<Summary[]> {
  return db
    .select()
    .from(summaries)
    .where(eq(summaries.conversationId, conversationId))
    .orderBy(desc(summaries.createdAt), desc(summaries.id));
}

export async function getSummary({ db, conversationId, summaryId }: SummaryArgs): Promise<Summary> {
  return onlyRow(
    await db
      .select()
      .from(summaries)
      .where(and(eq(summaries.id, summaryId), eq(summaries.conversationId, conversationId)))
      .limit(1),
    "Summary",
  );
}

async function activeSummaryIn(tx: Transaction, conversationId: string): Promise<Summary | null> {
  const [row] = await tx
    .select()
    .from(summaries)
    .where(inConversation(summaries, conversationId, isNull(summaries.supersededBy)))
    .orderBy(desc(summaries.createdAt), desc(summaries.id))
    .limit(1);
  return row ?? null;
}

export interface NewSummary {
  conversationId: string;
  content: string;
  coversThroughSeq: number;
  messageCount: number;
  modelId: string | null;
  tokensBefore: number;
  tokensAfter: number;
  trigger: Summary["trigger"];
  createdAt: Date;
}

/**
 * Store a summary, all or nothing: insert it, supersede the previous active one, mark every unsummarised message
 * up to `coversThroughSeq` as covered by it, and replace the conversation's session_summary memory. Returns null
 * (and changes nothing) when the active summary is no longer `expectedPreviousId`: another summary won the race.
 */
export async function storeSummary({
  db,
  summary,
  expectedPreviousId,
  memoryOwner,
}: {
  db: Database;
  summary: NewSummary;
  expectedPreviousId: string | null;
  /** Null: the owner keeps no summaries as memories (Settings → Memories). */
  memoryOwner: { userId: string; personaId: string } | null;
}): Promise<{ summary: Summary; markedMessages: number } | null> {
  return db.transaction(async (tx) => {
    await lockConversation(tx, summary.conversationId);
    const previous = await activeSummaryIn(tx, summary.conversationId);
    if ((previous?.id ?? null) !== expectedPreviousId) return null;

    const [row] = await tx.insert(summaries).values(summary).returning();
    if (previous)
      await tx.update(summaries).set({ supersededBy: row.id }).where(eq(summaries.id, previous.id));
    const marked = await tx
      .update(messages)
      .set({ summarizedBy: row.id })
      .where(
        and(
          eq(messages.conversationId, summary.conversationId),
          lte(messages.seq, summary.coversThroughSeq),
          isNull(messages.summarizedBy),
        ),
      )
      .returning({ id: messages.id });
    await deactivateSessionSummaryMemories(tx, summary.conversationId);
    if (memoryOwner) await insertSessionSummaryMemory(tx, memoryOwner, row);
    return { summary: row, markedMessages: marked.length };
  });
}

/**
 * Keeps the conversation's active summary as its owner's memory, once they choose to keep summaries as memories
 * (the summary panel asks). False when the conversation has no active summary; an already kept one stays as is.
 */
export async function keepActiveSummaryAsMemory({
  db,
  conversationId,
  owner,
}: {
  db: Database;
  conversationId: string;
  owner: { userId: string; personaId: string };
}): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockConversation(tx, conversationId);
    const active = await activeSummaryIn(tx, conversationId);
    if (!active) return false;
    const [kept] = await tx
      .select({ id: memories.id })
      .from(memories)
      .where(and(eq(memories.summaryId, active.id), eq(memories.active, true)));
    if (kept) return true;
    await deactivateSessionSummaryMemories(tx, conversationId);
    await insertSessionSummaryMemory(tx, owner, active);
    return true;
  });
}

async function insertSessionSummaryMemory(
  tx: Transaction,
  owner: { userId: string; personaId: string },
  summary: Summary,
): Promise<void> {
  await tx.insert(memories).values({
    scope: "user_persona",
    userId: owner.userId,
    personaId: owner.personaId,
    conversationId: summary.conversationId,
    summaryId: summary.id,
    area: "session_summary",
    content: summary.content,
    createdAt: summary.createdAt,
    updatedAt: summary.createdAt,
  });
}

/** The memories that carry a summary (one per summary, while it is active). */
const sessionSummaryMemory = () => eq(memories.area, "session_summary");

async function deactivateSessionSummaryMemories(tx: Transaction, conversationId: string): Promise<void> {
  await tx
    .update(memories)
    .set({ active: false, updatedAt: new Date() })
    .where(inConversation(memories, conversationId, sessionSummaryMemory(), eq(memories.active, true)));
}

function onlyActive(action: string): AppError {
  return new AppError("conflict", `Only the active summary can be ${action}: this one is no longer in use.`);
}

/** Change the active summary's text (and its session_summary memory). The next payload's SUMMARY item says it. */
export async function updateSummaryContent({
  db,
  conversationId,
  summaryId,
  content,
}: ConversationArgs & { summaryId: string; content: string }): Promise<Summary> {
  return db.transaction(async (tx) => {
    await lockConversation(tx, conversationId);
    const active = await activeSummaryIn(tx, conversationId);
    if (active?.id !== summaryId) throw onlyActive("edited");
    const [row] = await tx.update(summaries).set({ content }).where(eq(summaries.id, summaryId)).returning();
    await tx
      .update(memories)
      .set({ content, updatedAt: new Date() })
      .where(and(eq(memories.summaryId, summaryId), sessionSummaryMemory()));
    return row;
  });
}

/**
 * Undo the active summary: it is superseded (pointing at the summary it restores, or at itself when there is none),
 * the messages it marked are unmarked, and the summary it had superseded becomes active again with its memory.
 */
export async function revertSummary({
  db,
  conversationId,
  summaryId,
}: SummaryArgs): Promise<{ reverted: Summary; restored: Summary | null; unmarkedMessages: number }> {
  return db.transaction(async (tx) => {
    await lockConversation(tx, conversationId);
    const active = await activeSummaryIn(tx, conversationId);
    if (!active || active.id !== summaryId) throw onlyActive("reverted");
    // The summary this one replaced: superseded by it and older (a newer one pointing here was itself reverted).
    const [previous] = await tx
      .select()
      .from(summaries)
      .where(
        inConversation(
          summaries,
          conversationId,
          eq(summaries.supersededBy, active.id),
          lt(summaries.createdAt, active.createdAt),
        ),
      )
      .orderBy(desc(summaries.createdAt), desc(summaries.id))
      .limit(1);

    const [reverted] = await tx
      .update(summaries)
      .set({ supersededBy: previous?.id ?? active.id })
      .where(eq(summaries.id, active.id))
      .returning();
    const unmarked = await tx
      .update(messages)
      .set({ summarizedBy: null })
      .where(inConversation(messages, conversationId, eq(messages.summarizedBy, active.id)))
      .returning({ id: messages.id });
    await deactivateSessionSummaryMemories(tx, conversationId);

    let restored: Summary | null = null;
    if (previous) {
      [restored] = await tx
        .update(summaries)
        .set({ supersededBy: null })
        .where(eq(summaries.id, previous.id))
        .returning();
      await tx
        .update(memories)
        .set({ active: true, updatedAt: new Date() })
        .where(and(eq(memories.summaryId, previous.id), sessionSummaryMemory()));
    }
    return { reverted, restored, unmarkedMessages: unmarked.length };
  });
}

export async function getActiveSummary({ db, conversationId }: ConversationArgs) {
  const [row] = await activeSummaryStatement(db).execute({ conversationId });
  return row ?? null;
}

const activeSummaryStatement = preparedStatement("getActiveSummary", (db) =>
  db
    .select()
    .from(summaries)
    .where(
      and(eq(summaries.conversationId, sql.placeholder("conversationId")), isNull(summaries.supersededBy)),
    )
    .orderBy(desc(summaries.createdAt))
    .limit(1),
);
