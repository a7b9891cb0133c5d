// The lab (docs/lab.md): datasets of conversations and the experiments run over them.

import type { InferSelectModel } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { belongsTo, createdAt, id, updatedAt, userReference } from "./tables";

export const datasets = pgTable(
  "datasets",
  {
    id: id(),
    userId: userReference(),
    name: text("name").notNull(),
    /** The conversations, in the order given, each one its owner could read when the dataset was saved. */
    conversationIds: jsonb("conversationIds").$type<string[]>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("datasets_user_idx").on(table.userId, table.createdAt)],
);

export const EXPERIMENT_STATUSES = ["queued", "running", "done", "failed"] as const;

export const experiments = pgTable(
  "experiments",
  {
    id: id(),
    datasetId: belongsTo("datasetId", () => datasets.id),
    userId: userReference(),
    status: text("status", { enum: EXPERIMENT_STATUSES }).notNull().default("queued"),
    /** What the candidate changes (settings, persona, prompt, model, versions), as the request gave it. */
    candidate: jsonb("candidate").$type<Record<string, unknown>>().notNull(),
    live: boolean("live").notNull().default(false),
    /** The text of the next message each conversation's turn is built for. */
    text: text("text").notNull(),
    done: integer("done").notNull().default(0),
    total: integer("total").notNull(),
    error: text("error"),
    createdAt: createdAt(),
    /** Touched with every row written: a running experiment whose heartbeat stopped was left by a dead server. */
    updatedAt: updatedAt(),
  },
  (table) => [index("experiments_dataset_idx").on(table.datasetId, table.createdAt)],
);

export const experimentResults = pgTable(
  "experiment_results",
  {
    experimentId: belongsTo("experimentId", () => experiments.id),
    position: integer("position").notNull(),
    conversationId: uuid("conversationId").notNull(),
    /** The figures of each side and their diff; null figures when the row failed (`error`). */
    summary: jsonb("summary").$type<Record<string, unknown>>().notNull(),
    /** Both payloads (items and request body) as one JSON text, read only when a row's diff is opened. */
    payloads: text("payloads"),
    error: text("error"),
  },
  (table) => [primaryKey({ columns: [table.experimentId, table.position] })],
);

export type Dataset = InferSelectModel<typeof datasets>;
export type Experiment = InferSelectModel<typeof experiments>;
export type ExperimentResultRow = InferSelectModel<typeof experimentResults>;
