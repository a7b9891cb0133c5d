// Query functions for the admin area: the policy's versions, personas, models, blocks, memories and
// accounts (roles, bans, deletion, under the last-admin rule). Same style as queries.ts: one verb and noun each,
// named arguments, refusals as AppError.

import "server-only";
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  inArray,
  isNull,
  lt,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import { AppError, notFound } from "@/lib/domain/errors";
import type { ResolvedSettings, SettingsOverride } from "@/lib/domain/settings";
import type { ModelCapabilities } from "@/lib/domain/types";
import type { Database } from "./client";
import { anyRow, type NewRowArgs, onlyRow, type UserArgs } from "./query-parts";
import { queryRows } from "./raw-sql";
import {
  conversations,
  type Memory,
  type Model,
  memories,
  models,
  type Persona,
  personas,
  personaUserBlocks,
  session,
  settingsVersions,
  user,
} from "./schema";
import { getCurrentSettings } from "./settings-queries";

/** The Postgres error code, whether the driver error is thrown directly or wrapped by drizzle. */
function errorCode(error: unknown): string | undefined {
  const direct = error as { code?: string; cause?: { code?: string } } | null;
  return direct?.cause?.code ?? direct?.code;
}

/** Postgres "unique_violation": a concurrent writer took the same key. */
function isUniqueViolation(error: unknown): boolean {
  return errorCode(error) === "23505";
}

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

// ---------------------------------------------------------------------------------------------------------------
// The context policy: versions are only ever added, never overwritten.

export async function listSettingsVersions({ db }: { db: Database }) {
  return db
    .select({
      version: settingsVersions.version,
      settings: settingsVersions.settings,
      changedBy: settingsVersions.changedBy,
      changedByName: user.name,
      createdAt: settingsVersions.createdAt,
    })
    .from(settingsVersions)
    .leftJoin(user, eq(user.id, settingsVersions.changedBy))
    .orderBy(desc(settingsVersions.version));
}

