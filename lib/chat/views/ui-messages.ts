// Stored messages → the AI SDK UIMessage shape useChat renders. Metadata carries what the chat shows besides text.
import type { FileUIPart, UIMessage } from "ai";
import type { Message } from "@/db/schema";
import { attachmentUrl } from "@/lib/media/attachment-view";
import type { ReasoningView } from "./reasoning-view";
import type { ModelViewStart, ReplyModel } from "./transcript";

export interface ChatMessageMetadata {
  authorName?: string;
  /** The person who wrote a user message (who may edit it). */
  authorUserId?: string | null;
  /** A reply: the user message it answers. */
  replyToMessageId?: string | null;
  status?: Message["status"];
  seq?: number;
  summarized?: boolean;
  /** The summary that covers it (null when the model still sees it verbatim). */
  summarizedBy?: string | null;
  userMessageId?: string;
  assistantMessageId?: string;
  /** The tools the reply called, in order of first use. */
  toolNames?: string[];
  /** How long the model thought before the reply, and what when the provider gave the text. */
  reasoning?: ReasoningView | null;
  /** The model that answered the reply, and the one it fell back from when that one failed. */
  modelId?: string;
  fallbackFromModelId?: string | null;
  /** While the reply waits for a retry or a fallback: what it waits for ("429 — retrying in 2 s"). */
  retryProgress?: string | null;
  /** A reply with several variants (regenerate): their ids, oldest first, and which one this is. */
  variants?: { ids: string[]; index: number };
  /** A question with several versions (edits fork it): their ids, oldest first, and which one this is. */
  questionVersions?: { ids: string[]; index: number };
  /** Edited in place after it was sent (earlier versions are kept). */
  edited?: boolean;
  /** The latest request began here: the messages above it (not summarised) were not sent, for these reasons. */
  modelViewStart?: { hiddenCount: number; reasons: { kind: string; text: string }[] };
  /** Size and origin (an image fetched from a link) of the message's files, by their url. */
  files?: Record<string, { sizeBytes?: number; originUrl?: string | null }>;
}

export type ChatUIMessage = UIMessage<ChatMessageMetadata>;

/** What the transcript needs to show a stored message's media: each attachment's type and name, by id (size and
 *  origin when known). */
export type MediaLookup = ReadonlyMap<
  string,
  { mime: string; filename: string | null; sizeBytes?: number; originUrl?: string | null }
>;

/** What the transcript shows besides the stored message itself. */
export interface TranscriptExtras {
  media?: MediaLookup;
  /** The tools each reply called, by message id. */
  toolNames?: ReadonlyMap<string, string[]>;
  /** Each reply's reasoning, by message id. */
  reasoning?: ReadonlyMap<string, ReasoningView>;
  /** The variants of each regenerated reply, by the id of the user message it answers. */
  variants?: ReadonlyMap<string, { id: string }[]>;
  /** The versions of each question that has several, by the id of each version. */
  questionVersions?: ReadonlyMap<string, string[]>;
  /** The model that answered each reply, by message id. */
  replyModels?: ReadonlyMap<string, ReplyModel>;
  /** Where the model's view began in the latest request, when it left older messages out. */
  modelView?: ModelViewStart | null;
}

export type TranscriptMessage = Pick<
  Message,
  "id" | "authorType" | "authorName" | "parts" | "status" | "seq" | "summarizedBy"
> &
  Partial<Pick<Message, "replyToMessageId" | "authorUserId">> & {
    /** A Date on the server, its ISO text after JSON (GET /messages): only whether it is set matters here. */
    editedAt?: Date | string | null;
  };

export function toUIMessage(
  message: TranscriptMessage,
  {
    media = new Map(),
    toolNames,
    reasoning,
    variants,
    questionVersions,
    replyModels,
    modelView,
  }: TranscriptExtras = {},
): ChatUIMessage {
  const siblings =
    message.authorType === "persona" && message.replyToMessageId
      ? variants?.get(message.replyToMessageId)
      : undefined;
  const variantIndex = siblings?.findIndex((variant) => variant.id === message.id) ?? -1;
  const text = message.parts
    .filter((part) => part.type === "text")
    .map((part) => (part as { text: string }).text)
    .join("\n");
  const files: FileUIPart[] = [];
  const fileFacts: NonNullable<ChatMessageMetadata["files"]> = {};
  for (const part of message.parts) {
    if (part.type !== "media") continue;
    const attachment = media.get(part.attachmentId);
    const url = attachmentUrl(part.attachmentId);
    files.push({
      type: "file",
      mediaType: attachment?.mime ?? "application/octet-stream",
      url,
      ...(attachment?.filename ? { filename: attachment.filename } : {}),
    });
    if (attachment?.sizeBytes !== undefined || attachment?.originUrl) {
      fileFacts[url] = {
        ...(attachment.sizeBytes !== undefined ? { sizeBytes: attachment.sizeBytes } : {}),
        ...(attachment.originUrl ? { originUrl: attachment.originUrl } : {}),
      };
    }
  }
  return {
    id: message.id,
    role: message.authorType === "persona" ? "assistant" : "user",
    metadata: {
      authorName: message.authorName,
      ...(message.authorUserId ? { authorUserId: message.authorUserId } : {}),
      ...(message.replyToMessageId ? { replyToMessageId: message.replyToMessageId } : {}),
      status: message.status,
      seq: message.seq,
      summarized: message.summarizedBy !== null,
      summarizedBy: message.summarizedBy,
      ...(toolNames?.has(message.id) ? { toolNames: toolNames.get(message.id) } : {}),
      ...(reasoning?.has(message.id) ? { reasoning: reasoning.get(message.id) } : {}),
      ...replyModels?.get(message.id),
      ...(siblings && variantIndex >= 0
        ? { variants: { ids: siblings.map((variant) => variant.id), index: variantIndex } }
        : {}),
      ...questionVersionsOf(message.id, questionVersions),
      ...(message.editedAt ? { edited: true } : {}),
      ...(Object.keys(fileFacts).length > 0 ? { files: fileFacts } : {}),
      ...(modelView?.firstMessageId === message.id
        ? { modelViewStart: { hiddenCount: modelView.hiddenCount, reasons: modelView.reasons } }
        : {}),
    },
    parts: [...files, ...(text ? [{ type: "text" as const, text }] : [])],
  };
}

/** A question's versions and its place among them, when it has several. */
function questionVersionsOf(
  messageId: string,
  questionVersions: ReadonlyMap<string, string[]> | undefined,
): Pick<ChatMessageMetadata, "questionVersions"> {
  const ids = questionVersions?.get(messageId);
  return ids ? { questionVersions: { ids, index: ids.indexOf(messageId) } } : {};
}
