// Stop a running turn and wait (briefly) until its reply is stored: the caller can then read the stopped reply.

import "server-only";
import type { Database } from "@/db/client";
import type { ConversationArgs } from "@/db/query-parts";
import { getRunningTurn, getTurnStatus } from "@/db/turn-queries";
import { replyBeingWrittenError, requestStop, turnRunningHere, turnStartingHere } from "./turn-stops";

/** How long the stop request waits for another instance to store the stopped reply. */
const REMOTE_STOP_WAIT_MS = 5_000;
const POLL_INTERVAL_MS = 50;

export async function stopTurn({
  db,
  turnId,
  shownChars,
}: {
  db: Database;
  turnId: string;
  shownChars?: number;
}): Promise<{ status: string }> {
  const stoppedHere = await requestStop({ turnId, shownChars });
  if (stoppedHere) return { status: (await getTurnStatus({ db, turnId })) ?? "stopped" };
  // Another instance runs it (the stop went out on Redis), or its instance died: wait for the stored outcome.
  const deadline = Date.now() + REMOTE_STOP_WAIT_MS;
  for (;;) {
    const status = await getTurnStatus({ db, turnId });
    if (status !== "running" || Date.now() > deadline) return { status: status ?? "unknown" };
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

/**
 * Refuse (409) while a reply is being written in the conversation: one this process runs (registered before its
 * first words are sent, maybe before its row is stored), or one in the database from any instance. Whatever is
 * built from the history then would carry the reply's partial copy, which the transcript later shows whole
 * (docs/features.md, "Stop").
 */
export async function refuseWhileReplyIsWritten({
  db,
  conversationId,
  action,
  ownStart = false,
  runningTurn,
}: ConversationArgs & {
  action: string;
  /** The caller is a turn that has claimed the conversation's start (claimTurnStart): its own claim is no reply. */
  ownStart?: boolean;
  /** The running turn as the caller's read found it (db/turn-snapshot-queries.ts): not read again. */
  runningTurn?: { id: string } | null;
}): Promise<void> {
  if (await replyIsBeingWritten({ db, conversationId, ownStart, runningTurn })) {
    throw replyBeingWrittenError(action);
  }
}

/**
 * Whether a reply is being written in the conversation, by this process (set up or running) or any other
 * instance.
 */
export async function replyIsBeingWritten({
  db,
  conversationId,
  ownStart = false,
  runningTurn,
}: ConversationArgs & { ownStart?: boolean; runningTurn?: { id: string } | null }): Promise<boolean> {
  if (turnRunningHere(conversationId) !== null) return true;
  if (!ownStart && turnStartingHere(conversationId)) return true;
  return (runningTurn === undefined ? await getRunningTurn({ db, conversationId }) : runningTurn) !== null;
}
