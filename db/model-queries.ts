// Models: the rows of the models admins configured.

import "server-only";
import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "./client";
import { isAnyOf, preparedStatement } from "./prepared-statements";
import { type Model, models } from "./schema";

export async function getModel({ db, modelId }: { db: Database; modelId: string }) {
  const [row] = await db.select().from(models).where(eq(models.id, modelId)).limit(1);
  return row ?? null;
}

/** The rows of these models that exist, in one query (by id; the caller keeps its own order). */
export async function listModelsById({ db, modelIds }: { db: Database; modelIds: string[] }) {
  if (modelIds.length === 0) return new Map<string, Model>();
  const rows = await modelsByIdStatement(db).execute({ modelIds });
  return new Map(rows.map((row) => [row.id, row]));
}

const modelsByIdStatement = preparedStatement("listModelsById", (db) =>
  db
    .select()
    .from(models)
    .where(isAnyOf(models.id, sql.placeholder("modelIds"))),
);

export async function listModels({ db }: { db: Database }) {
  return db.select().from(models).orderBy(asc(models.id));
}
