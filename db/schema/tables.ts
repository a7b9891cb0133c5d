// The tables of accounts, models and personas, conversations and their messages, memories, turns and attempts,
// the policy, and live events, with the column groups every table file builds on (db/schema.ts is the whole
// schema).

import { type InferSelectModel, relations, type SQL, sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { v7 as uuidv7 } from "uuid";
import type { ResolvedSettings, SettingsOverride } from "@/lib/domain/settings";
import {
  API_KINDS,
  ATTEMPT_KINDS,
  AUTHOR_TYPES,
  BLOCK_TYPES,
  MEDIA_KINDS,
  MESSAGE_STATUSES,
  type ModelCapabilities,
  type ModelPrices,
  PROVIDER_NAMES,
  type StoredPart,
  TOKENIZER_NAMES,
} from "@/lib/domain/types";
import type { AttemptUsage, PrivateMemoryUse, RecordedRequest } from "../attempt-records";

export const createdAt = () =>
  timestamp("createdAt", { withTimezone: true, mode: "date" }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp("updatedAt", { withTimezone: true, mode: "date" }).notNull().defaultNow();
/** When the row was made and last changed. */
const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });
export const id = () =>
  uuid("id")
    .primaryKey()
    .$defaultFn(() => uuidv7());
/** The row a row belongs to, by its uuid column `name`: required, and the row is deleted with it. */
export const belongsTo = <Name extends string>(name: Name, parent: () => AnyPgColumn) =>
  uuid(name).notNull().references(parent, { onDelete: "cascade" });
export const conversationReference = () => belongsTo("conversationId", () => conversations.id);
export const messageReference = () => belongsTo("messageId", () => messages.id);
const personaReference = () => belongsTo("personaId", () => personas.id);
/** A row a row may point at, by its uuid column `name`: optional, and null once that row is deleted. */
const pointsAt = <Name extends string>(name: Name, target: () => AnyPgColumn) =>
  uuid(name).references(target, { onDelete: "set null" });
/** The account a row belongs to (better-auth's ids are text): required, and the row is deleted with it. */
export const userReference = () =>
  text("userId")
    .notNull()
    .references(() => user.id, { onDelete: "cascade" });
/** A row of its own id that belongs to a conversation. */
const conversationRow = () => ({ id: id(), conversationId: conversationReference() });
/** The account that wrote, uploaded or changed something; null once that account is deleted. */
const userWhoActed = <Name extends string>(name: Name) =>
  text(name).references(() => user.id, { onDelete: "set null" });
/** Who made the row (in the column `name`, as userWhoActed) and when. */
const madeBy = <Name extends string>(name: Name) =>
  ({ [name]: userWhoActed(name), createdAt: createdAt() }) as Record<
    Name,
    ReturnType<typeof userWhoActed<Name>>
  > & {
    createdAt: ReturnType<typeof createdAt>;
  };

// ---------------------------------------------------------------------------------------------------------------
// Accounts (better-auth, with the admin plugin's role fields)

export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("emailVerified").notNull().default(false),
  image: text("image"),
  role: text("role").notNull().default("user"),
  banned: boolean("banned").default(false),
  banReason: text("banReason"),
  banExpires: timestamp("banExpires", { withTimezone: true }),
  ...timestamps(),
});

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expiresAt", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    ipAddress: text("ipAddress"),
    userAgent: text("userAgent"),
    userId: userReference(),
    impersonatedBy: text("impersonatedBy"),
    ...timestamps(),
  },
  (table) => [index("session_user_idx").on(table.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("accountId").notNull(),
    providerId: text("providerId").notNull(),
    userId: userReference(),
    accessToken: text("accessToken"),
    refreshToken: text("refreshToken"),
    idToken: text("idToken"),
    accessTokenExpiresAt: timestamp("accessTokenExpiresAt", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refreshTokenExpiresAt", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    ...timestamps(),
  },
  (table) => [index("account_user_idx").on(table.userId)],
);

// better-auth reads a session with its user in one query (`advanced.database.joins` in lib/auth.ts), and a user
// with their accounts at sign-in, through drizzle's relational queries: these relations name the joins.
export const userRelations = relations(user, ({ many }) => ({
  sessions: many(session),
  accounts: many(account),
}));
export const sessionRelations = relations(session, ({ one }) => ({
  user: one(user, { fields: [session.userId], references: [user.id] }),
}));
export const accountRelations = relations(account, ({ one }) => ({
  user: one(user, { fields: [account.userId], references: [user.id] }),
}));

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expiresAt", { withTimezone: true }).notNull(),
    ...timestamps(),
  },
  (table) => [index("verification_identifier_idx").on(table.identifier)],
);

