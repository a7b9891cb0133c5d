// A conversation's model calls that answer no turn (summaries, titles, write-as-me drafts): attempts with no turn,
// oldest first. A reply's attempts come with their turn (listTurnsWithAttempts, listTurnSummaries).

import { and, asc, eq, isNull } from "drizzle-orm";
import type { Database } from "./client";
import { attemptSummaryColumns } from "./queries";
import { attempts } from "./schema";

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
