import { z } from "zod";
import { MAX_MESSAGE_CHARS } from "@/app/api/chat/schema";
import { textField } from "@/app/api/request-fields";
import { settingsOverrideSchema } from "@/lib/context/settings";

export const previewRequestSchema = z
  .object({
    text: textField("text", MAX_MESSAGE_CHARS),
    modelId: z.string({ error: "modelId must be text" }).min(1).max(200).optional(),
    settings: settingsOverrideSchema.optional(),
  })
  .strict();
