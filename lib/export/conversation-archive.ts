// A conversation as one JSON document: its messages (every variant and earlier version), media bytes, tool
// artifacts, summaries, turns and model-call attempts (docs/features.md, "Export and import"). Export writes
// it; import checks it here (shape, then every reference inside it) before anything is stored, so a bug report
// can be replayed in another installation. No database access, no framework.

import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import { contextItemSchema, traceEventSchema } from "@/lib/context/item-schema";
import { integerIn, policyDocumentSchema, settingsOverrideSchema } from "@/lib/domain/settings";
import { ATTEMPT_KINDS, MEDIA_KINDS } from "@/lib/domain/types";

export const ARCHIVE_FORMAT = "glassbox.conversation";
export const ARCHIVE_VERSION = 1;

const id = z.string().min(1).max(100);
/** A time as export writes it (`toISOString`): a real date with a 4-digit year, so Postgres stores it. */
const isoTime = z.iso.datetime({
  offset: true,
  error: "must be an ISO time such as 2026-11-26T12:00:00.000Z",
});
const text = z.string().max(2_000_000);

// Whole numbers within the Postgres column that stores them (db/schema.ts): integer is int4, bigint is stored as a
// JavaScript number, so it stops at the largest safe integer (zod's .int() already does).
const INT4_MAX = 2 ** 31 - 1;
const int4 = (key: string, min = 0) => integerIn(key, min, INT4_MAX);
const safeWhole = (key: string, min = 0) => integerIn(key, min, Number.MAX_SAFE_INTEGER);

const storedPartSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("text"),
    text,
    /** What the provider attached to a reply's text (provider key → object), sent back with it. */
    providerMetadata: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  }),
  z.strictObject({ type: z.literal("media"), attachmentId: id }),
  z.strictObject({ type: z.literal("artifact"), artifactId: id }),
]);

const archivedMessageSchema = z.strictObject({
  id,
  seq: safeWhole("seq", 1),
  authorType: z.enum(["user", "persona", "system", "tool"]),
  authorName: z.string().min(1).max(200),
  /** True when the conversation's owner wrote it: on import it becomes the importer's. */
  byOwner: z.boolean(),
  parts: z.array(storedPartSchema).max(200),
  replyToMessageId: id.nullable(),
  /** The message tree (docs/architecture.md); an archive without it gets the tree of its shown path on import. */
  parentMessageId: id.nullable().optional(),
  status: z.enum(["complete", "streaming", "stopped", "interrupted", "error"]),
  chosen: z.boolean(),
  chosenAmongSiblings: z.boolean().optional(),
  editedAt: isoTime.nullable(),
  summarizedBy: id.nullable(),
  createdAt: isoTime,
  /** Earlier versions of an edited message, oldest first. */
  versions: z
    .array(z.strictObject({ parts: z.array(storedPartSchema).max(200), createdAt: isoTime }))
    .max(100),
});

const archivedAttachmentSchema = z.strictObject({
  id,
  messageId: id,
  kind: z.enum(MEDIA_KINDS),
  mime: z.string().min(1).max(100),
  filename: z.string().max(255).nullable(),
  sizeBytes: int4("sizeBytes", 1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, { error: "sha256 must be 64 lowercase hex digits" }),
  /** As an upload records them: the image's own, read from its bytes on import (null for other kinds). */
  width: int4("width", 1).nullable(),
  height: int4("height", 1).nullable(),
  isEmoji: z.boolean(),
  isSticker: z.boolean(),
  /** An image fetched from a link: the link (absent in archives written before image links). */
  originUrl: z.string().max(4096).nullable().optional(),
});

const archivedArtifactSchema = z.strictObject({
  id,
  messageId: id,
  type: z.string().min(1).max(100),
  payload: z.record(z.string(), z.unknown()),
});

const archivedSummarySchema = z.strictObject({
  id,
  content: text,
  coversThroughSeq: safeWhole("coversThroughSeq"),
  messageCount: int4("messageCount"),
  modelId: z.string().max(200).nullable(),
  tokensBefore: int4("tokensBefore").nullable(),
  tokensAfter: int4("tokensAfter").nullable(),
  trigger: z.enum(["token", "turn", "manual"]),
  supersededBy: id.nullable(),
  createdAt: isoTime,
});

const archivedTurnSchema = z.strictObject({
  id,
  userMessageId: id.nullable(),
  assistantMessageId: id.nullable(),
  status: z.enum(["running", "ok", "error", "stopped", "interrupted"]),
  settingsVersion: int4("settingsVersion"),
  createdAt: isoTime,
});

/** The attempt's timings as recorded (db/schema.ts attempts.timings); the turn timeline reads them. */
const timingsSchema = z.looseObject({
  queuedAt: isoTime,
  firstByteMs: z.number().nonnegative().optional(),
  firstTokenMs: z.number().nonnegative().optional(),
  doneMs: z.number().nonnegative().optional(),
  stages: z
    .array(
      z.strictObject({ stage: z.string().max(100), ms: z.number().nonnegative(), phase: z.enum(["A", "B"]) }),
    )
    .max(1_000)
    .optional(),
});

