// Turn rows: started, kept alive, finished, and recovered when the instance running them died
// (docs/architecture.md, "A turn, step by step"); the running one, and a conversation's turns with their attempts.

import "server-only";
import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { attemptSummaryColumns } from "./attempt-queries";
import type { Database } from "./client";
import { encodedPlaceholder, preparedStatement } from "./prepared-statements";
import { type ConversationArgs, onlyRow } from "./query-parts";
import { attempts, conversations, type Message, messages, type Turn, turns } from "./schema";

/** How often a running turn's instance records that it is alive. */
export const HEARTBEAT_INTERVAL_MS = 10_000;
/** A running turn whose heartbeat is older than this belongs to a dead instance. */
export const HEARTBEAT_STALE_MS = 45_000;

export async function insertTurn({
  db,
  turn,
}: {
  db: Database;
  turn: Pick<Turn, "id" | "conversationId" | "userMessageId" | "assistantMessageId" | "settingsVersion"> & {
    instanceId: string;
  };
}) {
  await insertTurnStatement(db).execute({ ...turn, now: new Date() });
}

const insertTurnStatement = preparedStatement("insertTurn", (db) =>
  db.insert(turns).values({
    id: sql.placeholder("id"),
    conversationId: sql.placeholder("conversationId"),
    userMessageId: sql.placeholder("userMessageId"),
    assistantMessageId: sql.placeholder("assistantMessageId"),
    settingsVersion: sql.placeholder("settingsVersion"),
    instanceId: sql.placeholder("instanceId"),
    status: "running",
    heartbeatAt: encodedPlaceholder("now", turns.heartbeatAt),
  }),
);

export async function touchTurnHeartbeat({ db, turnId }: { db: Database; turnId: string }) {
  await heartbeatStatement(db).execute({ turnId, now: new Date() });
}

const heartbeatStatement = preparedStatement("touchTurnHeartbeat", (db) =>
  db
    .update(turns)
    .set({ heartbeatAt: encodedPlaceholder("now", turns.heartbeatAt) })
    .where(and(eq(turns.id, sql.placeholder("turnId")), eq(turns.status, "running"))),
);

/** The turn's final status; a reply that stopped short of ok still counts as the turn's outcome. */
export async function finishTurn({
  db,
  turnId,
  status,
}: {
  db: Database;
  turnId: string;
  status: "ok" | "error" | "interrupted" | "stopped";
}) {
  await finishTurnStatement(db).execute({ turnId, status });
}

const finishTurnStatement = preparedStatement("finishTurn", (db) =>
  db
    .update(turns)
    .set({ status: encodedPlaceholder("status", turns.status), heartbeatAt: null })
    .where(eq(turns.id, sql.placeholder("turnId"))),
);

/**
 * Turns left `running` by a dead process, and their replies left `streaming`, become `interrupted`, keeping the
 * text that was stored. A turn is abandoned when it was started by this very instance in an earlier life (its id
 * is stable across restarts), or when its heartbeat is older than HEARTBEAT_STALE_MS, or missing. Returns how many
 * turns it recovered.
 */
export async function recoverAbandonedTurns({
  db,
  instanceId,
  runningHere,
  now = new Date(),
  onReplyInterrupted,
}: {
  db: Database;
  instanceId: string;
  /** Turns this process is running now: never touched. */
  runningHere: ReadonlySet<string>;
  now?: Date;
  /** Told of each reply marked interrupted, once stored (its readers are shown the change). */
  onReplyInterrupted?: (reply: { conversationId: string; messageId: string }) => void;
}): Promise<number> {
  const staleBefore = new Date(now.getTime() - HEARTBEAT_STALE_MS);
  const candidates = await db
    .select({
      id: turns.id,
      conversationId: turns.conversationId,
      assistantMessageId: turns.assistantMessageId,
    })
    .from(turns)
    .where(
      and(
        eq(turns.status, "running"),
        or(eq(turns.instanceId, instanceId), isNull(turns.heartbeatAt), lt(turns.heartbeatAt, staleBefore)),
      ),
    );
  const abandoned = candidates.filter((turn) => !runningHere.has(turn.id));
  if (abandoned.length === 0) return 0;
  const turnIds = abandoned.map((turn) => turn.id);
  const replyIds = abandoned.flatMap((turn) => (turn.assistantMessageId ? [turn.assistantMessageId] : []));
  const interrupted = await db.transaction(async (tx) => {
    await tx
      .update(turns)
      .set({ status: "interrupted", heartbeatAt: null })
      .where(and(inArray(turns.id, turnIds), eq(turns.status, "running")));
    if (replyIds.length === 0) return [];
    return tx
      .update(messages)
      .set({ status: "interrupted", updatedAt: now })
      .where(and(inArray(messages.id, replyIds), eq(messages.status, "streaming")))
      .returning({ conversationId: messages.conversationId, messageId: messages.id });
  });
  for (const reply of interrupted) onReplyInterrupted?.(reply);
  return abandoned.length;
}

export async function getTurnStatus({ db, turnId }: { db: Database; turnId: string }) {
  const [row] = await db.select({ status: turns.status }).from(turns).where(eq(turns.id, turnId));
  return row?.status ?? null;
}

