import { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { ATTACHMENT_URL_PATTERN } from "@/lib/ids";
import { MAX_MESSAGE_IMAGES } from "@/lib/media/upload-limits";

/** The longest message a user can send, in characters. */
export const MAX_MESSAGE_CHARS = 20_000;

const textPart = z.object({ type: z.literal("text"), text: z.string() });
const filePart = z
  .object({ type: z.literal("file"), url: z.string(), mediaType: z.string().optional() })
  .loose();

const chatMessageSchema = z.object({
  id: z.string().min(1).max(200).optional(),
  role: z.literal("user", { error: "message.role must be user" }),
  parts: z
    .array(z.union([textPart, filePart, z.object({ type: z.string() }).loose()]), {
      error: "message.parts must be a list",
    })
    .min(1, { error: "message.parts must not be empty" }),
});

export const chatRequestSchema = z.object({
  id: z.uuid({ error: "id must be a conversation id" }),
  /** The new message (submit-message); a regenerate may carry the last user message too, and it is not used. */
  message: chatMessageSchema.optional(),
  trigger: z
    .enum(["submit-message", "regenerate-message"], {
      error: "trigger must be submit-message or regenerate-message",
    })
    .optional(),
  /** With regenerate-message: the reply to make a new variant of, or the user message to answer (a fork). */
  messageId: z.uuid({ error: "messageId must be the id of a stored message" }).optional(),
  /** With regenerate-message: answer the new variant with this registered model (then the persona's fallbacks). */
  modelId: z
    .string({ error: "modelId must be a model id" })
    .min(1, { error: "modelId must not be empty" })
    .max(200, { error: "modelId must be at most 200 characters" })
    .optional(),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;
type ChatMessage = z.infer<typeof chatMessageSchema>;

/** The message's text: its text parts joined. */
export function messageText(message: ChatMessage): string {
  return message.parts
    .filter((part): part is z.infer<typeof textPart> => part.type === "text" && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n");
}

/**
 * The attachment ids of the message's file parts, in order. A file must be an upload of this app (its url is the
 * attachment's route): inline data and remote URLs are refused with a message that says how to send an image.
 */
export function attachmentIds(message: ChatMessage): string[] {
  const ids: string[] = [];
  for (const part of message.parts) {
    if (part.type !== "file") continue;
    const url = typeof part.url === "string" ? part.url : "";
    const match = ATTACHMENT_URL_PATTERN.exec(url);
    if (!match) {
      throw new AppError(
        "bad_request",
        "message.parts: a file must be uploaded first (POST /api/conversations/:id/attachments) and sent by its url.",
      );
    }
    ids.push(match[1].toLowerCase());
  }
  if (ids.length > MAX_MESSAGE_IMAGES) {
    throw new AppError(
      "bad_request",
      `message.parts: ${ids.length} images; a message carries at most ${MAX_MESSAGE_IMAGES}.`,
    );
  }
  return ids;
}
