import { z } from "zod";
import { nonEmptyTextField } from "@/app/api/request-fields";

export const memoryChangeSchema = z
  .object({
    content: nonEmptyTextField("content", 4_000, "content must not be empty (delete the memory instead)"),
  })
  .strict();

export const memoryPreferencesSchema = z
  .object({
    sessionSummaries: z.boolean({ error: "sessionSummaries must be true or false" }),
    /** With `sessionSummaries: true`: also keep this conversation's active summary now (the summary panel's "Keep"). */
    keepSummaryOf: z.uuid({ error: "keepSummaryOf must be a conversation id" }).optional(),
  })
  .strict()
  .refine((body) => body.sessionSummaries || body.keepSummaryOf === undefined, {
    error: "keepSummaryOf goes with sessionSummaries: true",
    path: ["keepSummaryOf"],
  });