export async function insertSettingsVersion({
  db,
  settings,
  changedBy,
  baseVersion,
}: {
  db: Database;
  settings: ResolvedSettings;
  changedBy: string;
  baseVersion?: number;
}) {
  try {
    return await db.transaction(async (tx) => {
      const current = await getCurrentSettings({ db: tx as unknown as Database });
      if (baseVersion !== undefined && baseVersion !== current.version) {
        throw new AppError(
          "conflict",
          `The context policy changed since version ${baseVersion} (now version ${current.version}): reload and apply your edit again.`,
        );
      }
      const [row] = await tx
        .insert(settingsVersions)
        .values({ version: current.version + 1, settings, changedBy })
        .returning();
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError(
        "conflict",
        "Another admin saved the context policy at the same moment: reload and try again.",
      );
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Personas

export interface PersonaFields {
  name: string;
  avatar: string | null;
  systemPrompt: string;
  modelId: string;
  fallbackModelIds: string[];
  toolNames: string[];
  settingsOverride: SettingsOverride;
}

/** Every persona with how many conversations use it (a persona in use cannot be deleted). */
export async function listPersonasWithUsage({ db }: { db: Database }) {
  const usage = db
    .select({ personaId: conversations.personaId, conversationCount: count().as("conversationCount") })
    .from(conversations)
    .groupBy(conversations.personaId)
    .as("usage");
  const rows = await db
    .select({ persona: personas, conversationCount: usage.conversationCount })
    .from(personas)
    .leftJoin(usage, eq(usage.personaId, personas.id))
    .orderBy(asc(personas.createdAt));
  return rows.map(({ persona, conversationCount }) => ({
    ...persona,
    conversationCount: Number(conversationCount ?? 0),
  }));
}

/** Refuses model ids that are not in the registry, naming the field and the ids. */
export async function assertModelsExist({
  db,
  field,
  modelIds,
}: {
  db: Database;
  field: string;
  modelIds: string[];
}) {
  const wanted = [...new Set(modelIds)];
  if (wanted.length === 0) return;
  const found = await db.select({ id: models.id }).from(models).where(inArray(models.id, wanted));
  const known = new Set(found.map((row) => row.id));
  const missing = wanted.filter((id) => !known.has(id));
  if (missing.length > 0) {
    throw new AppError(
      "bad_request",
      `${field}: no model with id ${missing.join(", ")} exists in the registry`,
    );
  }
}

/** The tables whose rows an admin edits in place: each has an id and an updatedAt stamp. */
type EditedTable = typeof personas | typeof models | typeof memories;

/** The changes an admin makes to one row of an edited table (the row's id is named by each caller). */
type EditArgs<Fields> = { db: Database; changes: Partial<Fields> };

/** Insert a new row of an edited table and return it. */
async function insertEditedRow<Table extends EditedTable>(
  db: Database,
  table: Table,
  fields: Table["$inferInsert"],
): Promise<Table["$inferSelect"]> {
  // Typed for the union of tables (whose insert types no one value meets), the fields and the row are `table`'s.
  const [row] = await db
    .insert(table as EditedTable)
    .values(fields as never)
    .returning();
  return row as Table["$inferSelect"];
}

/** Apply `changes` to the row with this id and stamp updatedAt; a 404 naming `what` when there is no such row. */
async function updateEditedRow<Table extends EditedTable>(
  db: Database,
  table: Table,
  id: string,
  changes: Partial<Table["$inferInsert"]>,
  what: string,
): Promise<Table["$inferSelect"]> {
  const rows = await db
    .update(table as EditedTable)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(table.id, id))
    .returning();
  // Typed for the union of tables, the rows are those of `table`.
  return onlyRow(rows as Table["$inferSelect"][], what);
}

export async function createPersona({ db, fields }: NewRowArgs<PersonaFields>): Promise<Persona> {
  return insertEditedRow(db, personas, fields);
}

export async function updatePersona({
  db,
  personaId,
  changes,
}: EditArgs<PersonaFields> & { personaId: string }): Promise<Persona> {
  return updateEditedRow(db, personas, personaId, changes, "Persona");
}

export async function deletePersona({ db, personaId }: { db: Database; personaId: string }) {
  await db.transaction(async (tx) => {
    const [persona] = await tx.select().from(personas).where(eq(personas.id, personaId)).for("update");
    if (!persona) throw notFound("Persona");
    const [{ used }] = await tx
      .select({ used: count() })
      .from(conversations)
      .where(eq(conversations.personaId, personaId));
    if (used > 0) {
      throw new AppError(
        "conflict",
        `Persona ${persona.name} is used by ${used} conversation${used === 1 ? "" : "s"}: delete or move those conversations first.`,
      );
    }
    await tx.delete(personas).where(eq(personas.id, personaId));
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Models

export interface ModelFields {
  id: string;
  provider: Model["provider"];
  providerModelName: string;
  label: string;
  apiKind: Model["apiKind"];
  capabilities: ModelCapabilities;
  contextWindow: number;
  maxOutputTokens: number;
  tokenizer: Model["tokenizer"];
  enabled: boolean;
}

export async function createModel({ db, fields }: NewRowArgs<ModelFields>): Promise<Model> {
  try {
    return await insertEditedRow(db, models, fields);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("conflict", `A model with id ${fields.id} already exists.`);
    throw error;
  }
}

export async function getModelOrThrow({ db, modelId }: { db: Database; modelId: string }): Promise<Model> {
  return onlyRow(await db.select().from(models).where(eq(models.id, modelId)).limit(1), `Model ${modelId}`);
}

export async function updateModel({
  db,
  modelId,
  changes,
}: EditArgs<Omit<ModelFields, "id">> & { modelId: string }): Promise<Model> {
  return updateEditedRow(db, models, modelId, changes, `Model ${modelId}`);
}

/** Personas whose main or fallback model is this one. */
function usesModel(modelId: string): SQL {
  return or(
    eq(personas.modelId, modelId),
    sql`${personas.fallbackModelIds} @> ${JSON.stringify([modelId])}::jsonb`,
  ) as SQL;
}

/** Why a model cannot be deleted: the personas that use it and the policy's summary model; empty when free. */
export async function listModelUses({ db, modelId }: { db: Database; modelId: string }): Promise<string[]> {
  const [users, policy] = await Promise.all([
    db.select({ name: personas.name }).from(personas).where(usesModel(modelId)).orderBy(asc(personas.name)),
    getCurrentSettings({ db }),
  ]);
  const uses = users.map((persona) => `persona ${persona.name}`);
  if (policy.settings.summary.modelId === modelId) uses.push("the context policy's summary.modelId");
  return uses;
}

export async function deleteModel({ db, modelId }: { db: Database; modelId: string }) {
  try {
    await db.delete(models).where(eq(models.id, modelId));
  } catch (error) {
    // A persona created since the check points at it (the foreign key refuses).
    if (errorCode(error) === "23503")
      throw new AppError("conflict", `Model ${modelId} is in use by a persona.`);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Persona user blocks: one row per persona × user; setting one again replaces it.

export async function listBlocks({ db, now = new Date() }: { db: Database; now?: Date }) {
  const rows = await db
    .select({
      ...getTableColumns(personaUserBlocks),
      personaName: personas.name,
      userName: user.name,
      userEmail: user.email,
    })
    .from(personaUserBlocks)
    .innerJoin(personas, eq(personas.id, personaUserBlocks.personaId))
    .innerJoin(user, eq(user.id, personaUserBlocks.userId))
    .orderBy(desc(personaUserBlocks.createdAt));
  return rows.map((block) => ({ ...block, active: block.expiresAt === null || block.expiresAt > now }));
}

export async function upsertBlock({
  db,
  personaId,
  userId,
  blockType,
  reason,
  expiresAt,
  setBy,
}: {
  db: Database;
  personaId: string;
  userId: string;
  blockType: "mute" | "block";
  reason: string | null;
  expiresAt: Date | null;
  setBy: string;
}) {
  const values = { personaId, userId, blockType, reason, expiresAt, setBy, createdAt: new Date() };
  const [row] = await db
    .insert(personaUserBlocks)
    .values(values)
    .onConflictDoUpdate({
      target: [personaUserBlocks.personaId, personaUserBlocks.userId],
      set: { blockType, reason, expiresAt, setBy, createdAt: values.createdAt },
    })
    .returning();
  return row;
}

/** Deletes by id or by persona × user; false when there was nothing to delete. */
export async function deleteBlock({
  db,
  blockId,
  personaId,
  userId,
}: {
  db: Database;
  blockId?: string;
  personaId?: string;
  userId?: string;
}): Promise<boolean> {
  const where = blockId
    ? eq(personaUserBlocks.id, blockId)
    : and(eq(personaUserBlocks.personaId, personaId ?? ""), eq(personaUserBlocks.userId, userId ?? ""));
  const deleted = await db.delete(personaUserBlocks).where(where).returning({ id: personaUserBlocks.id });
  return deleted.length > 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Memories

export async function listMemories({
  db,
  userId,
  personaId,
  scope,
}: {
  db: Database;
  userId?: string;
  personaId?: string;
  scope?: Memory["scope"];
}) {
  const filters: SQL[] = [];
  if (userId) filters.push(eq(memories.userId, userId));
  if (personaId) filters.push(eq(memories.personaId, personaId));
  if (scope) filters.push(eq(memories.scope, scope));
  return db
    .select({ ...getTableColumns(memories), userName: user.name, personaName: personas.name })
    .from(memories)
    .leftJoin(user, eq(user.id, memories.userId))
    .leftJoin(personas, eq(personas.id, memories.personaId))
    .where(filters.length ? and(...filters) : undefined)
    .orderBy(desc(memories.createdAt));
}

/** What a new memory is made of; the rest (ids, times) the database fills in. */
export type MemoryFields = Pick<Memory, "scope" | "userId" | "personaId" | "area" | "content" | "active">;

export async function createMemory({ db, fields }: NewRowArgs<MemoryFields>): Promise<Memory> {
  return insertEditedRow(db, memories, fields);
}

export async function updateMemory({
  db,
  memoryId,
  changes,
}: EditArgs<Pick<Memory, "area" | "content" | "active">> & { memoryId: string }): Promise<Memory> {
  return updateEditedRow(db, memories, memoryId, changes, "Memory");
}

export async function deleteMemory({ db, memoryId }: { db: Database; memoryId: string }) {
  const deleted = await db.delete(memories).where(eq(memories.id, memoryId)).returning({ id: memories.id });
  if (deleted.length === 0) throw notFound("Memory");
}

// ---------------------------------------------------------------------------------------------------------------
// Users and roles

export async function listUsers({ db }: { db: Database }) {
  return db
    .select({ id: user.id, name: user.name, email: user.email, role: user.role, createdAt: user.createdAt })
    .from(user)
    .orderBy(asc(user.createdAt));
}

export async function userExists({ db, userId }: UserArgs): Promise<boolean> {
  return anyRow(db, user, eq(user.id, userId));
}

/**
 * An admin who can act: the admin role and no ban in force (better-auth lifts a ban whose time is over at the
 * next sign-in). The last-admin rule counts these: a banned admin cannot sign in, so it keeps no one in charge.
 */
function usableAdmin(now = new Date()): SQL {
  return and(
    eq(user.role, "admin"),
    or(isNull(user.banned), eq(user.banned, false), lt(user.banExpires, now)),
  ) as SQL;
}

/**
 * Locks the usable admins' rows, then the target's, for a change that may take admin power away. Every such
 * change (a role, a ban, a deletion) starts here, so they run one after another: there is always at least one
 * usable admin, and each of them locks it first. A locked row that another transaction changed meanwhile is read
 * again as committed and re-checked against the WHERE clause, so an admin demoted or banned a moment ago is not
 * counted; one promoted a moment ago may be missed, which can only refuse a change, never allow a wrong one.
 */
async function lockForPowerChange(tx: Transaction, userId: string) {
  const admins = await tx.select({ id: user.id }).from(user).where(usableAdmin()).for("update");
  const [target] = await tx.select().from(user).where(eq(user.id, userId)).for("update");
  if (!target) throw notFound("User");
  return { admins: admins.map((row) => row.id), target };
}

const ADMIN_FIRST = "This account is an admin: make it a user first (at least one admin must remain).";

/** The columns the admin page shows of an account. */
const accountColumns = {
  id: user.id,
  name: user.name,
  email: user.email,
  role: user.role,
  createdAt: user.createdAt,
};

/** Change a role; demoting the last usable admin is refused. */
export async function setUserRole({ db, userId, role }: UserArgs & { role: "admin" | "user" }) {
  return db.transaction(async (tx) => {
    const { admins, target } = await lockForPowerChange(tx, userId);
    if (role === "user" && admins.includes(target.id) && admins.length <= 1) {
      throw new AppError(
        "conflict",
        "At least one admin must remain: promote someone else before demoting this admin.",
      );
    }
    const [row] = await tx
      .update(user)
      .set({ role, updatedAt: new Date() })
      .where(eq(user.id, userId))
      .returning(accountColumns);
    return row;
  });
}

/**
 * Ban an account and end its sessions (what better-auth's ban-user does, under the lock). An admin is refused: it
 * is made a user first, through the checked role change.
 */
export async function banUser({
  db,
  userId,
  reason,
  expiresAt,
}: UserArgs & { reason: string; expiresAt: Date | null }) {
  return db.transaction(async (tx) => {
    const { target } = await lockForPowerChange(tx, userId);
    if (target.role === "admin") throw new AppError("conflict", ADMIN_FIRST);
    const [row] = await tx
      .update(user)
      .set({ banned: true, banReason: reason, banExpires: expiresAt, updatedAt: new Date() })
      .where(eq(user.id, userId))
      .returning();
    await tx.delete(session).where(eq(session.userId, userId));
    return row;
  });
}

/** Delete an account with its sessions and sign-in methods (their rows cascade); an admin is refused. */
export async function deleteUser({ db, userId }: UserArgs) {
  await db.transaction(async (tx) => {
    const { target } = await lockForPowerChange(tx, userId);
    if (target.role === "admin") throw new AppError("conflict", ADMIN_FIRST);
    await tx.delete(user).where(eq(user.id, userId));
  });
}

/** Whether a persona id exists (memories and blocks refer to one). */
export async function personaExists({
  db,
  personaId,
}: {
  db: Database;
  personaId: string;
}): Promise<boolean> {
  return anyRow(db, personas, eq(personas.id, personaId));
}

/** Serialises the first-admin decision across concurrent sign-ups (any constant unique to this use). */
const FIRST_ADMIN_LOCK = 0x61646d6e; // "admn"

/**
 * Make a newly created account the admin when there is no admin yet and no account older than it: the first
 * account registered. Decided under a transaction-scoped advisory lock, so of any number of sign-ups at once on an
 * empty database exactly one becomes admin. Returns whether this account did.
 */
export async function promoteIfFirstAccount({ db, userId }: UserArgs): Promise<boolean> {
  return db.transaction(async (tx) => {
    await queryRows(tx, sql`select pg_advisory_xact_lock(${FIRST_ADMIN_LOCK})`);
    const [newcomer] = await tx
      .select({ id: user.id, createdAt: user.createdAt })
      .from(user)
      .where(eq(user.id, userId));
    if (!newcomer) return false;
    if (await anyRow(tx, user, eq(user.role, "admin"))) return false;
    const older = or(
      lt(user.createdAt, newcomer.createdAt),
      and(eq(user.createdAt, newcomer.createdAt), lt(user.id, newcomer.id)),
    );
    if (await anyRow(tx, user, older)) return false;
    await tx.update(user).set({ role: "admin", updatedAt: new Date() }).where(eq(user.id, userId));
    return true;
  });
}