// ---------------------------------------------------------------------------------------------------------------
// Models and personas

export const models = pgTable("models", {
  /** A readable id such as "openai:gpt-4.1-mini". */
  id: text("id").primaryKey(),
  provider: text("provider", { enum: PROVIDER_NAMES }).notNull(),
  providerModelName: text("providerModelName").notNull(),
  label: text("label").notNull(),
  apiKind: text("apiKind", { enum: API_KINDS }).notNull().default("chat"),
  capabilities: jsonb("capabilities").$type<ModelCapabilities>().notNull(),
  contextWindow: integer("contextWindow").notNull(),
  maxOutputTokens: integer("maxOutputTokens").notNull(),
  tokenizer: text("tokenizer", { enum: TOKENIZER_NAMES }).notNull(),
  /** US dollars per million tokens (input, cached input, output); null when unknown, and costs stay unknown. */
  prices: jsonb("prices").$type<ModelPrices | null>(),
  enabled: boolean("enabled").notNull().default(true),
  ...timestamps(),
});

export const personas = pgTable("personas", {
  id: id(),
  name: text("name").notNull(),
  /** The persona's model id on the gateway (/v1): lowercase words joined by hyphens, unique. */
  slug: text("slug").unique("personas_slug_unique"),
  avatar: text("avatar"),
  systemPrompt: text("systemPrompt").notNull().default(""),
  modelId: text("modelId")
    .notNull()
    .references(() => models.id),
  fallbackModelIds: jsonb("fallbackModelIds").$type<string[]>().notNull().default([]),
  toolNames: jsonb("toolNames").$type<string[]>().notNull().default([]),
  settingsOverride: jsonb("settingsOverride").$type<SettingsOverride>().notNull().default({}),
  ...timestamps(),
});

// ---------------------------------------------------------------------------------------------------------------
// Conversations and messages

/**
 * Full-text search documents, one definition for the GIN indexes and the queries that must repeat the same
 * expression to use them: a message's text parts (media, artifacts and tool parts are not text) and a title.
 * 'english' stems words ("planning" finds "plans"); every function here is immutable, as an index needs.
 */
export function messageSearchVector(parts: AnyPgColumn): SQL {
  return sql`to_tsvector('english', jsonb_path_query_array(${parts}, '$[*] ? (@.type == "text").text'))`;
}
export function titleSearchVector(title: AnyPgColumn): SQL {
  return sql`to_tsvector('english', ${title})`;
}

export const conversations = pgTable(
  "conversations",
  {
    id: id(),
    ownerId: text("ownerId")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    personaId: uuid("personaId")
      .notNull()
      .references(() => personas.id),
    title: text("title").notNull(),
    visibility: text("visibility", { enum: ["private", "room"] })
      .notNull()
      .default("private"),
    /** Conversation-level overrides: the context note, instructions and any §4 key. */
    settingsOverride: jsonb("settingsOverride").$type<SettingsOverride>().notNull().default({}),
    instructions: text("instructions"),
    /** The owner's choice of model for this conversation; null answers with the persona's. Fallbacks stay the persona's. */
    modelId: text("modelId").references(() => models.id, { onDelete: "set null" }),
    /** The last seq handed out; bumped in the same transaction that inserts a message. */
    lastSeq: bigint("lastSeq", { mode: "number" }).notNull().default(0),
    /** A branch: the conversation and message it was copied from ("branch from here"). */
    branchedFromConversationId: uuid("branchedFromConversationId"),
    branchedFromMessageId: uuid("branchedFromMessageId"),
    ...timestamps(),
  },
  (table) => [
    index("conversations_owner_idx").on(table.ownerId, table.updatedAt),
    index("conversations_title_search_idx").using("gin", titleSearchVector(table.title)),
  ],
);

