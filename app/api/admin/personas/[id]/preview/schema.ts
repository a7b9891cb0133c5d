import { z } from "zod";
import { MAX_MESSAGE_CHARS } from "@/app/api/chat/schema";
import { personaChangesSchema } from "../../schema";

export const personaPreviewSchema = z
  .object({
    conversationId: z.uuid({ error: "conversationId must be a conversation id" }),
    text: z
      .string({ error: "text must be text" })
      .max(MAX_MESSAGE_CHARS, { error: `text must be at most ${MAX_MESSAGE_CHARS} characters` }),
    /** The unsaved edits; omitted fields keep their saved values. */
    draft: personaChangesSchema.optional(),
  })
  .strict();
