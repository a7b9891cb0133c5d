// A conversation's model calls that answer no turn (summaries, titles, write-as-me drafts, replays): attempts with
// no turn, oldest first. A reply's attempts come with their turn (listTurnsWithAttempts, listTurnSummaries).

import { and, asc, eq, isNull } from "drizzle-orm";
import type { Database } from "./client";
import { attemptSummaryColumns } from "./queries";
import { attempts, messages, turns } from "./schema";

const otherCalls = (conversationId: string) =>
  and(eq(attempts.conversationId, conversationId), isNull(attempts.turnId));

/** Full rows, payloads included. */
export async function listOtherModelCalls({ db, conversationId }: { db: Database; conversationId: string }) {
  return db
    .select()
    .from(attempts)
    .where(otherCalls(conversationId))
    .orderBy(asc(attempts.createdAt), asc(attempts.id));
}

/** Light columns only, for the inspector's index. */
export async function listOtherModelCallSummaries({
  db,
  conversationId,
}: {
  db: Database;
  conversationId: string;
}) {
  return db
    .select(attemptSummaryColumns)
    .from(attempts)
    .where(otherCalls(conversationId))
    .orderBy(asc(attempts.createdAt), asc(attempts.id));
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
