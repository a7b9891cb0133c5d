// Import: a checked archive becomes a new private conversation of the importer (docs/features.md, "Export
// and import"). Every id is fresh and every reference inside the archive is rewritten to it; the persona is found
// by id, then by name, else the default persona answers and the importer is told. Nothing is stored unless all of
// it is.

import "server-only";
import { monotonicFactory } from "ulid";
import { v7 as uuidv7 } from "uuid";
import { type ConversationRowsToInsert, insertConversationRows } from "@/db/archive-queries";
import type { PrivateMemoryUse } from "@/db/attempt-records";
import type { Database } from "@/db/client";
import { getModel } from "@/db/model-queries";
import { findPersonaForImport } from "@/db/persona-queries";
import type { Persona } from "@/db/schema";
import { artifactTokenCounts, messageTokenCounts } from "@/lib/context/token-cache";
import { AppError } from "@/lib/domain/errors";
import type { StoredPart } from "@/lib/domain/types";
import { KIND_NAMES, sniffUpload } from "@/lib/media/sniff";
import { formatMegabytes, maxBytesFor } from "@/lib/media/upload-limits";
import {
  type ArchivedAttempt,
  type ArchivedMessage,
  archiveProblem,
  type ConversationArchive,
} from "./conversation-archive";

export interface ImportOutcome {
  conversationId: string;
  title: string;
  /** Sentences for the importer about what could not be kept as it was (e.g. a persona this app lacks). */
  notices: string[];
}

export async function importConversation({
  db,
  archive,
  ownerId,
}: {
  db: Database;
  archive: ConversationArchive;
  ownerId: string;
}): Promise<ImportOutcome> {
  const problem = archiveProblem(archive) ?? mediaProblem(archive);
  if (problem) throw new AppError("bad_request", problem);
  const { persona, matchedBy } = await findPersonaForImport({
    db,
    id: archive.persona.id,
    name: archive.persona.name,
  });
  const notices: string[] =
    matchedBy === "default"
      ? [
          `This app has no persona "${archive.persona.name}": the conversation now talks to "${persona.name}".`,
        ]
      : [];
  const chosenModelId = archive.conversation.modelId;
  const modelId = chosenModelId && (await getModel({ db, modelId: chosenModelId })) ? chosenModelId : null;
  if (chosenModelId && !modelId)
    notices.push(`This app has no model ${chosenModelId}: the persona's model answers instead.`);
  const conversation = await insertConversationRows({
    db,
    rows: archiveRows(archive, { ownerId, persona, modelId }),
  });
  return { conversationId: conversation.id, title: conversation.title, notices };
}

/**
 * Every attachment must be a whole file of the kind and type it claims, as for an upload (an archive is user input
 * too): an image, a PDF, an audio clip or a video by its bytes, no larger than an upload of its kind may be, with
 * the width and height its bytes give (null for other kinds). Nothing else is served back as what it claims.
 */
function mediaProblem(archive: ConversationArchive): string | null {
  for (const attachment of archive.attachments) {
    const limit = maxBytesFor(attachment.kind);
    if (attachment.sizeBytes > limit)
      return `attachments: ${attachment.id}: sizeBytes ${attachment.sizeBytes} is over ${formatMegabytes(limit)}, the limit for ${KIND_NAMES[attachment.kind]}s.`;
    const bytes = Buffer.from(archive.blobs[attachment.sha256] ?? "", "base64");
    let sniffed: ReturnType<typeof sniffUpload>;
    try {
      sniffed = sniffUpload(bytes);
    } catch (error) {
      return `attachments: ${attachment.id}: ${error instanceof Error ? error.message : "not a readable file"}`;
    }
    if (sniffed?.mime !== attachment.mime || sniffed.kind !== attachment.kind) {
      return attachment.kind === "image"
        ? `attachments: ${attachment.id} is not a ${attachment.mime} image.`
        : `attachments: ${attachment.id} is not a valid ${attachment.mime} ${attachment.kind === "file" ? "document" : attachment.kind}.`;
    }
    for (const side of ["width", "height"] as const) {
      if (attachment[side] !== sniffed[side])
        return `attachments: ${attachment.id}: ${side} is ${attachment[side]}, but the ${KIND_NAMES[attachment.kind]}'s bytes say ${sniffed[side]}.`;
    }
  }
  return null;
}