/**
 * A title being generated for a conversation, by whichever instance claimed it: the claim keeps a second turn that
 * ends meanwhile (on this instance or another) from asking the title model again. It is released when the
 * generation ends; one left by an instance that died lapses after its lease (db/title-queries.ts).
 */
export const titleClaims = pgTable("title_claims", {
  conversationId: conversationReference().primaryKey(),
  claimedAt: timestamp("claimedAt", { withTimezone: true, mode: "date" }).notNull(),
});

export const participants = pgTable(
  "participants",
  {
    conversationId: conversationReference(),
    userId: userReference(),
    /** "invited": asked in by the owner, not yet accepted; such a row grants nothing until it becomes "member". */
    role: text("role", { enum: ["owner", "member", "invited"] })
      .notNull()
      .default("member"),
    joinedAt: timestamp("joinedAt", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.conversationId, table.userId] }),
    index("participants_user_idx").on(table.userId),
  ],
);

export const summaries = pgTable(
  "summaries",
  {
    ...conversationRow(),
    content: text("content").notNull(),
    coversThroughSeq: bigint("coversThroughSeq", { mode: "number" }).notNull(),
    messageCount: integer("messageCount").notNull(),
    modelId: text("modelId"),
    tokensBefore: integer("tokensBefore"),
    tokensAfter: integer("tokensAfter"),
    trigger: text("trigger", { enum: ["token", "turn", "manual"] }).notNull(),
    /** The summary that replaced this one (a newer one, or a revert). */
    supersededBy: uuid("supersededBy"),
    createdAt: createdAt(),
  },
  (table) => [index("summaries_conversation_idx").on(table.conversationId, table.createdAt)],
);

export const messages = pgTable(
  "messages",
  {
    ...conversationRow(),
    seq: bigint("seq", { mode: "number" }).notNull(),
    authorType: text("authorType", { enum: AUTHOR_TYPES }).notNull(),
    authorUserId: userWhoActed("authorUserId"),
    authorPersonaId: pointsAt("authorPersonaId", () => personas.id),
    authorName: text("authorName").notNull(),
    parts: jsonb("parts").$type<StoredPart[]>().notNull(),
    replyToMessageId: uuid("replyToMessageId"),
    /**
     * The message before it on its path (null for a conversation's first): a reply's is the message it answers, a
     * fork's (an edited question) is the one its original had. Messages with one parent are alternatives: reply
     * variants, or versions of a question, each with the rest of the conversation that followed it.
     */
    parentMessageId: uuid("parentMessageId"),
    /**
     * Among the messages with its parent, the one the path follows whenever the parent is on the shown path. It
     * remembers a switched-away branch's own choices (which variant, which version) for when it is shown again.
     */
    chosenAmongSiblings: boolean("chosenAmongSiblings").notNull().default(true),
    /**
     * complete; streaming (being written); stopped (the user stopped it: the text they saw); interrupted (the
     * stream broke, or the server died mid-reply); error (every attempt failed).
     */
    status: text("status", { enum: MESSAGE_STATUSES }).notNull(),
    /**
     * On the shown path: the transcript, the model's history, search and export read only these. Replies to one
     * user message are variants of one reply (regenerate), one of them chosen; the messages of a question's other
     * versions (edits that forked it) are stored unchosen. Seq grows along the path.
     */
    chosen: boolean("chosen").notNull().default(true),
    /** The id the client gave the message (useChat's), so sending it again never stores it twice. */
    clientMessageId: text("clientMessageId"),
    /** Set when someone edited the message in place; earlier versions are in message_versions. */
    editedAt: timestamp("editedAt", { withTimezone: true, mode: "date" }),
    summarizedBy: pointsAt("summarizedBy", () => summaries.id),
    /** Token counts of the text per tokenizer family, cached at write time. */
    tokenCounts: jsonb("tokenCounts").$type<Record<string, number>>().notNull().default({}),
    /** For text split by tool calls: each segment's count per tokenizer family, cached at write time. */
    segmentTokenCounts: jsonb("segmentTokenCounts").$type<Record<string, number[]>>(),
    ...timestamps(),
  },
  (table) => [
    uniqueIndex("messages_conversation_seq_idx").on(table.conversationId, table.seq),
    uniqueIndex("messages_client_id_idx").on(table.conversationId, table.clientMessageId),
    index("messages_reply_to_idx").on(table.replyToMessageId),
    index("messages_parent_idx").on(table.parentMessageId),
    index("messages_search_idx").using("gin", messageSearchVector(table.parts)),
  ],
);

