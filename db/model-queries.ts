// Models: the rows of the models admins configured.

import "server-only";
import { asc, eq } from "drizzle-orm";
import type { Database } from "./client";
import { models } from "./schema";

export async function getModel({ db, modelId }: { db: Database; modelId: string }) {
  const [row] = await db.select().from(models).where(eq(models.id, modelId)).limit(1);
  return row ?? null;
}

/** The rows of these models that exist, in one query (by id; the caller keeps its own order). */
export async function listModels({ db }: { db: Database }) {
  return db.select().from(models).orderBy(asc(models.id));
}
