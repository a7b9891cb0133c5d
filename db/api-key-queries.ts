// API keys of the gateway (/v1): created and revoked by their owner, found by the hash of the secret a client
// sends; and the conversations a key's calls started, found by the hash of their transcript.

import "server-only";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { ModelPrices } from "@/lib/domain/types";
import type { Database } from "./client";
import { preparedStatement } from "./prepared-statements";
import { onlyRow, type UserArgs } from "./query-parts";
import { queryRows } from "./raw-sql";
import {
  type ApiKey,
  apiKeyConversations,
  apiKeys,
  apiKeyTranscriptPoints,
  attempts,
  messages,
  models,
  turns,
  user,
} from "./schema";
import { decodeSnapshot, snapshotStatementFor, type TurnSnapshot } from "./turn-snapshot-queries";

/** What the owner sees of a key: never its hash. */
export type ApiKeyView = Pick<
  ApiKey,
  "id" | "name" | "personaIds" | "createdAt" | "lastUsedAt" | "revokedAt"
>;

const VIEW_COLUMNS = {
  id: apiKeys.id,
  name: apiKeys.name,
  personaIds: apiKeys.personaIds,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};

export async function insertApiKey({
  db,
  userId,
  name,
  personaIds,
  secretHash,
}: UserArgs & { name: string; personaIds: string[] | null; secretHash: string }): Promise<ApiKeyView> {
  const [row] = await db
    .insert(apiKeys)
    .values({ userId, name, personaIds, secretHash })
    .returning(VIEW_COLUMNS);
  return row;
}

/** The usage of one model by a key's conversations: the attempts' reported tokens summed, and the model's prices. */
export interface KeyModelUsage {
  modelId: string;
  prices: ModelPrices | null;
  /** Attempts that reported usage (the others have no known cost). */
  reported: number;
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
}

/** The listed key's id, qualified: inside the subqueries a bare column name would be ambiguous. */
const keyIdOfRow = sql.raw(`"api_keys"."id"`);
const usageToken = (name: string) =>
  sql.raw(`coalesce(sum((a."response" -> 'usage' ->> '${name}')::numeric), 0)::float8`);

/**
 * The user's keys that still work, newest first, each with its usage in the same statement: `calls`, the turns of
 * the conversations the key's calls made or continued (`api_key_conversations`), and per model the tokens its
 * attempts reported (every attempt of those conversations: retries, fallbacks, tool steps, summaries, titles).
 */
export async function listActiveApiKeysWithUsage({ db, userId }: UserArgs) {
  return db
    .select({
      ...VIEW_COLUMNS,
      calls: sql<number>`(select count(*)::int from ${turns} t join ${apiKeyConversations} c on c."conversationId" = t."conversationId" where c."apiKeyId" = ${keyIdOfRow})`,
      byModel: sql<KeyModelUsage[]>`(select coalesce(jsonb_agg(per_model), '[]'::jsonb) from (
        select a."modelId" as "modelId", m."prices" as "prices",
          (count(*) filter (where jsonb_typeof(a."response" -> 'usage') = 'object'))::int as "reported",
          ${usageToken("inputTokens")} as "inputTokens",
          ${usageToken("cachedInputTokens")} as "cachedInputTokens",
          ${usageToken("cacheWriteTokens")} as "cacheWriteTokens",
          ${usageToken("outputTokens")} as "outputTokens"
        from ${attempts} a
        join ${apiKeyConversations} c on c."conversationId" = a."conversationId"
        left join ${models} m on m."id" = a."modelId"
        where c."apiKeyId" = ${keyIdOfRow}
        group by a."modelId", m."prices"
      ) per_model)`,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt));
}

/** Revokes one of the user's keys; another user's key, or one already revoked, is not found (404). */
export async function revokeApiKey({ db, userId, keyId }: UserArgs & { keyId: string }): Promise<void> {
  onlyRow(
    await db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id }),
    "API key",
  );
}

/** The key a secret's hash belongs to, when it is not revoked, with its owner; read on every call. */
export async function findActiveApiKey({ db, secretHash }: { db: Database; secretHash: string }) {
  const [row] = await activeApiKeyStatement(db).execute({ secretHash });
  return row ?? null;
}

// Every gateway call reads its key, looks up its conversation and records its transcript: prepared (the turn's
// own statements are too).
const activeApiKeyStatement = preparedStatement("findActiveApiKey", (db) =>
  db
    .select({
      key: apiKeys,
      owner: { name: user.name, email: user.email, role: user.role, banned: user.banned },
    })
    .from(apiKeys)
    .innerJoin(user, eq(user.id, apiKeys.userId))
    .where(and(eq(apiKeys.secretHash, sql.placeholder("secretHash")), isNull(apiKeys.revokedAt)))
    .limit(1),
);

