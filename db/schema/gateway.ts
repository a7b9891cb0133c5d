// The gateway (/v1): API keys and the conversations their calls continue.

import type { InferSelectModel } from "drizzle-orm";
import { index, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import {
  belongsTo,
  conversationReference,
  createdAt,
  id,
  messageReference,
  updatedAt,
  userReference,
} from "./tables";

const apiKeyReference = () => belongsTo("apiKeyId", () => apiKeys.id);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: id(),
    userId: userReference(),
    name: text("name").notNull(),
    /** SHA-256 of the secret, hex: the secret itself is shown once and never stored. */
    secretHash: text("secretHash").notNull().unique("api_keys_secret_hash_unique"),
    /** The personas the key may talk to; null: every persona. */
    personaIds: jsonb("personaIds").$type<string[] | null>(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("lastUsedAt", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revokedAt", { withTimezone: true, mode: "date" }),
  },
  (table) => [index("api_keys_user_idx").on(table.userId, table.createdAt)],
);

/**
 * A conversation a key's calls started, with the hash of its transcript as a client sends it back (system text,
 * then each message's role and content): the next call whose earlier messages hash the same continues it.
 */
export const apiKeyConversations = pgTable(
  "api_key_conversations",
  {
    conversationId: conversationReference().primaryKey(),
    apiKeyId: apiKeyReference(),
    transcriptHash: text("transcriptHash").notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [index("api_key_conversations_hash_idx").on(table.apiKeyId, table.transcriptHash)],
);

// Each transcript a key's call left behind, with the reply that ended it: a later call whose history equals one of
// them up to a point, then differs, branches that conversation at that reply.
export const apiKeyTranscriptPoints = pgTable(
  "api_key_transcript_points",
  {
    apiKeyId: apiKeyReference(),
    transcriptHash: text("transcriptHash").notNull(),
    conversationId: conversationReference(),
    messageId: messageReference(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.apiKeyId, table.transcriptHash, table.messageId] })],
);

export type ApiKey = InferSelectModel<typeof apiKeys>;
