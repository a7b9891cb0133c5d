// Export: a conversation as one archive (docs/features.md, "Export and import"), and its attempts as JSONL
// in the OpenAI chat format. Attempts go through the same per-reader views the inspector uses, so an export never
// holds more than its reader may see.

import "server-only";
import { listConversationArchiveRows } from "@/db/archive-queries";
import { loadConversationMediaBySha256 } from "@/db/attachment-queries";
import type { PrivateMemoryUse } from "@/db/attempt-records";
import type { Database } from "@/db/client";
import { getPersona } from "@/db/persona-queries";
import type { Attempt, Conversation } from "@/db/schema";
import { privateMemoriesInPayload } from "@/lib/chat/attempts/private-memories";
import { conversationAttemptViews, type toAttemptViews } from "@/lib/chat/views/attempt-view";
import type { StoredPart } from "@/lib/domain/types";
import { elideMedia, MEDIA_MARKER, restoreMedia } from "@/lib/providers/media-elision";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  type ArchivedAttempt,
  type ConversationArchive,
} from "./conversation-archive";
import { attemptAsJsonlLine } from "./openai-chat-example";

export async function exportConversation({
  db,
  conversation,
  readerId,
}: {
  db: Database;
  conversation: Conversation;
  /** Who exports: other people's private memories in attempts are redacted for them, as in the inspector. */
  readerId: string;
}): Promise<ConversationArchive> {
  const [rows, persona, attempts] = await Promise.all([
    listConversationArchiveRows({ db, conversationId: conversation.id }),
    getPersona({ db, personaId: conversation.personaId }),
    conversationAttemptViews({ db, conversationId: conversation.id, readerId }),
  ]);
  const rowsById = new Map(
    [...attempts.turns.flatMap((turn) => turn.attempts), ...attempts.otherCalls].map((row) => [row.id, row]),
  );
  const versionsByMessage = new Map<string, typeof rows.versionRows>();
  for (const version of rows.versionRows)
    versionsByMessage.set(version.messageId, [...(versionsByMessage.get(version.messageId) ?? []), version]);
  return {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    exportedAt: new Date().toISOString(),
    conversation: {
      title: conversation.title,
      instructions: conversation.instructions,
      settingsOverride: conversation.settingsOverride,
      modelId: conversation.modelId,
    },
    persona: { id: persona.id, name: persona.name, modelId: persona.modelId },
    messages: rows.messageRows.map((message) => ({
      id: message.id,
      seq: message.seq,
      authorType: message.authorType,
      authorName: message.authorName,
      byOwner: message.authorUserId === conversation.ownerId,
      parts: message.parts as StoredPart[],
      replyToMessageId: message.replyToMessageId,
      parentMessageId: message.parentMessageId,
      status: message.status,
      chosen: message.chosen,
      chosenAmongSiblings: message.chosenAmongSiblings,
      editedAt: message.editedAt?.toISOString() ?? null,
      summarizedBy: message.summarizedBy,
      createdAt: message.createdAt.toISOString(),
      versions: (versionsByMessage.get(message.id) ?? []).map((version) => ({
        parts: version.parts as StoredPart[],
        createdAt: version.createdAt.toISOString(),
      })),
    })),
    attachments: rows.attachmentRows.map((attachment) => ({
      id: attachment.id,
      messageId: attachment.messageId as string,
      kind: attachment.kind,
      mime: attachment.mime,
      filename: attachment.filename,
      sizeBytes: attachment.sizeBytes,
      sha256: attachment.sha256,
      width: attachment.width,
      height: attachment.height,
      isEmoji: attachment.isEmoji,
      isSticker: attachment.isSticker,
      originUrl: attachment.originUrl,
    })),
    blobs: Object.fromEntries(
      rows.blobRows.map((blob) => [blob.storageKey.replace(/^db:/, ""), blob.data] as const),
    ),
    artifacts: rows.artifactRows.map((artifact) => ({
      id: artifact.id,
      messageId: artifact.messageId,
      type: artifact.type,
      payload: artifact.payload,
    })),
    summaries: rows.summaryRows.map((summary) => ({
      id: summary.id,
      content: summary.content,
      coversThroughSeq: summary.coversThroughSeq,
      messageCount: summary.messageCount,
      modelId: summary.modelId,
      tokensBefore: summary.tokensBefore,
      tokensAfter: summary.tokensAfter,
      trigger: summary.trigger,
      supersededBy: summary.supersededBy,
      createdAt: summary.createdAt.toISOString(),
    })),
    turns: attempts.turns.map((turn) => ({
      id: turn.id,
      userMessageId: turn.userMessageId,
      assistantMessageId: turn.assistantMessageId,
      status: turn.status,
      settingsVersion: turn.settingsVersion,
      createdAt: turn.createdAt.toISOString(),
    })),
    attempts: await Promise.all(
      attempts.views.map(async (view) =>
        toArchivedAttempt(view, await readersPrivateMemories(db, rowsById.get(view.id), readerId)),
      ),
    ),
  };
}

