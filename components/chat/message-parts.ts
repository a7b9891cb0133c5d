// What the chat reads off a message (its text, its files) and what a user can do to one (MessageActions).
import type { FileUIPart } from "ai";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import type { ModelOption } from "./api";

export function messageText(message: ChatUIMessage): string {
  return message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** The files a message carries (uploaded attachments and fetched image links, as file parts). */
export function messageFiles(message: ChatUIMessage): FileUIPart[] {
  return message.parts.filter((part): part is FileUIPart => part.type === "file");
}

export interface MessageActions {
  onInspect: (messageId: string) => void;
  /** A new variant of this reply (or a retry of a failed one), answered by `modelId` first when given. */
  onRegenerate: (replyId: string, modelId?: string) => void;
  /** The models the owner may regenerate a reply with ("Regenerate with…"); empty for everyone else. */
  regenerateModels: ModelOption[];
  /** Run the turn again on each of these models, side by side (the owner's, with regenerateModels). */
  onCompare: (replyId: string, modelIds: string[]) => void;
  /** Show this reply variant, or this version of a question with its branch. */
  onChooseVariant: (variantId: string) => Promise<void>;
  onEdit: (messageId: string, text: string, regenerate: boolean) => Promise<void>;
  onRestoreVersion: (messageId: string, versionId: string) => Promise<void>;
  onBranch: (messageId: string) => Promise<void>;
}
