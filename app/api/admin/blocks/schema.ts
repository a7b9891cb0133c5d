import { z } from "zod";
import { oneOf } from "@/lib/domain/settings";
import { BLOCK_TYPES } from "@/lib/domain/types";

/** Ten years: longer than that is what "permanent" (null) is for. */
export const MAX_BLOCK_MINUTES = 60 * 24 * 365 * 10;

export const setBlockSchema = z
  .object({
    personaId: z.uuid({ error: "personaId must be a persona id" }),
    userId: z
      .string({ error: "userId must be a user id" })
      .regex(/^[A-Za-z0-9_-]{1,100}$/, { error: "userId must be a user id" }),
    blockType: oneOf("blockType", BLOCK_TYPES),
    reason: z
      .string({ error: "reason must be text" })
      .trim()
      .max(500, { error: "reason must be at most 500 characters" })
      .nullable()
      .default(null)
      .transform((reason) => (reason === "" ? null : reason)),
    /** Minutes from now until it lifts; null is permanent. */
    durationMinutes: z
      .number({
        error: `durationMinutes must be a whole number from 1 to ${MAX_BLOCK_MINUTES}, or null for permanent`,
      })
      .int({
        error: `durationMinutes must be a whole number from 1 to ${MAX_BLOCK_MINUTES}, or null for permanent`,
      })
      .min(1, {
        error: `durationMinutes must be a whole number from 1 to ${MAX_BLOCK_MINUTES}, or null for permanent`,
      })
      .max(MAX_BLOCK_MINUTES, {
        error: `durationMinutes must be a whole number from 1 to ${MAX_BLOCK_MINUTES}, or null for permanent`,
      })
      .nullable(),
  })
  .strict();
