// Database rows → the pipeline's plain input types, and token counts cached at write time; and the row of a
// person's message.

import "server-only";
import type { NewMessage } from "@/db/message-insert-queries";
import type { Artifact, Attachment, Message, Model, Summary } from "@/db/schema";
import type {
  ModelCapabilities,
  ModelDescriptor,
  StoredArtifact,
  StoredAttachment,
  StoredMessage,
  StoredPart,
  StoredSummary,
} from "@/lib/domain/types";

/** A person's complete message as it is stored: the turn's submit and the tests' fixtures write it so. */
export function userMessageRow(
  conversationId: string,
  user: { id: string; name: string },
  parts: StoredPart[],
): NewMessage {
  return {
    conversationId,
    authorType: "user",
    authorUserId: user.id,
    authorName: user.name,
    parts,
    status: "complete",
  };
}

export function toStoredMessage(row: Message): StoredMessage {
  return {
    id: row.id,
    seq: row.seq,
    authorType: row.authorType,
    authorUserId: row.authorUserId,
    authorPersonaId: row.authorPersonaId,
    authorName: row.authorName,
    parts: row.parts,
    replyToMessageId: row.replyToMessageId,
    status: row.status,
    editedAt: row.editedAt?.toISOString() ?? null,
    summarizedBy: row.summarizedBy,
    tokenCounts: row.tokenCounts as StoredMessage["tokenCounts"],
    segmentTokenCounts: row.segmentTokenCounts as StoredMessage["segmentTokenCounts"],
    createdAt: row.createdAt.toISOString(),
  };
}

export function toStoredAttachment(row: Attachment, url: string): StoredAttachment {
  const { id, kind, mime, sizeBytes, sha256, width, height, isEmoji, isSticker, filename } = row;
  // An attachment not yet sent with a message has no message id; the pipeline only sees sent ones.
  return {
    id,
    messageId: row.messageId ?? "",
    kind,
    mime,
    sizeBytes,
    sha256,
    width,
    height,
    isEmoji,
    isSticker,
    url,
    filename,
  };
}

export function toStoredArtifact(row: Artifact): StoredArtifact {
  return {
    id: row.id,
    messageId: row.messageId,
    type: row.type,
    payload: row.payload,
    tokenCounts: row.tokenCounts as StoredArtifact["tokenCounts"],
    createdAt: row.createdAt.toISOString(),
  };
}

export function toStoredSummary(row: Summary): StoredSummary {
  return {
    id: row.id,
    content: row.content,
    coversThroughSeq: row.coversThroughSeq,
    messageCount: row.messageCount,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Rows written before audio and documents were capabilities lack them: such a model takes neither. */
function withMediaFlags(stored: Partial<ModelCapabilities> & Omit<ModelCapabilities, "audio" | "documents">) {
  return { ...stored, audio: stored.audio ?? false, documents: stored.documents ?? false };
}

export function toModelDescriptor(row: Model): ModelDescriptor {
  return {
    id: row.id,
    provider: row.provider,
    providerModelName: row.providerModelName,
    apiKind: row.apiKind,
    capabilities: withMediaFlags(row.capabilities),
    contextWindow: row.contextWindow,
    maxOutputTokens: row.maxOutputTokens,
    tokenizer: row.tokenizer,
  };
}

export function textOfParts(parts: StoredPart[]): string {
  return parts
    .filter((part): part is Extract<StoredPart, { type: "text" }> => part.type === "text")
    .map((part) => part.text)
    .join("\n");
}
