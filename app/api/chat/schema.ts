import { z } from "zod";

/** The longest message a user can send, in characters. */
export const MAX_MESSAGE_CHARS = 20_000;

const textPart = z.object({ type: z.literal("text"), text: z.string() });

export const chatRequestSchema = z.object({
  id: z.uuid({ error: "id must be a conversation id" }),
  message: z.object({
    id: z.string().max(200).optional(),
    role: z.literal("user", { error: "message.role must be user" }),
    parts: z
      .array(z.union([textPart, z.object({ type: z.string() }).loose()]), { error: "message.parts must be a list" })
      .min(1, { error: "message.parts must not be empty" }),
  }),
  trigger: z.enum(["submit-message", "regenerate-message"]).optional(),
  messageId: z.string().optional(),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** The message's text: its text parts joined. */
export function messageText(request: ChatRequest): string {
  return request.message.parts
    .filter((part): part is z.infer<typeof textPart> => part.type === "text" && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n");
}
