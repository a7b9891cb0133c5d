import { z } from "zod";

export const MAX_SUMMARY_CHARS = 20_000;

export const updateSummarySchema = z
  .object({
    content: z
      .string({ error: "content must be text" })
      .trim()
      .min(1, { error: "content must not be empty" })
      .max(MAX_SUMMARY_CHARS, { error: `content must be at most ${MAX_SUMMARY_CHARS} characters` }),
  })
  .strict();
