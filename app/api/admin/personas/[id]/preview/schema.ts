import { z } from "zod";
import { MAX_MESSAGE_CHARS } from "@/app/api/chat/schema";
import { nonEmptyTextField } from "@/app/api/request-fields";
import { personaChangesSchema } from "../../schema";

export const personaPreviewSchema = z
  .object({
    conversationId: z.uuid({ error: "conversationId must be a conversation id" }),
    text: nonEmptyTextField("text", MAX_MESSAGE_CHARS, "a preview needs the text of the message to send"),
    /** The unsaved edits; omitted fields keep their saved values. */
    draft: personaChangesSchema.optional(),
  })
  .strict();