/**
 * An attempt's settings: the whole policy it was built with, as the admin API takes one. A section the policy did
 * not have yet when the attempt was recorded (as `cache`, db/migrations/0010) ran with its defaults.
 */
const attemptSettingsSchema = z.preprocess(
  (value) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? {
          ...Object.fromEntries(
            Object.keys(policyDocumentSchema.shape)
              .filter((key) => key !== "keyContextReminder")
              .map((key) => [key, {}]),
          ),
          ...value,
        }
      : value,
  policyDocumentSchema,
);

/** A price in US dollars per million tokens, as the model registry keeps it. */
const dollarsPerMillion = z.number().nonnegative().max(10_000);

const archivedAttemptSchema = z.strictObject({
  /** Null for a call that answers no turn: a summary, a title, a write-as-me draft. */
  turnId: id.nullable(),
  kind: z.enum(ATTEMPT_KINDS),
  attemptNumber: int4("attemptNumber"),
  stepNumber: int4("stepNumber"),
  modelId: z.string().min(1).max(200),
  status: z.enum(["ok", "error", "stopped"]),
  error: z
    .strictObject({
      code: z.string().max(100),
      message: z.string().max(10_000),
      status: z.number().int().optional(),
    })
    .nullable(),
  items: z.array(contextItemSchema).max(100_000),
  trace: z.array(traceEventSchema).max(100_000),
  settings: attemptSettingsSchema,
  settingsVersion: int4("settingsVersion"),
  /** Exact bodies, media replaced by `[elided-media sha256=… bytes=…]` markers whose bytes are in `blobs`. */
  requests: z.array(
    z.strictObject({
      url: z.string().max(2_000),
      status: z.number().int().nullable(),
      body: text,
      elidedMedia: z.array(
        z.strictObject({
          sha256: z.string().regex(/^[0-9a-f]{64}$/),
          mime: z.string().max(100),
          bytes: z.number().int().nonnegative(),
        }),
      ),
    }),
  ),
  response: z
    .strictObject({
      text,
      finishReason: z.string().max(100).nullable(),
      usage: z.record(z.string(), z.number().nonnegative().optional()).nullable(),
      /** The prices the attempt was costed with (null: the model had none); absent in older archives. */
      prices: z
        .strictObject({
          inputPerMillion: dollarsPerMillion,
          cachedInputPerMillion: dollarsPerMillion,
          cacheWritePerMillion: dollarsPerMillion.optional(),
          outputPerMillion: dollarsPerMillion,
        })
        .nullable()
        .optional(),
    })
    .nullable(),
  timings: timingsSchema,
  /**
   * The exporter's own private memories this attempt's payload carries, in the clear in its items and bodies (other
   * people's are already redacted there). On import they become the importer's: anyone else reading the imported
   * conversation gets them redacted (docs/features.md#private-memories). Absent in archives written before it.
   */
  privateMemories: z
    .array(z.strictObject({ memoryId: id, content: z.string().min(1).max(4_000) }))
    .max(1_000)
    .optional(),
  createdAt: isoTime,
});

export const conversationArchiveSchema = z.strictObject({
  format: z.literal(ARCHIVE_FORMAT, { error: `format must be "${ARCHIVE_FORMAT}"` }),
  version: z.literal(ARCHIVE_VERSION, {
    error: `version must be ${ARCHIVE_VERSION}: the only one this app reads`,
  }),
  exportedAt: isoTime,
  conversation: z.strictObject({
    title: z.string().trim().min(1).max(200),
    instructions: z.string().max(4_000).nullable(),
    /** Validated as the conversation's settings route takes it (PATCH /api/conversations/:id). */
    settingsOverride: settingsOverrideSchema,
    /** The model the owner chose for it; null when the persona's answers. */
    modelId: z.string().min(1).max(200).nullable().default(null),
  }),
  /** The persona it talked to, matched on import by id, then by name. */
  persona: z.strictObject({ id, name: z.string().min(1).max(200), modelId: z.string().max(200) }),
  messages: z.array(archivedMessageSchema).max(100_000),
  attachments: z.array(archivedAttachmentSchema).max(10_000),
  /** Base64 bytes of every attachment, once per sha256. */
  blobs: z.record(z.string().regex(/^[0-9a-f]{64}$/), z.base64({ error: "must be base64 bytes" })),
  artifacts: z.array(archivedArtifactSchema).max(100_000),
  summaries: z.array(archivedSummarySchema).max(10_000),
  turns: z.array(archivedTurnSchema).max(100_000),
  attempts: z.array(archivedAttemptSchema).max(100_000),
});

