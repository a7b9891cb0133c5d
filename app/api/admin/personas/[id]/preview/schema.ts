import { z } from "zod";
import { MAX_MESSAGE_CHARS } from "@/app/api/chat/schema";
import { textField } from "@/app/api/request-fields";
import { personaChangesSchema } from "../../schema";

export const personaPreviewSchema = z
  .object({
    conversationId: z.uuid({ error: "conversationId must be a conversation id" }),
    text: textField("text", MAX_MESSAGE_CHARS),
    /** The unsaved edits; omitted fields keep their saved values. */
    draft: personaChangesSchema.optional(),
  })
  .strict();
