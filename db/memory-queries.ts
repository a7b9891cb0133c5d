// A user's own memories, as they manage them (Settings → Memories): what the personas remember about them, which
// they may read, correct and delete, and whether a conversation's summary may become one. Every query is scoped to
// the user: someone else's memory is simply not found. Also the memories the `remember` tool stores (a turn reads
// its memories with the rest of its snapshot, db/turn-snapshot-queries.ts).
import { and, desc, eq, type SQL } from "drizzle-orm";
import { AppError } from "@/lib/domain/errors";
import type { UserArgs } from "./query-parts";
import { conversations, memories, memoryPreferences, personas } from "./schema";

export interface OwnMemory {
  id: string;
  scope: "user" | "persona" | "user_persona";
  area: string;
  content: string;
  personaName: string | null;
  /** For a summary kept as a memory: the conversation it came from. */
  conversationId: string | null;
  conversationTitle: string | null;
  summaryId: string | null;
  updatedAt: Date;
}

const ownMemoryColumns = {
  id: memories.id,
  scope: memories.scope,
  area: memories.area,
  content: memories.content,
  personaName: personas.name,
  conversationId: memories.conversationId,
  conversationTitle: conversations.title,
  summaryId: memories.summaryId,
  updatedAt: memories.updatedAt,
};

/** One of the user's memories. */
type OwnMemoryArgs = UserArgs & { memoryId: string };

/** The user's memories that are in use, newest first. */
export async function listOwnMemories({ db, userId }: UserArgs): Promise<OwnMemory[]> {
  return db
    .select(ownMemoryColumns)
    .from(memories)
    .leftJoin(personas, eq(personas.id, memories.personaId))
    .leftJoin(conversations, eq(conversations.id, memories.conversationId))
    .where(and(eq(memories.userId, userId), eq(memories.active, true)))
    .orderBy(desc(memories.updatedAt));
}

/** The memory `memoryId` when it is `userId`'s (and meets `condition`). */
function ownMemory({ userId, memoryId }: OwnMemoryArgs, condition?: SQL) {
  return and(eq(memories.id, memoryId), eq(memories.userId, userId), condition);
}

function memoryNotFound(): AppError {
  return new AppError("not_found", "Memory not found");
}

export async function updateOwnMemory(args: OwnMemoryArgs & { content: string }): Promise<void> {
  const updated = await args.db
    .update(memories)
    .set({ content: args.content, updatedAt: new Date() })
    .where(ownMemory(args, eq(memories.active, true)))
    .returning({ id: memories.id });
  if (updated.length === 0) throw memoryNotFound();
}

/** Gone for good: no later turn sees it, and nothing brings it back. */
export async function deleteOwnMemory(args: OwnMemoryArgs): Promise<void> {
  const deleted = await args.db.delete(memories).where(ownMemory(args)).returning({ id: memories.id });
  if (deleted.length === 0) throw memoryNotFound();
}

export interface MemoryPreferences {
  /** A conversation's summary is kept as a memory the persona sees in the user's other conversations with it. */
  sessionSummaries: boolean;
}

/** The preferences, and whether the user has chosen them (until then summaries are not kept, and the app asks). */
export async function getMemoryPreferences({
  db,
  userId,
}: UserArgs): Promise<MemoryPreferences & { chosen: boolean }> {
  const [row] = await db
    .select({ sessionSummaries: memoryPreferences.sessionSummaries })
    .from(memoryPreferences)
    .where(eq(memoryPreferences.userId, userId));
  return row ? { ...row, chosen: true } : { sessionSummaries: false, chosen: false };
}

export async function setMemoryPreferences({
  db,
  userId,
  preferences,
}: UserArgs & { preferences: MemoryPreferences }): Promise<MemoryPreferences & { chosen: boolean }> {
  const values = { ...preferences, updatedAt: new Date() };
  await db
    .insert(memoryPreferences)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: memoryPreferences.userId, set: values });
  return { ...preferences, chosen: true };
}

/** Whether a summary of this user's conversation may be kept as their memory (the summariser asks). */
export async function keepsSessionSummaries({ db, userId }: UserArgs): Promise<boolean> {
  return (await getMemoryPreferences({ db, userId })).sessionSummaries;
}

/** A memory the `remember` tool stores: about this user, for this persona. */
export async function storeToolMemory({
  db,
  userId,
  personaId,
  area,
  content,
}: UserArgs & { personaId: string; area: string; content: string }) {
  const [row] = await db
    .insert(memories)
    .values({ scope: "user_persona", userId, personaId, area, content, active: true })
    .returning();
  return row;
}

/**
 * The memories a turn may use: the persona's own, and unless `includePrivate` is false (a room, where others read
 * the payload), the user's private ones (user and user × persona scope).
 */
