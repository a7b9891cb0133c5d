// Experiments over datasets (docs/lab.md): the experiment row with its status and progress, and one result row per
// conversation, written in batches as the job goes. An experiment is its dataset owner's alone.

import "server-only";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { notFound } from "@/lib/domain/errors";
import type { Database } from "./client";
import { onlyRow, type UserArgs } from "./query-parts";
import { attempts, type Experiment, experimentResults, experiments } from "./schema";

type ExperimentArgs = UserArgs & { experimentId: string };

export async function insertExperiment({
  db,
  userId,
  datasetId,
  candidate,
  live,
  text,
  total,
}: UserArgs & {
  datasetId: string;
  candidate: Record<string, unknown>;
  live: boolean;
  text: string;
  total: number;
}): Promise<Experiment> {
  const [row] = await db
    .insert(experiments)
    .values({ userId, datasetId, candidate, live, text, total })
    .returning();
  return row;
}

export async function getExperiment({ db, userId, experimentId }: ExperimentArgs): Promise<Experiment> {
  const rows = await db
    .select()
    .from(experiments)
    .where(and(eq(experiments.id, experimentId), eq(experiments.userId, userId)));
  return onlyRow(rows, () => notFound("Experiment"));
}

export async function listDatasetExperiments({ db, userId, datasetId }: UserArgs & { datasetId: string }) {
  return db
    .select()
    .from(experiments)
    .where(and(eq(experiments.datasetId, datasetId), eq(experiments.userId, userId)))
    .orderBy(desc(experiments.createdAt));
}

export async function listExperimentResults({ db, experimentId }: { db: Database; experimentId: string }) {
  const rows = await db
    .select({ summary: experimentResults.summary })
    .from(experimentResults)
    .where(eq(experimentResults.experimentId, experimentId))
    .orderBy(asc(experimentResults.position));
  return rows.map((row) => row.summary);
}

/** One row's two payloads as stored (a JSON text), or null when the row failed before they were built. */
export async function getExperimentPayloads({
  db,
  experimentId,
  position,
}: {
  db: Database;
  experimentId: string;
  position: number;
}): Promise<string | null> {
  const rows = await db
    .select({ payloads: experimentResults.payloads })
    .from(experimentResults)
    .where(and(eq(experimentResults.experimentId, experimentId), eq(experimentResults.position, position)));
  return onlyRow(rows, () => notFound("Experiment row")).payloads;
}

/** A row's figures are the lab's (lib/lab/experiment-figures.ts); stored here as they are given. */
export interface StoredRowSummary {
  conversationId: string;
  error: string | null;
}

export interface ResultRowToStore {
  position: number;
  summary: StoredRowSummary;
  payloads: string | null;
}

/** A batch of rows and the progress they make, in one transaction; the heartbeat moves with it. */
export async function storeExperimentRows({
  db,
  experimentId,
  rows,
}: {
  db: Database;
  experimentId: string;
  rows: readonly ResultRowToStore[];
}): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.insert(experimentResults).values(
      rows.map((row) => ({
        experimentId,
        position: row.position,
        conversationId: row.summary.conversationId,
        summary: row.summary as unknown as Record<string, unknown>,
        payloads: row.payloads,
        error: row.summary.error,
      })),
    );
    await tx
      .update(experiments)
      .set({ done: sql`${experiments.done} + ${rows.length}`, updatedAt: new Date() })
      .where(eq(experiments.id, experimentId));
  });
}

export async function setExperimentStatus({
  db,
  experimentId,
  status,
  error = null,
}: {
  db: Database;
  experimentId: string;
  status: Experiment["status"];
  error?: string | null;
}): Promise<void> {
  await db
    .update(experiments)
    .set({ status, error, updatedAt: new Date() })
    .where(eq(experiments.id, experimentId));
}

/**
 * Per conversation, its last reply attempt that sent a request: its id and the last request body (what a prompt
 * cache holds for it). One statement for the whole batch.
 */
export async function lastReplyRequests({
  db,
  conversationIds,
}: {
  db: Database;
  conversationIds: readonly string[];
}): Promise<Map<string, { attemptId: string; body: string }>> {
  if (conversationIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([attempts.conversationId], {
      conversationId: attempts.conversationId,
      attemptId: attempts.id,
      body: sql<string>`${attempts.requests} -> -1 ->> 'body'`,
    })
    .from(attempts)
    .where(
      and(
        inArray(attempts.conversationId, [...conversationIds]),
        eq(attempts.kind, "reply"),
        sql`jsonb_array_length(${attempts.requests}) > 0`,
      ),
    )
    .orderBy(attempts.conversationId, desc(attempts.createdAt), desc(attempts.id));
  return new Map(rows.map((row) => [row.conversationId, { attemptId: row.attemptId, body: row.body }]));
}
