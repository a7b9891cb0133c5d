// Attachments and their stored bytes: uploads, the images of messages, reading them back (only for who may read
// the conversation).

import "server-only";
import { createHash } from "node:crypto";
import { asc, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { AppError, notFound } from "@/lib/domain/errors";
import type { Database } from "./client";
import { getReadableConversation, type ReadableConversationArgs } from "./conversation-queries";
import { isAnyOf, preparedStatement } from "./prepared-statements";
import { type ConversationArgs, inConversation, type UserArgs } from "./query-parts";
import { type Attachment, attachmentBlobs, attachments, messages } from "./schema";

/** What the transcript shows of an attachment: its type, name, size and (a fetched image link) origin. */
export interface MediaFacts {
  mime: string;
  filename: string | null;
  sizeBytes: number;
  originUrl: string | null;
}

export const MEDIA_FACT_COLUMNS = {
  id: attachments.id,
  mime: attachments.mime,
  filename: attachments.filename,
  sizeBytes: attachments.sizeBytes,
  originUrl: attachments.originUrl,
};

export function mediaFactsById(rows: ({ id: string } & MediaFacts)[]): Map<string, MediaFacts> {
  return new Map(rows.map(({ id, ...facts }) => [id, facts]));
}

/** The facts of every attachment of a conversation's messages, for the transcript. */
export async function listMessageMedia({ db, conversationId }: ConversationArgs) {
  const rows = await db
    .select(MEDIA_FACT_COLUMNS)
    .from(attachments)
    .where(eq(attachments.conversationId, conversationId));
  return mediaFactsById(rows);
}

/** The images of the message with this seq in a conversation, with their base64 bytes (for `analyze_image`). */
export async function listMessageImages({ db, conversationId, seq }: ConversationArgs & { seq: number }) {
  return db
    .select({ id: attachments.id, mime: attachments.mime, data: attachmentBlobs.data, parts: messages.parts })
    .from(attachments)
    .innerJoin(messages, eq(messages.id, attachments.messageId))
    .innerJoin(attachmentBlobs, eq(attachmentBlobs.storageKey, attachments.storageKey))
    .where(inConversation(attachments, conversationId, eq(messages.seq, seq), eq(attachments.kind, "image")))
    .orderBy(asc(attachments.createdAt));
}

/** Base64 bytes of stored attachments, keyed by storage key. */
export async function loadAttachmentData({ db, storageKeys }: { db: Database; storageKeys: string[] }) {
  if (storageKeys.length === 0) return new Map<string, string>();
  const rows = await attachmentDataStatement(db).execute({ storageKeys });
  return new Map(rows.map((row) => [row.storageKey, row.data]));
}

const attachmentDataStatement = preparedStatement("loadAttachmentData", (db) =>
  db
    .select()
    .from(attachmentBlobs)
    .where(isAnyOf(attachmentBlobs.storageKey, sql.placeholder("storageKeys"))),
);

/**
 * An uploaded file, not yet part of a message (messageId stays null until one is sent with it). The bytes are
 * stored once per sha256, so the same picture uploaded twice is two attachments over one blob.
 */
export async function storeUpload({
  db,
  conversationId,
  uploadedBy,
  bytes,
  mime,
  kind,
  filename,
  width,
  height,
  originUrl = null,
}: {
  db: Database;
  conversationId: string;
  uploadedBy: string;
  bytes: Uint8Array;
  mime: string;
  kind: Attachment["kind"];
  filename: string | null;
  width: number | null;
  height: number | null;
  /** For an image fetched from a link in a message: the link. */
  originUrl?: string | null;
}): Promise<Attachment> {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const storageKey = `db:${sha256}`;
  return db.transaction(async (tx) => {
    const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
    await tx.insert(attachmentBlobs).values({ storageKey, data }).onConflictDoNothing();
    const [attachment] = await tx
      .insert(attachments)
      .values({
        conversationId,
        uploadedBy,
        kind,
        mime,
        filename,
        sizeBytes: bytes.byteLength,
        sha256,
        width,
        height,
        storageKey,
        originUrl,
      })
      .returning();
    return attachment;
  });
}

/**
 * The newest image this conversation already fetched from `originUrl` and that a sent message carries, so the same
 * link in a later message reuses its bytes instead of fetching again (docs/features.md#image-links).
 */
export async function findImageByOrigin({
  db,
  conversationId,
  originUrl,
}: ConversationArgs & { originUrl: string }): Promise<Attachment | null> {
  const [row] = await db
    .select()
    .from(attachments)
    .where(
      inConversation(
        attachments,
        conversationId,
        eq(attachments.originUrl, originUrl),
        isNotNull(attachments.messageId),
      ),
    )
    .orderBy(desc(attachments.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * An attachment and its base64 bytes, only for someone who may read its conversation (the rule of
 * getReadableConversation, applied by it). Null otherwise, so a caller cannot tell "not yours" from "none".
 */
export async function getReadableAttachment({ db, attachmentId, userId }: AttachmentReaderArgs) {
  const [row] = await db
    .select({ attachment: attachments, data: attachmentBlobs.data })
    .from(attachments)
    .innerJoin(attachmentBlobs, eq(attachmentBlobs.storageKey, attachments.storageKey))
    .where(eq(attachments.id, attachmentId))
    .limit(1);
  if (!row) return null;
  return (await mayReadConversation({ db, conversationId: row.attachment.conversationId, userId }))
    ? row
    : null;
}

/** An attachment the user may read, without its bytes (they are read in slices, see readAttachmentBytes). */
export async function getReadableAttachmentInfo({ db, attachmentId, userId }: AttachmentReaderArgs) {
  const [row] = await db.select().from(attachments).where(eq(attachments.id, attachmentId)).limit(1);
  if (!row) return null;
  return (await mayReadConversation({ db, conversationId: row.conversationId, userId })) ? row : null;
}

/** An attachment and who asks for it. */
type AttachmentReaderArgs = UserArgs & { attachmentId: string };

/** Whether the user may read the conversation (getReadableConversation's rule), as a yes or no. */
async function mayReadConversation(args: ReadableConversationArgs): Promise<boolean> {
  try {
    await getReadableConversation(args);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return false;
    throw error;
  }
}

/**
 * Bytes `start` to `end` (inclusive) of a stored blob, read from its base64 text without loading the rest:
 * every 4 base64 characters are 3 bytes, so the slice of text that covers the range is cut in SQL and decoded.
 */
export async function readAttachmentBytes({
  db,
  storageKey,
  start,
  end,
}: {
  db: Database;
  storageKey: string;
  start: number;
  end: number;
}): Promise<Buffer> {
  const firstGroup = Math.floor(start / 3);
  const lastGroup = Math.floor(end / 3);
  const [row] = await db
    .select({
      text: sql<string>`substr(${attachmentBlobs.data}, ${firstGroup * 4 + 1}::int, ${(lastGroup - firstGroup + 1) * 4}::int)`,
    })
    .from(attachmentBlobs)
    .where(eq(attachmentBlobs.storageKey, storageKey));
  if (!row) throw notFound("Attachment");
  const decoded = Buffer.from(row.text, "base64");
  const offset = start - firstGroup * 3;
  return decoded.subarray(offset, offset + (end - start + 1));
}

/** Base64 media of a conversation's attachments by sha256, to rebuild elided request bodies. */
export async function loadConversationMediaBySha256({
  db,
  conversationId,
  sha256s,
}: ConversationArgs & { sha256s: string[] }): Promise<Map<string, string>> {
  if (sha256s.length === 0) return new Map();
  const rows = await db
    .select({ sha256: attachments.sha256, data: attachmentBlobs.data })
    .from(attachments)
    .innerJoin(attachmentBlobs, eq(attachmentBlobs.storageKey, attachments.storageKey))
    .where(inConversation(attachments, conversationId, inArray(attachments.sha256, sha256s)));
  return new Map(rows.map((row) => [row.sha256, row.data]));
}
