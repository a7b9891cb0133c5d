import { z } from "zod";
import { MAX_MESSAGE_CHARS } from "@/app/api/chat/schema";
import { settingsOverrideSchema } from "@/lib/context/settings";

export const previewRequestSchema = z
  .object({
    text: z
      .string({ error: "text must be text" })
      .max(MAX_MESSAGE_CHARS, { error: `text must be at most ${MAX_MESSAGE_CHARS} characters` }),
    modelId: z.string({ error: "modelId must be text" }).min(1).max(200).optional(),
    settings: settingsOverrideSchema.optional(),
  })
  .strict();