/** Earlier versions of a message edited in place, newest last; restoring one makes it current again. */
export const messageVersions = pgTable(
  "message_versions",
  {
    id: id(),
    messageId: messageReference(),
    parts: jsonb("parts").$type<StoredPart[]>().notNull(),
    /** Who replaced this version (the editor of the next one). */
    ...madeBy("replacedBy"),
  },
  (table) => [index("message_versions_message_idx").on(table.messageId, table.createdAt)],
);

export const attachments = pgTable(
  "attachments",
  {
    ...conversationRow(),
    /** Null until the message that carries it is sent. */
    messageId: uuid("messageId").references(() => messages.id, { onDelete: "cascade" }),
    uploadedBy: userWhoActed("uploadedBy"),
    kind: text("kind", { enum: MEDIA_KINDS }).notNull(),
    mime: text("mime").notNull(),
    filename: text("filename"),
    sizeBytes: integer("sizeBytes").notNull(),
    sha256: text("sha256").notNull(),
    width: integer("width"),
    height: integer("height"),
    isEmoji: boolean("isEmoji").notNull().default(false),
    isSticker: boolean("isSticker").notNull().default(false),
    /** Where the bytes live, behind the storage interface (db: or file: keys). */
    storageKey: text("storageKey").notNull(),
    /** For an image fetched from a link in a message: the URL it was fetched from; null for an upload. */
    originUrl: text("originUrl"),
    createdAt: createdAt(),
  },
  (table) => [
    index("attachments_message_idx").on(table.messageId),
    index("attachments_conversation_idx").on(table.conversationId),
  ],
);

/** Bytes of attachments stored in the database (the default storage; a directory or object store can replace it). */
export const attachmentBlobs = pgTable("attachment_blobs", {
  storageKey: text("storageKey").primaryKey(),
  data: text("data").notNull(),
});