/**
 * The reader's own private memories an attempt's payload carries: recorded with the attempt, or for an attempt
 * recorded before they were (null), found as its view finds them (lib/chat/attempts/private-memories.ts). Other people's
 * are redacted in the view and stay out of the archive.
 */
async function readersPrivateMemories(
  db: Database,
  row: Attempt | undefined,
  readerId: string,
): Promise<Pick<PrivateMemoryUse, "memoryId" | "content">[]> {
  if (!row) return [];
  const uses =
    row.privateMemories ??
    (await privateMemoriesInPayload({
      db,
      conversationId: row.conversationId,
      turnId: row.turnId,
      items: row.items,
    }));
  return uses
    .filter((use) => use.ownerId === readerId)
    .map(({ memoryId, content }) => ({ memoryId, content }));
}

/** A conversation as `readerId` may see it (private memories of others redacted). */
type ReaderArgs = { db: Database; conversationId: string; readerId: string };

/**
 * One line per attempt of every kind and status (replies, summaries, titles, drafts, replays; answered, failed,
 * stopped): the messages it sent and the reply, as OpenAI's chat format has them, with its `kind` and `status`
 * so a reader picks the lines it wants (docs/features.md, "Export and import").
 */
export async function exportAttemptsAsJsonl({ db, conversationId, readerId }: ReaderArgs): Promise<string> {
  const { views } = await conversationAttemptViews({ db, conversationId, readerId });
  // Items are stored with their media elided (as bodies are): put the bytes back, an example carries its images.
  const itemsJson = views.map((view) => JSON.stringify(view.items));
  const sha256s = [
    ...new Set(itemsJson.flatMap((json) => [...json.matchAll(MEDIA_MARKER)].map((match) => match[1]))),
  ];
  const media = await loadConversationMediaBySha256({ db, conversationId, sha256s });
  return views
    .map((view, index) => ({
      ...view,
      items: JSON.parse(restoreMedia(itemsJson[index], (sha256) => media.get(sha256))) as unknown[],
    }))
    .map((view) => `${JSON.stringify(attemptAsJsonlLine(view))}\n`)
    .join("");
}

type AttemptView = Awaited<ReturnType<typeof toAttemptViews>>[number];

/** The view's bodies carry their media again: elide it once more, the bytes travel once in `blobs`. */
function toArchivedAttempt(
  view: AttemptView,
  privateMemories: ArchivedAttempt["privateMemories"],
): ArchivedAttempt {
  const { turnId, kind, attemptNumber, stepNumber, modelId, status, error, items, trace } = view;
  return {
    turnId,
    kind,
    attemptNumber,
    stepNumber,
    modelId,
    status,
    error,
    // The pipeline wrote them (lib/domain/types.ts); only an import checks them against the schema.
    items: items as ArchivedAttempt["items"],
    trace: trace as ArchivedAttempt["trace"],
    settings: view.settings,
    settingsVersion: view.settingsVersion,
    requests: view.requests.map((request) => {
      const elided = elideMedia(request.body);
      return { url: request.url, status: request.status, body: elided.body, elidedMedia: elided.media };
    }),
    // As stored: the view's reasoning is read from the reply's artifacts, which the archive carries itself.
    response: view.response && {
      text: view.response.text,
      finishReason: view.response.finishReason,
      usage: view.response.usage,
      ...(view.response.prices === undefined ? {} : { prices: view.response.prices }),
    },
    timings: view.timings,
    privateMemories,
    createdAt: view.createdAt.toISOString(),
  };
}
