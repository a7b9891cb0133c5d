import { z } from "zod";
import { nonEmptyTextField, textField } from "@/app/api/request-fields";
import { settingsOverrideSchema } from "@/lib/domain/settings";

export const createConversationSchema = z
  .object({
    personaId: z.uuid({ error: "personaId must be a persona id" }).optional(),
    title: nonEmptyTextField("title", 200).optional(),
  })
  .strict();

export const updateConversationSchema = z
  .object({
    title: nonEmptyTextField("title", 200).optional(),
    instructions: textField("instructions", 4_000).nullable().optional(),
    settingsOverride: settingsOverrideSchema.optional(),
    /** The model that answers first in this conversation; null goes back to the persona's. */
    modelId: z
      .string({ error: "modelId must be a model id or null" })
      .min(1, { error: "modelId must not be empty" })
      .max(200, { error: "modelId must be at most 200 characters" })
      .nullable()
      .optional(),
  })
  .strict();

/** `GET /api/conversations?q=…`: an optional title filter. */
export const listConversationsQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .max(200, { error: "q must be at most 200 characters" })
    .refine((value) => !value.includes("\u0000"), { error: "q must not contain NUL characters" })
    .optional()
    .transform((value) => value || undefined),
});
