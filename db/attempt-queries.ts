// Attempt queries beyond a turn's: a conversation's model calls that answer no turn (summaries, titles, write-as-me
// drafts, replays), oldest first, and the search across conversations behind the find-attempts page. A reply's
// attempts come with their turn (listTurnsWithAttempts, listTurnSummaries in db/turn-queries.ts), in their light
// columns (attemptSummaryColumns) for the inspector's index.

import { and, asc, desc, eq, exists, gte, inArray, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import type { AttemptKind, ModelPrices } from "@/lib/domain/types";
import type { Database } from "./client";
import { encodedPlaceholder, preparedStatement } from "./prepared-statements";
import { type ConversationArgs, inConversation, onlyRow } from "./query-parts";
import {
  type Attempt,
  artifacts,
  attempts,
  conversations,
  messages,
  models,
  participants,
  turns,
} from "./schema";

const otherCalls = (conversationId: string) =>
  inConversation(attempts, conversationId, isNull(attempts.turnId));

/** An attempt's row as recordAttempt makes it: its JSON columns as values, two of them already as JSON text. */
export type NewAttempt = Omit<typeof attempts.$inferInsert, "id" | "items" | "response" | "createdAt"> & {
  id: string;
  /** The items as JSON text (already made, with media elided), stored as they are. */
  itemsJson: string;
  /** The response as JSON text, or null; stored with its model's prices of this moment. */
  responseJson: string | null;
};

/**
 * Stores an attempt and returns its id, in one prepared statement (its SQL is built once, not at every attempt).
 * The response gets the model's prices of this moment, read in the insert itself: no round trip of its own, and
 * the attempt's cost is counted at them whatever the prices become.
 */
export async function insertAttempt({ db, attempt }: { db: Database; attempt: NewAttempt }): Promise<string> {
  const [row] = await attemptInsertStatement(db).execute({
    turnId: null,
    kind: "reply",
    replayOf: null,
    stepNumber: 0,
    error: null,
    privateMemories: null,
    ...attempt,
  });
  return row.id;
}

const attemptInsertStatement = preparedStatement("insertAttempt", (db) => {
  const prices = sql`coalesce((select ${models.prices} from ${models} where ${models.id} = ${sql.placeholder("modelId")}), 'null'::jsonb)`;
  return db
    .insert(attempts)
    .values({
      id: sql.placeholder("id"),
      conversationId: sql.placeholder("conversationId"),
      turnId: sql.placeholder("turnId"),
      kind: sql.placeholder("kind"),
      replayOf: sql.placeholder("replayOf"),
      attemptNumber: sql.placeholder("attemptNumber"),
      stepNumber: sql.placeholder("stepNumber"),
      modelId: sql.placeholder("modelId"),
      status: sql.placeholder("status"),
      error: encodedPlaceholder("error", attempts.error),
      items: sql`${sql.placeholder("itemsJson")}::jsonb`,
      trace: encodedPlaceholder("trace", attempts.trace),
      settings: encodedPlaceholder("settings", attempts.settings),
      settingsVersion: sql.placeholder("settingsVersion"),
      requests: encodedPlaceholder("requests", attempts.requests),
      // Null stays null: jsonb_set of null is null.
      response: sql`jsonb_set(${sql.placeholder("responseJson")}::jsonb, '{prices}', ${prices})`,
      privateMemories: encodedPlaceholder("privateMemories", attempts.privateMemories),
      timings: encodedPlaceholder("timings", attempts.timings),
    })
    .returning({ id: attempts.id });
});

/**
 * The reasoning the replies of these turns stored (their `reasoning` artifacts' payloads), in the order it came,
 * with the turn each reply answers: an attempt view shows the reasoning its model returned.
 */
export async function listReasoningOfTurns({ db, turnIds }: { db: Database; turnIds: string[] }) {
  if (turnIds.length === 0) return [];
  return db
    .select({ turnId: turns.id, payload: artifacts.payload })
    .from(turns)
    .innerJoin(
      artifacts,
      and(eq(artifacts.messageId, turns.assistantMessageId), eq(artifacts.type, "reasoning")),
    )
    .where(inArray(turns.id, turnIds))
    .orderBy(asc(artifacts.id));
}

/** Full rows, payloads included. */
export async function listOtherModelCalls({ db, conversationId }: ConversationArgs) {
  return db
    .select()
    .from(attempts)
    .where(otherCalls(conversationId))
    .orderBy(asc(attempts.createdAt), asc(attempts.id));
}

/** Light columns only, for the inspector's index. */
export async function listOtherModelCallSummaries({ db, conversationId }: ConversationArgs) {
  return db
    .select(attemptSummaryColumns)
    .from(attempts)
    .where(otherCalls(conversationId))
    .orderBy(asc(attempts.createdAt), asc(attempts.id));
}

export interface AttemptSearch {
  /** Only the conversations this user may read: as owner or participant, as everywhere else. */
  readerId: string;
  modelId?: string;
  status?: "ok" | "error" | "stopped";
  kind?: AttemptKind;
  /** An item with this tag was sent (e.g. CORE_MEMORIES, MEDIA_NOTICE). */
  tag?: string;
  /** The trace has an event with this action (e.g. "dropped-turn", "omitted-images"). */
  action?: string;
  from?: Date;
  to?: Date;
  /** The last row of the previous page, for the next one (newest first). */
  before?: { createdAt: Date; id: string };
  limit: number;
}

/**
 * Attempts across conversations, newest first, light columns with their conversation's title: the find-attempts
 * page. Tags and trace actions are matched with jsonb containment on the stored items and trace.
 */
export async function searchAttempts({ db, search }: { db: Database; search: AttemptSearch }) {
  const readable = or(
    eq(conversations.ownerId, search.readerId),
    exists(
      db
        .select({ one: sql`1` })
        .from(participants)
        .where(
          and(
            eq(participants.conversationId, conversations.id),
            eq(participants.userId, search.readerId),
            ne(participants.role, "invited"),
          ),
        ),
    ),
  );
  return db
    .select({
      ...attemptSummaryColumns,
      conversationId: attempts.conversationId,
      conversationTitle: conversations.title,
    })
    .from(attempts)
    .innerJoin(conversations, eq(conversations.id, attempts.conversationId))
    .where(
      and(
        readable,
        search.modelId ? eq(attempts.modelId, search.modelId) : undefined,
        search.status ? eq(attempts.status, search.status) : undefined,
        search.kind ? eq(attempts.kind, search.kind) : undefined,
        search.tag ? sql`${attempts.items} @> ${JSON.stringify([{ tag: search.tag }])}::jsonb` : undefined,
        search.action
          ? sql`${attempts.trace} @> ${JSON.stringify([{ action: search.action }])}::jsonb`
          : undefined,
        search.from ? gte(attempts.createdAt, search.from) : undefined,
        search.to ? lte(attempts.createdAt, search.to) : undefined,
        search.before
          ? or(
              lt(attempts.createdAt, search.before.createdAt),
              and(eq(attempts.createdAt, search.before.createdAt), lt(attempts.id, search.before.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(attempts.createdAt), desc(attempts.id))
    .limit(search.limit);
}

/** The user message a reply's turn answered, to rebuild that turn's payload for a replay; null once deleted. */
export async function getTurnUserMessage({ db, turnId }: { db: Database; turnId: string }) {
  const [row] = await db
    .select({ message: messages })
    .from(turns)
    .innerJoin(messages, eq(messages.id, turns.userMessageId))
    .where(eq(turns.id, turnId))
    .limit(1);
  return row?.message ?? null;
}

/** An attempt's light columns: what it was, how it went, its usage and timings, without its payloads. */
export const attemptSummaryColumns = {
  id: attempts.id,
  turnId: attempts.turnId,
  kind: attempts.kind,
  attemptNumber: attempts.attemptNumber,
  stepNumber: attempts.stepNumber,
  modelId: attempts.modelId,
  status: attempts.status,
  error: attempts.error,
  usage: sql<Record<string, number> | null>`${attempts.response} -> 'usage'`,
  /**
   * What an estimate of a stopped or failed attempt's cost is counted from (lib/chat/attempts/attempt-cost.ts): the tokens
   * of the items it sent and the text it streamed. Null for any other attempt, so the light rows stay light.
   */
  sentTokens: sql<
    number | null
  >`case when ${attempts.status} in ('stopped', 'error') then (select coalesce(sum((item ->> 'tokens')::numeric), 0)::float8 from jsonb_array_elements(${attempts.items}) as item where item ->> 'tokens' ~ '^[0-9]+$') end`,
  streamedText: sql<
    string | null
  >`case when ${attempts.status} in ('stopped', 'error') then ${attempts.response} ->> 'text' end`,
  /**
   * The prices the attempt was costed with, wrapped in a list (`[null]`: the model had none); null when the attempt
   * was recorded before prices were kept.
   */
  pricesAtRecord: sql<
    [ModelPrices | null] | null
  >`case when jsonb_exists(${attempts.response}, 'prices') then jsonb_build_array(${attempts.response} -> 'prices') end`,
  timings: attempts.timings,
  settingsVersion: attempts.settingsVersion,
  createdAt: attempts.createdAt,
};

/** An attempt with the conversation it belongs to, for the access check. */
export async function getAttemptWithConversation({ db, attemptId }: { db: Database; attemptId: string }) {
  return onlyRow(
    await db
      .select({ attempt: attempts, conversationId: attempts.conversationId })
      .from(attempts)
      .where(eq(attempts.id, attemptId))
      .limit(1),
    "Attempt",
  );
}

/** The attempt before `attempt` to the same model, of the same kind, in its conversation: what its cache could reuse. */
export async function getPreviousAttemptToModel({ db, attempt }: { db: Database; attempt: Attempt }) {
  const [row] = await db
    .select()
    .from(attempts)
    .where(
      and(
        eq(attempts.conversationId, attempt.conversationId),
        eq(attempts.modelId, attempt.modelId),
        eq(attempts.kind, attempt.kind),
        lt(attempts.createdAt, attempt.createdAt),
      ),
    )
    .orderBy(desc(attempts.createdAt))
    .limit(1);
  return row ?? null;
}