/**
 * The private memories an imported attempt carries, all the importer's (the archive holds only its exporter's in
 * the clear): what the archive recorded, kept as recorded. An archive written before they were recorded says
 * nothing, so every memory line of the attempt's CORE MEMORIES items counts as private: an imported attempt is
 * never more visible than its source, and is never matched against the importer's own memories
 * (docs/features.md#private-memories).
 */
function importedPrivateMemories(attempt: ArchivedAttempt, ownerId: string): PrivateMemoryUse[] {
  const recorded =
    attempt.privateMemories ??
    attempt.items
      .filter((item) => item.tag === "CORE_MEMORIES")
      .flatMap((item) => item.parts.flatMap((part) => (part.type === "text" ? memoryLines(part.text) : [])))
      .map((content, index) => ({ memoryId: `unrecorded-${index}`, content }));
  return recorded.map(({ memoryId, content }) => ({ memoryId, ownerId, content }));
}

/**
 * The memories of a CORE MEMORIES text as `coreMemoriesText` (lib/context/system-prompt.ts) writes them: after the
 * heading, each starts with "- " and runs until the next one (a memory may hold line breaks).
 */
function memoryLines(text: string): string[] {
  const memories: string[] = [];
  for (const line of text.split("\n").slice(1)) {
    if (line.startsWith("- ")) memories.push(line.slice(2));
    else if (memories.length > 0) memories[memories.length - 1] += `\n${line}`;
  }
  return memories.filter((memory) => memory.trim() !== "");
}

