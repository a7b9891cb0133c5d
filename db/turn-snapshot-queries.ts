// Everything a model call about a conversation reads before it builds, in one statement (one round trip, one
// snapshot): the conversation as its reader may see it, its persona, the models that may answer, the context
// policy, the active summary, the members, the memories and blocks that reach the payload, and the two facts a
// turn is refused on (a reply being written, a message id already stored). Each part is a subquery whose rows come
// back as JSON, decoded here with the columns' own mappers, so callers get the same typed rows the single-table
// queries give. See docs/architecture.md, "A turn, step by step".

import "server-only";
import { eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import { notFound } from "@/lib/domain/errors";
import type { Database } from "./client";
import { readerOfConversation } from "./conversation-queries";
import { decodeRow, type JsonRow, parseJson } from "./json-rows";
import { preparedStatement } from "./prepared-statements";
import {
  type Conversation,
  conversations,
  type Memory,
  type Model,
  memories,
  messages,
  models,
  type Persona,
  type PersonaUserBlockRow,
  participants,
  personas,
  personaUserBlocks,
  type SettingsVersion,
  type Summary,
  session,
  settingsVersions,
  summaries,
  turns,
  user,
} from "./schema";

/** The rows phase A reads besides the history window (lib/chat/turn/load-turn-input.ts). */
export interface ConversationContextRows {
  /** The newest version of the global context policy. */
  globalSettings: SettingsVersion;
  activeSummary: Summary | null;
  /** Members who have joined (not those only invited), oldest first. */
  participants: { userId: string; name: string; role: string; joinedAt: Date }[];
  /** Active memories of the persona, and the reader's own unless the conversation is a room. */
  memories: Memory[];
  /** The persona's blocks and mutes that have not expired, with the blocked person's name. */
  blocks: { block: PersonaUserBlockRow; userName: string }[];
}

export interface TurnSnapshot {
  conversation: Conversation;
  /** The persona answering (the conversation's, or the one asked for); null when it no longer exists. */
  persona: Persona | null;
  context: ConversationContextRows;
  /** The rows of the conversation's chosen model, the persona's model and fallbacks, and `modelId`, by id. */
  models: Map<string, Model>;
  /** The newest turn of the conversation still marked running, by any instance. */
  runningTurn: { id: string; assistantMessageId: string } | null;
  /** Whether a message with the request's client id is already stored in the conversation. */
  clientMessageStored: boolean;
  /** Whom it was read for, and with which model and client message id: a snapshot read early is used only for these. */
  readFor: { userId: string; modelId: string | null; clientMessageId: string | null };
}

/**
 * The snapshot, or not found when the reader neither owns the conversation nor takes part in it (never
 * "forbidden": no leak).
 */
export async function readTurnSnapshot({
  db,
  conversationId,
  userId,
  personaId = null,
  modelId = null,
  clientMessageId = null,
}: {
  db: Database;
  conversationId: string;
  userId: string;
  /** Read the persona-scoped rows for this persona instead of the conversation's (an admin's draft of it). */
  personaId?: string | null;
  /** One more model to read (a regenerate's choice). */
  modelId?: string | null;
  clientMessageId?: string | null;
}): Promise<TurnSnapshot> {
  const [row] = await snapshotStatement(db).execute({
    conversationId,
    userId,
    personaId,
    modelId,
    clientMessageId,
  });
  if (!row) throw notFound("Conversation");
  return decodeSnapshot(row, { modelId, clientMessageId });
}

/**
 * The snapshot as the user of the session with `token` reads it (the chat route reads it beside the session's own
 * check, and uses it once that check passed for that very user); null when there is no such session, or that user
 * may not read the conversation.
 */
export async function readTurnSnapshotOfSession({
  db,
  token,
  conversationId,
  modelId,
  clientMessageId,
}: {
  db: Database;
  token: string;
  conversationId: string;
  modelId: string | null;
  clientMessageId: string | null;
}): Promise<TurnSnapshot | null> {
  const [row] = await sessionSnapshotStatement(db).execute({
    token,
    conversationId,
    personaId: null,
    modelId,
    clientMessageId,
  });
  return row ? decodeSnapshot(row, { modelId, clientMessageId }) : null;
}

const sessionSnapshotStatement = snapshotStatementFor("readTurnSnapshotOfSession", (db) => ({
  conversationId: sql.placeholder("conversationId"),
  userId: sql`(${db
    .select({ userId: session.userId })
    .from(session)
    .where(eq(session.token, sql.placeholder("token")))})`,
}));

/** A snapshot statement's row, as typed rows; `readWith` is what it was read with besides its target. */
export function decodeSnapshot(
  row: SnapshotRow,
  readWith: { modelId: string | null; clientMessageId: string | null },
): TurnSnapshot {
  const parts = parseJson(row.parts) as SnapshotParts;
  if (!parts.globalSettings) throw new Error("The context policy is missing: the database was not seeded.");
  return {
    conversation: row.conversation,
    persona: row.persona,
    context: {
      globalSettings: decodeRow(settingsVersions, parts.globalSettings),
      activeSummary: parts.activeSummary ? decodeRow(summaries, parts.activeSummary) : null,
      participants: parts.participants.map((member) => ({ ...member, joinedAt: new Date(member.joinedAt) })),
      memories: parts.memories.map((memory) => decodeRow(memories, memory)),
      blocks: parts.blocks.map(({ block, userName }) => ({
        block: decodeRow(personaUserBlocks, block),
        userName,
      })),
    },
    models: new Map(
      parts.models.map((model) => {
        const decoded = decodeRow(models, model);
        return [decoded.id, decoded];
      }),
    ),
    runningTurn: parts.runningTurn,
    clientMessageStored: parts.clientMessageStored,
    readFor: { userId: row.readerId, ...readWith },
  };
}

interface SnapshotParts {
  globalSettings: JsonRow | null;
  activeSummary: JsonRow | null;
  participants: { userId: string; name: string; role: string; joinedAt: string }[];
  memories: JsonRow[];
  blocks: { block: JsonRow; userName: string }[];
  models: JsonRow[];
  runningTurn: { id: string; assistantMessageId: string } | null;
  clientMessageStored: boolean;
}

/**
 * Which conversation a snapshot statement reads, and as whom: placeholders of those names, or subqueries that find
 * them in the same statement (a gateway call's, db/api-key-queries.ts). The statement's other placeholders are
 * `personaId`, `modelId` and `clientMessageId`, each null when the call names none.
 */
export interface SnapshotTarget {
  conversationId: SQL | Placeholder;
  userId: SQL | Placeholder;
}

type SnapshotRow = { conversation: Conversation; persona: Persona | null; parts: unknown; readerId: string };

const snapshotStatement = snapshotStatementFor("readTurnSnapshot", () => ({
  conversationId: sql.placeholder("conversationId"),
  userId: sql.placeholder("userId"),
}));

/** The snapshot statement named `name`, reading the conversation `target` gives, prepared per handle. */
export function snapshotStatementFor(name: string, target: (db: Database) => SnapshotTarget) {
  return preparedStatement(name, (db) => snapshotQuery(db, target(db)));
}

function snapshotQuery(db: Database, target: SnapshotTarget) {
  const { userId } = target;
  const answering = sql`coalesce(${sql.placeholder("personaId")}::uuid, ${conversations.personaId})`;
  const conversation = sql`${conversations.id}`;
  // Each part a subquery on the conversation's row; aliases keep their columns apart from the outer tables'.
  const parts = sql`json_build_object(
    'globalSettings', (select row_to_json(v) from ${settingsVersions} v order by v.version desc limit 1),
    'activeSummary', (select row_to_json(s) from ${summaries} s
      where s."conversationId" = ${conversation} and s."supersededBy" is null
      order by s."createdAt" desc limit 1),
    'participants', coalesce((select json_agg(json_build_object(
        'userId', m."userId", 'name', u.name, 'role', m.role, 'joinedAt', m."joinedAt") order by m."joinedAt")
      from ${participants} m join ${user} u on u.id = m."userId"
      where m."conversationId" = ${conversation} and m.role <> 'invited'), '[]'::json),
    'memories', coalesce((select json_agg(row_to_json(r) order by r."createdAt", r.id) from ${memories} r
      where r.active and (
        (r.scope = 'persona' and r."personaId" = ${answering})
        or (${conversations.visibility} <> 'room' and r."userId" = ${userId}
          and (r.scope = 'user' or (r.scope = 'user_persona' and r."personaId" = ${answering}))))), '[]'::json),
    'blocks', coalesce((select json_agg(json_build_object('block', row_to_json(b), 'userName', u.name)
        order by b."createdAt", b.id)
      from ${personaUserBlocks} b join ${user} u on u.id = b."userId"
      where b."personaId" = ${answering} and (b."expiresAt" is null or b."expiresAt" > now())), '[]'::json),
    'models', coalesce((select json_agg(row_to_json(d)) from ${models} d
      where d.id = ${conversations.modelId} or d.id = ${personas.modelId}
        or jsonb_exists(${personas.fallbackModelIds}, d.id) or d.id = ${sql.placeholder("modelId")}::text),
      '[]'::json),
    'runningTurn', (select json_build_object('id', t.id, 'assistantMessageId', t."assistantMessageId")
      from ${turns} t where t."conversationId" = ${conversation} and t.status = 'running'
      order by t."createdAt" desc limit 1),
    'clientMessageStored', exists(select 1 from ${messages} c
      where c."conversationId" = ${conversation} and c."clientMessageId" = ${sql.placeholder("clientMessageId")}::text)
  )`;
  const reader = readerOfConversation(userId, target.conversationId);
  return db
    .select({ conversation: conversations, persona: personas, parts, readerId: sql<string>`${userId}::text` })
    .from(conversations)
    .leftJoin(participants, reader.membership)
    .leftJoin(personas, sql`${personas.id} = ${answering}`)
    .where(reader.mayRead)
    .limit(1);
}
