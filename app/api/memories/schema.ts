import { z } from "zod";

export const memoryChangeSchema = z
  .object({
    content: z
      .string({ error: "content must be text" })
      .trim()
      .min(1, { error: "content must not be empty (delete the memory instead)" })
      .max(4_000, { error: "content must be at most 4000 characters" }),
  })
  .strict();

export const memoryPreferencesSchema = z
  .object({
    sessionSummaries: z.boolean({ error: "sessionSummaries must be true or false" }),
  })
  .strict();
