import { z } from "zod";
import { textField } from "@/app/api/request-fields";
import { settingsOverrideSchema } from "@/lib/domain/settings";

/** Nothing given: the recorded body again, to the same model. A model, settings or a prompt: rebuilt with them. */
export const replayRequestSchema = z
  .object({
    modelId: z.string({ error: "modelId must be text" }).min(1).max(200).optional(),
    settings: settingsOverrideSchema.optional(),
    systemPrompt: textField("systemPrompt", 20_000).optional(),
  })
  .strict();