export const artifacts = pgTable(
  "artifacts",
  {
    /** ULID: sortable in the order things happened. */
    id: text("id").primaryKey(),
    conversationId: conversationReference(),
    messageId: messageReference(),
    type: text("type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    /** Tokens of the part it replays as, per tokenizer family, cached at write time (`artifactTokenCounts`). */
    tokenCounts: jsonb("tokenCounts").$type<Record<string, number>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (table) => [index("artifacts_message_idx").on(table.messageId)],
);

// ---------------------------------------------------------------------------------------------------------------
// Memories and blocks

export const memories = pgTable(
  "memories",
  {
    id: id(),
    scope: text("scope", { enum: ["user", "persona", "user_persona"] }).notNull(),
    userId: text("userId").references(() => user.id, { onDelete: "cascade" }),
    personaId: uuid("personaId").references(() => personas.id, { onDelete: "cascade" }),
    conversationId: uuid("conversationId").references(() => conversations.id, { onDelete: "cascade" }),
    summaryId: uuid("summaryId"),
    area: text("area").notNull(),
    content: text("content").notNull(),
    active: boolean("active").notNull().default(true),
    ...timestamps(),
  },
  (table) => [index("memories_user_persona_idx").on(table.userId, table.personaId)],
);

export const personaUserBlocks = pgTable(
  "persona_user_blocks",
  {
    id: id(),
    personaId: personaReference(),
    userId: userReference(),
    blockType: text("blockType", { enum: BLOCK_TYPES }).notNull(),
    reason: text("reason"),
    expiresAt: timestamp("expiresAt", { withTimezone: true }),
    ...madeBy("setBy"),
  },
  (table) => [uniqueIndex("persona_user_blocks_unique_idx").on(table.personaId, table.userId)],
);

// ---------------------------------------------------------------------------------------------------------------
// Turns and attempts: what was sent, per model call attempt

export const turns = pgTable(
  "turns",
  {
    ...conversationRow(),
    userMessageId: pointsAt("userMessageId", () => messages.id),
    assistantMessageId: pointsAt("assistantMessageId", () => messages.id),
    /** running; ok; error; stopped (by the user); interrupted (the process died while it ran). */
    status: text("status", { enum: ["running", "ok", "error", "stopped", "interrupted"] }).notNull(),
    settingsVersion: integer("settingsVersion").notNull(),
    /** The app instance running it, and when it last said it still is: a dead instance's turns are recovered. */
    instanceId: text("instanceId"),
    heartbeatAt: timestamp("heartbeatAt", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [
    index("turns_conversation_idx").on(table.conversationId, table.createdAt),
    index("turns_status_idx").on(table.status),
  ],
);

export const attempts = pgTable(
  "attempts",
  {
    ...conversationRow(),
    /** The reply's turn; null for a model call that answers no turn (a summary, a title, a write-as-me draft). */
    turnId: uuid("turnId").references(() => turns.id, { onDelete: "cascade" }),
    /** What the call was for: a reply (tool steps included), a summary, a title, a write-as-me draft, a replay. */
    kind: text("kind", { enum: ATTEMPT_KINDS }).notNull().default("reply"),
    /** A replay's source attempt (docs/features.md#replay); null for every other kind. */
    replayOf: pointsAt("replayOf", (): AnyPgColumn => attempts.id),
    attemptNumber: integer("attemptNumber").notNull(),
    stepNumber: integer("stepNumber").notNull().default(0),
    modelId: text("modelId").notNull(),
    /** ok; error; stopped (the user stopped the reply: the provider request was aborted). */
    status: text("status", { enum: ["ok", "error", "stopped"] }).notNull(),
    error: jsonb("error").$type<{ code: string; message: string; status?: number } | null>(),
    items: jsonb("items").$type<unknown[]>().notNull(),
    trace: jsonb("trace").$type<unknown[]>().notNull(),
    settings: jsonb("settings").$type<ResolvedSettings>().notNull(),
    settingsVersion: integer("settingsVersion").notNull(),
    /** Every HTTP request of this attempt (AI SDK retries included), in order. */
    requests: jsonb("requests").$type<RecordedRequest[]>().notNull().default([]),
    /**
     * The private memories (user and user × persona scope) this attempt's payload carries, with their owners: a
     * reader who is not the owner gets the view with their text replaced (docs/features.md#private-memories).
     * Null on attempts recorded before this was kept: their view looks the memories up when read.
     */
    privateMemories: jsonb("privateMemories").$type<PrivateMemoryUse[] | null>(),
    response: jsonb("response").$type<{
      text: string;
      finishReason: string | null;
      usage: AttemptUsage | null;
      /**
       * The model's prices when the attempt was recorded: its cost is counted at these. Absent on attempts recorded
       * before prices were kept (their cost uses the model's prices of the day); null when the model had none.
       */
      prices?: ModelPrices | null;
    } | null>(),
    timings: jsonb("timings")
      .$type<{
        queuedAt: string;
        firstByteMs?: number;
        firstTokenMs?: number;
        doneMs?: number;
        /** How long each pipeline stage took (phase A once per turn, phase B for this attempt). */
        stages?: { stage: string; ms: number; phase: "A" | "B" }[];
      }>()
      .notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index("attempts_turn_idx").on(table.turnId, table.attemptNumber),
    index("attempts_conversation_idx").on(table.conversationId, table.createdAt),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// The global context policy, versioned: each row is one version; the highest is in force.

export const settingsVersions = pgTable("settings_versions", {
  version: integer("version").primaryKey(),
  settings: jsonb("settings").$type<ResolvedSettings>().notNull(),
  ...madeBy("changedBy"),
});

/** What a persona version keeps: every field an admin edits. */
export type PersonaVersionFields = Pick<
  InferSelectModel<typeof personas>,
  "name" | "avatar" | "systemPrompt" | "modelId" | "fallbackModelIds" | "toolNames" | "settingsOverride"
>;

// Each persona, as each admin save left it: versions are only ever added (restoring one adds a new one). A persona
// saved before it had any gets its state before that save as version 1.
export const personaVersions = pgTable(
  "persona_versions",
  {
    personaId: personaReference(),
    version: integer("version").notNull(),
    fields: jsonb("fields").$type<PersonaVersionFields>().notNull(),
    ...madeBy("changedBy"),
  },
  (table) => [primaryKey({ columns: [table.personaId, table.version] })],
);

// ---------------------------------------------------------------------------------------------------------------
// What each user lets become a memory. No row: the defaults.

export const memoryPreferences = pgTable("memory_preferences", {
  userId: userReference().primaryKey(),
  /** true: a conversation's summary is also kept as a memory the persona sees in the user's other conversations.
   *  Off until the user chooses (no row: not chosen yet; the summary panel asks once). */
  sessionSummaries: boolean("sessionSummaries").notNull().default(false),
  updatedAt: updatedAt(),
});

// ---------------------------------------------------------------------------------------------------------------
// Live rooms (docs/features.md, "Live rooms"): what happened in a conversation, in order, for the readers
// watching it. Ids count up per conversation; rows are kept for a short while so a reconnect resumes from its last
// id. The cursor row hands out the ids: its lock orders the inserts, so ids commit in the order they are given.

export const liveEventCursors = pgTable("live_event_cursors", {
  conversationId: conversationReference().primaryKey(),
  lastEventId: bigint("lastEventId", { mode: "number" }).notNull().default(0),
  /** Events up to this id may have been deleted: a reader behind it reloads instead of replaying. */
  prunedThroughId: bigint("prunedThroughId", { mode: "number" }).notNull().default(0),
});

export const liveEvents = pgTable(
  "live_events",
  {
    conversationId: conversationReference(),
    id: bigint("id", { mode: "number" }).notNull(),
    type: text("type").notNull(),
    /** The message the event is about, if any: its final state supersedes its streaming ones. */
    messageId: uuid("messageId"),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.conversationId, table.id] })],
);

export type User = InferSelectModel<typeof user>;
export type Model = InferSelectModel<typeof models>;
export type Persona = InferSelectModel<typeof personas>;
export type Conversation = InferSelectModel<typeof conversations>;
export type Message = InferSelectModel<typeof messages>;
export type MessageVersion = InferSelectModel<typeof messageVersions>;
export type Attachment = InferSelectModel<typeof attachments>;
export type Artifact = InferSelectModel<typeof artifacts>;
export type Summary = InferSelectModel<typeof summaries>;
export type Memory = InferSelectModel<typeof memories>;
export type PersonaUserBlockRow = InferSelectModel<typeof personaUserBlocks>;
export type Turn = InferSelectModel<typeof turns>;
export type Attempt = InferSelectModel<typeof attempts>;
export type SettingsVersion = InferSelectModel<typeof settingsVersions>;
export type LiveEventRow = InferSelectModel<typeof liveEvents>;
