import { z } from "zod";
import { nonEmptyTextField } from "@/app/api/request-fields";

/** The most conversations one dataset holds: an experiment over it is one background job. */
export const MAX_DATASET_CONVERSATIONS = 1_000;

export const createDatasetSchema = z
  .object({
    name: nonEmptyTextField("name", 200),
    conversationIds: z
      .array(z.uuid({ error: "conversationIds must hold conversation ids" }), {
        error: "conversationIds must be a list",
      })
      .min(1, { error: "conversationIds must name at least one conversation" })
      .max(MAX_DATASET_CONVERSATIONS, {
        error: `conversationIds must name at most ${MAX_DATASET_CONVERSATIONS} conversations`,
      }),
  })
  .strict();