export async function touchApiKey({ db, keyId }: { db: Database; keyId: string }): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, keyId));
}

/**
 * A key's transcript in one of its conversations: the hash of the conversation's history as the key's client
 * sends it.
 */
type KeyTranscriptArgs = { db: Database; apiKeyId: string; transcriptHash: string; conversationId: string };

/**
 * The conversation of the key whose secret hashes to `secretHash` that holds the transcript `transcriptHash` (the
 * most recently continued one first), read as a turn reads it (the snapshot, db/turn-snapshot-queries.ts) by the
 * key's owner, in the statement that finds it: a call that continues its conversation reads it beside its key, in
 * one round trip. Found by the secret, not the key's id, so the lookup can start while the key itself is still
 * being read (lib/gateway/chat-completions.ts); the key's own check decides whether the call ever uses what it
 * found. A key's calls continue only conversations its owner owns, so null means none holds that transcript.
 */
export async function findKeyConversationSnapshot({
  db,
  secretHash,
  transcriptHash,
}: {
  db: Database;
  secretHash: string;
  transcriptHash: string;
}): Promise<TurnSnapshot | null> {
  const [row] = await keyConversationSnapshotStatement(db).execute({
    secretHash,
    transcriptHash,
    personaId: null,
    modelId: null,
    clientMessageId: null,
  });
  return row ? decodeSnapshot(row, { modelId: null, clientMessageId: null }) : null;
}

const keyConversationSnapshotStatement = snapshotStatementFor("findKeyConversationSnapshot", (db) => ({
  conversationId: sql`(${db
    .select({ conversationId: apiKeyConversations.conversationId })
    .from(apiKeyConversations)
    .innerJoin(apiKeys, eq(apiKeys.id, apiKeyConversations.apiKeyId))
    .where(
      and(
        eq(apiKeys.secretHash, sql.placeholder("secretHash")),
        eq(apiKeyConversations.transcriptHash, sql.placeholder("transcriptHash")),
      ),
    )
    .orderBy(desc(apiKeyConversations.updatedAt))
    .limit(1)})`,
  userId: sql`(${db
    .select({ userId: apiKeys.userId })
    .from(apiKeys)
    .where(eq(apiKeys.secretHash, sql.placeholder("secretHash")))})`,
}));

/**
 * Records the transcript a call left behind, in one statement: the key's conversation it continues (each
 * conversation keeps its newest transcript, which the next call's history is looked up by), and, with
 * `messageId` (the reply that ends it), the point a later call that shares it and then differs branches at.
 */
export async function saveTranscript({
  db,
  apiKeyId,
  conversationId,
  transcriptHash,
  messageId,
}: KeyTranscriptArgs & { messageId: string | null }): Promise<void> {
  await queryRows(
    db,
    sql`with conversation as (
      insert into ${apiKeyConversations} ("apiKeyId", "conversationId", "transcriptHash")
      values (${apiKeyId}, ${conversationId}, ${transcriptHash})
      on conflict ("conversationId") do update set
        "apiKeyId" = excluded."apiKeyId", "transcriptHash" = excluded."transcriptHash", "updatedAt" = now()
    )
    insert into ${apiKeyTranscriptPoints} ("apiKeyId", "transcriptHash", "conversationId", "messageId")
    select ${apiKeyId}::uuid, ${transcriptHash}, ${conversationId}::uuid, ${messageId}::uuid
    where ${messageId}::uuid is not null
    on conflict do nothing`,
  );
}

/** Of the transcripts given (hashes), the recorded points of this key's calls that end at one: newest first. */
export async function findTranscriptPoints({
  db,
  apiKeyId,
  transcriptHashes,
}: {
  db: Database;
  apiKeyId: string;
  transcriptHashes: string[];
}) {
  if (transcriptHashes.length === 0) return [];
  return db
    .select({
      transcriptHash: apiKeyTranscriptPoints.transcriptHash,
      conversationId: apiKeyTranscriptPoints.conversationId,
      messageId: apiKeyTranscriptPoints.messageId,
    })
    .from(apiKeyTranscriptPoints)
    .where(
      and(
        eq(apiKeyTranscriptPoints.apiKeyId, apiKeyId),
        inArray(apiKeyTranscriptPoints.transcriptHash, transcriptHashes),
      ),
    )
    .orderBy(desc(apiKeyTranscriptPoints.createdAt));
}

/** The conversation a message (a gateway response's reply) belongs to, or null. */
export async function conversationOfMessage({ db, messageId }: { db: Database; messageId: string }) {
  const [row] = await db
    .select({ conversationId: messages.conversationId })
    .from(messages)
    .where(eq(messages.id, messageId))
    .limit(1);
  return row?.conversationId ?? null;
}
