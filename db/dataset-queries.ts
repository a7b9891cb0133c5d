// Datasets (docs/lab.md): a user's named lists of conversations they may read. A dataset is its owner's alone:
// anyone else is told it does not exist.

import "server-only";
import { and, desc, eq, inArray } from "drizzle-orm";
import { AppError, notFound } from "@/lib/domain/errors";
import { readableBy } from "./conversation-queries";
import { onlyRow, type UserArgs } from "./query-parts";
import { conversations, datasets } from "./schema";

type DatasetArgs = UserArgs & { datasetId: string };

const datasetColumns = {
  id: datasets.id,
  name: datasets.name,
  conversationIds: datasets.conversationIds,
  createdAt: datasets.createdAt,
};

/**
 * A new dataset of `conversationIds` (duplicates kept once, in first-seen order). Every one must be readable by
 * the user, else nothing is stored and the 404 names the first that is not.
 */
export async function createDataset({
  db,
  userId,
  name,
  conversationIds,
}: UserArgs & { name: string; conversationIds: readonly string[] }) {
  const ids = [...new Set(conversationIds.map((id) => id.toLowerCase()))];
  const readable = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(inArray(conversations.id, ids), readableBy(db, userId)));
  const found = new Set(readable.map((row) => row.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) {
    throw new AppError("not_found", `conversationIds: conversation ${missing} not found`);
  }
  const [row] = await db
    .insert(datasets)
    .values({ userId, name, conversationIds: ids })
    .returning(datasetColumns);
  return row;
}

export async function listDatasets({ db, userId }: UserArgs) {
  return db
    .select(datasetColumns)
    .from(datasets)
    .where(eq(datasets.userId, userId))
    .orderBy(desc(datasets.createdAt));
}

export async function getDataset({ db, userId, datasetId }: DatasetArgs) {
  const rows = await db
    .select(datasetColumns)
    .from(datasets)
    .where(and(eq(datasets.id, datasetId), eq(datasets.userId, userId)));
  return onlyRow(rows, () => notFound("Dataset"));
}

export async function deleteDataset({ db, userId, datasetId }: DatasetArgs): Promise<void> {
  const rows = await db
    .delete(datasets)
    .where(and(eq(datasets.id, datasetId), eq(datasets.userId, userId)))
    .returning({ id: datasets.id });
  onlyRow(rows, () => notFound("Dataset"));
}