/** The archive as rows with fresh ids: pure apart from the id sources. */
export function archiveRows(
  archive: ConversationArchive,
  { ownerId, persona, modelId }: { ownerId: string; persona: Pick<Persona, "id">; modelId: string | null },
): ConversationRowsToInsert {
  const conversationId = uuidv7();
  const freshIds = (rows: { id: string }[]) => new Map(rows.map((row) => [row.id, uuidv7()]));
  const messageIdFor = freshIds(archive.messages);
  const parentOf = archivedParents(archive.messages);
  const attachmentIdFor = freshIds(archive.attachments);
  const summaryIdFor = freshIds(archive.summaries);
  const turnIdFor = freshIds(archive.turns);
  // Artifacts replay in id order: fresh ids from a monotonic source, handed out in the archive's id order, keep it.
  const nextArtifactId = monotonicFactory();
  const artifactIdFor = new Map(
    [...archive.artifacts].sort((a, b) => (a.id < b.id ? -1 : 1)).map((row) => [row.id, nextArtifactId()]),
  );
  const fresh = (map: Map<string, string>, value: string) => map.get(value) as string;
  const freshOrNull = (map: Map<string, string>, value: string | null) =>
    value === null ? null : (map.get(value) ?? null);
  const rewriteParts = (parts: StoredPart[]): StoredPart[] =>
    parts.map((part) => {
      if (part.type === "media") return { ...part, attachmentId: fresh(attachmentIdFor, part.attachmentId) };
      if (part.type === "artifact") return { ...part, artifactId: fresh(artifactIdFor, part.artifactId) };
      return part;
    });
  const usedSha256s = new Set(archive.attachments.map((attachment) => attachment.sha256));

  return {
    conversation: {
      id: conversationId,
      ownerId,
      personaId: persona.id,
      title: archive.conversation.title,
      visibility: "private",
      settingsOverride: archive.conversation.settingsOverride,
      instructions: archive.conversation.instructions,
      lastSeq: archive.messages.at(-1)?.seq ?? 0,
      modelId,
    },
    summaries: archive.summaries.map((summary) => ({
      ...summary,
      id: fresh(summaryIdFor, summary.id),
      conversationId,
      supersededBy: freshOrNull(summaryIdFor, summary.supersededBy),
      createdAt: new Date(summary.createdAt),
    })),
    messages: archive.messages.map((message) => {
      const parts = rewriteParts(message.parts);
      return {
        id: fresh(messageIdFor, message.id),
        conversationId,
        seq: message.seq,
        authorType: message.authorType,
        // The owner's messages become the importer's; other people's keep their name, with no account here.
        authorUserId: message.byOwner && message.authorType === "user" ? ownerId : null,
        authorPersonaId: message.authorType === "persona" ? persona.id : null,
        authorName: message.authorName,
        parts,
        replyToMessageId: freshOrNull(messageIdFor, message.replyToMessageId),
        parentMessageId: freshOrNull(messageIdFor, parentOf.get(message.id) ?? null),
        status: message.status,
        chosen: message.chosen,
        chosenAmongSiblings: message.chosenAmongSiblings ?? message.chosen,
        editedAt: message.editedAt ? new Date(message.editedAt) : null,
        summarizedBy: freshOrNull(summaryIdFor, message.summarizedBy),
        ...messageTokenCounts(parts),
        createdAt: new Date(message.createdAt),
      };
    }),
    messageVersions: archive.messages.flatMap((message) =>
      message.versions.map((version) => ({
        id: uuidv7(),
        messageId: fresh(messageIdFor, message.id),
        parts: rewriteParts(version.parts),
        createdAt: new Date(version.createdAt),
      })),
    ),
    blobs: Object.entries(archive.blobs)
      .filter(([sha256]) => usedSha256s.has(sha256))
      .map(([sha256, data]) => ({ storageKey: `db:${sha256}`, data })),
    attachments: archive.attachments.map(({ id, messageId, ...attachment }) => ({
      ...attachment,
      id: fresh(attachmentIdFor, id),
      conversationId,
      messageId: fresh(messageIdFor, messageId),
      uploadedBy: ownerId,
      storageKey: `db:${attachment.sha256}`,
    })),
    artifacts: archive.artifacts.map((artifact) => ({
      id: fresh(artifactIdFor, artifact.id),
      conversationId,
      messageId: fresh(messageIdFor, artifact.messageId),
      type: artifact.type,
      payload: artifact.payload,
      tokenCounts: artifactTokenCounts(artifact),
    })),
    turns: archive.turns.map((turn) => ({
      id: fresh(turnIdFor, turn.id),
      conversationId,
      userMessageId: freshOrNull(messageIdFor, turn.userMessageId),
      assistantMessageId: freshOrNull(messageIdFor, turn.assistantMessageId),
      // A turn that was running when it was exported runs nowhere here.
      status: turn.status === "running" ? "interrupted" : turn.status,
      settingsVersion: turn.settingsVersion,
      createdAt: new Date(turn.createdAt),
    })),
    attempts: archive.attempts.map((attempt) => ({
      id: uuidv7(),
      conversationId,
      turnId: freshOrNull(turnIdFor, attempt.turnId),
      kind: attempt.kind,
      attemptNumber: attempt.attemptNumber,
      stepNumber: attempt.stepNumber,
      modelId: attempt.modelId,
      status: attempt.status,
      error: attempt.error,
      items: attempt.items,
      trace: attempt.trace,
      settings: attempt.settings,
      settingsVersion: attempt.settingsVersion,
      requests: attempt.requests,
      response: attempt.response,
      timings: attempt.timings,
      privateMemories: importedPrivateMemories(attempt, ownerId),
      createdAt: new Date(attempt.createdAt),
    })),
  };
}

/**
 * Each archived message's parent in the message tree, by id: the archive's own (archiveProblem checked that it
 * names an archived message); else (an archive made before the tree) a reply's is the message it answers and any other
 * message's the shown message before it, as the migration that added the tree derived them.
 */
function archivedParents(
  archived: Pick<
    ArchivedMessage,
    "id" | "seq" | "authorType" | "replyToMessageId" | "parentMessageId" | "chosen"
  >[],
): Map<string, string | null> {
  const parents = new Map<string, string | null>();
  let previousShown: string | null = null;
  for (const message of [...archived].sort((a, b) => a.seq - b.seq)) {
    if (message.parentMessageId !== undefined) parents.set(message.id, message.parentMessageId);
    else if (message.authorType === "persona" && message.replyToMessageId)
      parents.set(message.id, message.replyToMessageId);
    else parents.set(message.id, previousShown);
    if (message.chosen) previousShown = message.id;
  }
  return parents;
}