export type ConversationArchive = z.infer<typeof conversationArchiveSchema>;
export type ArchivedMessage = z.infer<typeof archivedMessageSchema>;
export type ArchivedAttachment = z.infer<typeof archivedAttachmentSchema>;
export type ArchivedArtifact = z.infer<typeof archivedArtifactSchema>;
export type ArchivedSummary = z.infer<typeof archivedSummarySchema>;
export type ArchivedTurn = z.infer<typeof archivedTurnSchema>;
export type ArchivedAttempt = z.infer<typeof archivedAttemptSchema>;

/**
 * The first thing inside a well-shaped archive that does not hold together, as a sentence naming it; null when
 * everything does. Ids must be unique, every reference must point inside the archive (a message's media to an
 * attachment of that message, a reply to a message, an attempt to a turn), seqs strictly increase, and each
 * blob's bytes must have the size and sha256 its attachments claim.
 */
export function archiveProblem(archive: ConversationArchive): string | null {
  const messageIds = new Set<string>();
  let previousSeq = 0;
  for (const message of archive.messages) {
    if (messageIds.has(message.id)) return `messages: the id ${message.id} is used twice.`;
    messageIds.add(message.id);
    if (message.seq <= previousSeq)
      return `messages: seq ${message.seq} of ${message.id} is not after ${previousSeq}.`;
    previousSeq = message.seq;
  }
  const summaryIds = new Set(archive.summaries.map((summary) => summary.id));
  if (summaryIds.size !== archive.summaries.length) return "summaries: an id is used twice.";
  const attachmentsById = new Map(archive.attachments.map((attachment) => [attachment.id, attachment]));
  if (attachmentsById.size !== archive.attachments.length) return "attachments: an id is used twice.";
  const artifactsById = new Map(archive.artifacts.map((artifact) => [artifact.id, artifact]));
  if (artifactsById.size !== archive.artifacts.length) return "artifacts: an id is used twice.";

  for (const message of archive.messages) {
    const where = `messages: ${message.id}`;
    if (message.replyToMessageId !== null && !messageIds.has(message.replyToMessageId))
      return `${where} replies to ${message.replyToMessageId}, which is not in the archive.`;
    if (message.parentMessageId && !messageIds.has(message.parentMessageId))
      return `${where} follows ${message.parentMessageId}, which is not in the archive.`;
    if (message.summarizedBy !== null && !summaryIds.has(message.summarizedBy))
      return `${where} is covered by summary ${message.summarizedBy}, which is not in the archive.`;
    for (const part of [...message.parts, ...message.versions.flatMap((version) => version.parts)]) {
      if (part.type === "media" && attachmentsById.get(part.attachmentId)?.messageId !== message.id)
        return `${where} shows attachment ${part.attachmentId}, which is not an attachment of that message.`;
      if (part.type === "artifact" && artifactsById.get(part.artifactId)?.messageId !== message.id)
        return `${where} names artifact ${part.artifactId}, which is not an artifact of that message.`;
    }
  }
  for (const attachment of archive.attachments) {
    if (!messageIds.has(attachment.messageId))
      return `attachments: ${attachment.id} belongs to message ${attachment.messageId}, which is not in the archive.`;
    const base64 = archive.blobs[attachment.sha256];
    if (base64 === undefined)
      return `attachments: the bytes of ${attachment.id} (blobs.${attachment.sha256}) are missing.`;
    const bytes = Buffer.from(base64, "base64");
    if (
      bytes.length !== attachment.sizeBytes ||
      createHash("sha256").update(bytes).digest("hex") !== attachment.sha256
    )
      return `blobs.${attachment.sha256}: the bytes do not match the size and sha256 of attachment ${attachment.id}.`;
  }
  for (const artifact of archive.artifacts) {
    if (!messageIds.has(artifact.messageId))
      return `artifacts: ${artifact.id} belongs to message ${artifact.messageId}, which is not in the archive.`;
  }
  for (const summary of archive.summaries) {
    if (summary.supersededBy !== null && !summaryIds.has(summary.supersededBy))
      return `summaries: ${summary.id} is superseded by ${summary.supersededBy}, which is not in the archive.`;
  }
  const turnIds = new Set(archive.turns.map((turn) => turn.id));
  if (turnIds.size !== archive.turns.length) return "turns: an id is used twice.";
  for (const turn of archive.turns) {
    for (const messageId of [turn.userMessageId, turn.assistantMessageId]) {
      if (messageId !== null && !messageIds.has(messageId))
        return `turns: ${turn.id} names message ${messageId}, which is not in the archive.`;
    }
  }
  for (const [index, attempt] of archive.attempts.entries()) {
    if ((attempt.turnId === null) !== (attempt.kind !== "reply"))
      return `attempts.${index}: a reply's attempt belongs to a turn, and only a reply's does.`;
    if (attempt.turnId !== null && !turnIds.has(attempt.turnId))
      return `attempts.${index} belongs to turn ${attempt.turnId}, which is not in the archive.`;
  }
  return null;
}
