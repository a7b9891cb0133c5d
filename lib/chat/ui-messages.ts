// Stored messages → the AI SDK UIMessage shape useChat renders. Metadata carries what the chat shows besides text.
import type { UIMessage } from "ai";
import type { Message } from "@/db/schema";

export interface ChatMessageMetadata {
  authorName?: string;
  status?: Message["status"];
  seq?: number;
  summarized?: boolean;
  /** The summary that covers it (null when the model still sees it verbatim). */
  summarizedBy?: string | null;
  userMessageId?: string;
  assistantMessageId?: string;
}

export type ChatUIMessage = UIMessage<ChatMessageMetadata>;

export function toUIMessage(message: Pick<Message, "id" | "authorType" | "authorName" | "parts" | "status" | "seq" | "summarizedBy">): ChatUIMessage {
  const text = message.parts
    .filter((part) => part.type === "text")
    .map((part) => (part as { text: string }).text)
    .join("\n");
  return {
    id: message.id,
    role: message.authorType === "persona" ? "assistant" : "user",
    metadata: {
      authorName: message.authorName,
      status: message.status,
      seq: message.seq,
      summarized: message.summarizedBy !== null,
      summarizedBy: message.summarizedBy,
    },
    parts: text ? [{ type: "text", text }] : [],
  };
}
