import { z } from "zod";

/** Optional body of POST /compact; with none, the conversation's own summary.keepRecentTurns applies. */
export const compactRequestSchema = z
  .object({
    keepRecentTurns: z
      .number({ error: "keepRecentTurns must be a whole number from 1 to 20" })
      .int({ error: "keepRecentTurns must be a whole number from 1 to 20" })
      .min(1, { error: "keepRecentTurns must be a whole number from 1 to 20" })
      .max(20, { error: "keepRecentTurns must be a whole number from 1 to 20" })
      .optional(),
  })
  .strict();
