import { z } from "zod";
import { MAX_MESSAGE_CHARS } from "@/app/api/chat/schema";
import { nonEmptyTextField } from "@/app/api/request-fields";
import { settingsOverrideSchema } from "@/lib/domain/settings";

export const previewRequestSchema = z
  .object({
    // A preview is of a message about to be sent, and an empty one is never sent.
    text: nonEmptyTextField("text", MAX_MESSAGE_CHARS, "a preview needs the text of the message to send"),
    modelId: z.string({ error: "modelId must be text" }).min(1).max(200).optional(),
    settings: settingsOverrideSchema.optional(),
  })
  .strict();