/**
 * The first reply to a message this turn has just stored, and the turn's row, in one statement: one round trip
 * where appendMessage's transaction takes five (begin, counter, un-choose, insert, commit) and the turn's insert a
 * sixth. The counter row's lock gives the reply its seq, as appendMessage does. No earlier reply to a message
 * stored by this very request can exist, so there is nothing to un-choose; a regenerate, which makes a new variant
 * beside earlier ones, goes through appendMessage. The turn references the reply: both rows exist when Postgres
 * checks the reference, at the end of the statement. Returns the reply's row as stored (its first live event).
 */
export async function insertFirstReplyAndTurn({
  db,
  reply,
  turn,
}: {
  db: Database;
  reply: Pick<Message, "id" | "conversationId" | "authorPersonaId" | "authorName" | "replyToMessageId">;
  turn: Pick<Turn, "id" | "userMessageId" | "settingsVersion"> & { instanceId: string };
}): Promise<Message> {
  const rows = await firstReplyAndTurnStatement(db).execute({
    replyId: reply.id,
    conversationId: reply.conversationId,
    authorPersonaId: reply.authorPersonaId,
    authorName: reply.authorName,
    replyToMessageId: reply.replyToMessageId,
    turnId: turn.id,
    userMessageId: turn.userMessageId,
    settingsVersion: turn.settingsVersion,
    instanceId: turn.instanceId,
    now: new Date(),
  });
  return onlyRow(rows, "Conversation");
}

const firstReplyAndTurnStatement = preparedStatement("insertFirstReplyAndTurn", (db) => {
  const conversationId = sql.placeholder("conversationId");
  const counter = db.$with("counter", { lastSeq: sql<number>`"lastSeq"` }).as(
    sql`update ${conversations} set "lastSeq" = ${conversations.lastSeq} + 1, "updatedAt" = now()
        where ${conversations.id} = ${conversationId} returning "lastSeq"`,
  );
  const inserted = db.$with("reply").as(
    db
      .insert(messages)
      .values({
        id: sql.placeholder("replyId"),
        conversationId,
        authorPersonaId: sql.placeholder("authorPersonaId"),
        authorName: sql.placeholder("authorName"),
        replyToMessageId: sql.placeholder("replyToMessageId"),
        parentMessageId: sql.placeholder("replyToMessageId"),
        authorType: "persona",
        parts: [],
        status: "streaming",
        seq: sql`(select "lastSeq" from "counter")`,
      })
      .returning(),
  );
  const turnRow = db.$with("turn").as(
    db.insert(turns).values({
      id: sql.placeholder("turnId"),
      userMessageId: sql.placeholder("userMessageId"),
      settingsVersion: sql.placeholder("settingsVersion"),
      instanceId: sql.placeholder("instanceId"),
      conversationId,
      assistantMessageId: sql`(select "id" from "reply")`,
      status: "running",
      heartbeatAt: encodedPlaceholder("now", turns.heartbeatAt),
    }),
  );
  return db.with(counter, inserted, turnRow).select().from(inserted);
});

/** The conversation's turn whose reply is still being written, if any (the newest). */
export async function getRunningTurn({ db, conversationId }: ConversationArgs) {
  const [row] = await runningTurnStatement(db).execute({ conversationId });
  return row ?? null;
}

const runningTurnStatement = preparedStatement("getRunningTurn", (db) =>
  db
    .select({ id: turns.id, assistantMessageId: turns.assistantMessageId })
    .from(turns)
    .where(and(eq(turns.conversationId, sql.placeholder("conversationId")), eq(turns.status, "running")))
    .orderBy(desc(turns.createdAt))
    .limit(1),
);

/** A conversation's turns in order, each with its attempts as `loadAttempts` selects them (one query for all). */
async function turnsWithAttempts<Row extends { turnId: string | null }>(
  db: Database,
  conversationId: string,
  loadAttempts: (turnIds: string[]) => Promise<Row[]>,
) {
  const turnRows = await db
    .select()
    .from(turns)
    .where(eq(turns.conversationId, conversationId))
    .orderBy(asc(turns.createdAt), asc(turns.id));
  if (turnRows.length === 0) return [];
  const attemptRows = await loadAttempts(turnRows.map((turn) => turn.id));
  return turnRows.map((turn) => ({
    ...turn,
    attempts: attemptRows.filter((attempt) => attempt.turnId === turn.id),
  }));
}

export async function listTurnsWithAttempts({ db, conversationId }: ConversationArgs) {
  return turnsWithAttempts(db, conversationId, (turnIds) =>
    db.select().from(attempts).where(inArray(attempts.turnId, turnIds)).orderBy(asc(attempts.attemptNumber)),
  );
}

/**
 * Turns with their attempts' light columns only (no items, trace, settings or request bodies): the inspector's
 * index of a conversation, whose size does not grow with the payloads. Full attempts come from getAttempt….
 */
export async function listTurnSummaries({ db, conversationId }: ConversationArgs) {
  return turnsWithAttempts(db, conversationId, (turnIds) =>
    db
      .select(attemptSummaryColumns)
      .from(attempts)
      .where(inArray(attempts.turnId, turnIds))
      .orderBy(asc(attempts.attemptNumber)),
  );
}
