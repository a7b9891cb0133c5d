// Stored messages → the AI SDK UIMessage shape useChat renders. Metadata carries what the chat shows besides text.
import type { FileUIPart, UIMessage } from "ai";
import type { Message } from "@/db/schema";
import { attachmentUrl } from "@/lib/media/attachment-view";

export interface ChatMessageMetadata {
  authorName?: string;
  status?: Message["status"];
  seq?: number;
  summarized?: boolean;
  /** The summary that covers it (null when the model still sees it verbatim). */
  summarizedBy?: string | null;
  userMessageId?: string;
  assistantMessageId?: string;
  /** The tools the reply called, in order of first use. */
  toolNames?: string[];
}

export type ChatUIMessage = UIMessage<ChatMessageMetadata>;

/** What the transcript needs to show a stored message's media: each attachment's type and name, by id. */
export type MediaLookup = ReadonlyMap<string, { mime: string; filename: string | null }>;

/** What the transcript shows besides the stored message itself. */
export interface TranscriptExtras {
  media?: MediaLookup;
  /** The tools each reply called, by message id. */
  toolNames?: ReadonlyMap<string, string[]>;
}

export function toUIMessage(
  message: Pick<Message, "id" | "authorType" | "authorName" | "parts" | "status" | "seq" | "summarizedBy">,
  { media = new Map(), toolNames }: TranscriptExtras = {},
): ChatUIMessage {
  const text = message.parts
    .filter((part) => part.type === "text")
    .map((part) => (part as { text: string }).text)
    .join("\n");
  const files: FileUIPart[] = [];
  for (const part of message.parts) {
    if (part.type !== "media") continue;
    const attachment = media.get(part.attachmentId);
    files.push({
      type: "file",
      mediaType: attachment?.mime ?? "application/octet-stream",
      url: attachmentUrl(part.attachmentId),
      ...(attachment?.filename ? { filename: attachment.filename } : {}),
    });
  }
  return {
    id: message.id,
    role: message.authorType === "persona" ? "assistant" : "user",
    metadata: {
      authorName: message.authorName,
      status: message.status,
      seq: message.seq,
      summarized: message.summarizedBy !== null,
      summarizedBy: message.summarizedBy,
      ...(toolNames?.has(message.id) ? { toolNames: toolNames.get(message.id) } : {}),
    },
    parts: [...files, ...(text ? [{ type: "text" as const, text }] : [])],
  };
}
