import { z } from "zod";
import { MAX_COMPARED_MODELS } from "@/lib/compare-stream";

export const compareRequestSchema = z.strictObject({
  /** The reply to compare (or the user message it answers): each model's answer becomes a variant of it. */
  messageId: z.uuid({ error: "messageId must be the id of a message of this conversation" }),
  modelIds: z
    .array(
      z
        .string({ error: "modelIds must hold model ids" })
        .min(1, { error: "modelIds must not hold an empty id" })
        .max(200, { error: "modelIds must hold ids of at most 200 characters" }),
      { error: "modelIds must be a list of model ids" },
    )
    .min(1, { error: "modelIds must name at least one model" })
    .max(MAX_COMPARED_MODELS, {
      error: `modelIds: at most ${MAX_COMPARED_MODELS} models are compared at once`,
    }),
});
