import { z } from "zod";
import { MAX_MESSAGE_CHARS } from "@/app/api/chat/schema";

/** One change at a time: new text, an earlier version back, or this variant chosen. */
export const messageChangeSchema = z.union(
  [
    z.strictObject({
      text: z
        .string({ error: "text must be a string" })
        .max(MAX_MESSAGE_CHARS, { error: `text: at most ${MAX_MESSAGE_CHARS} characters` }),
    }),
    z.strictObject({ restoreVersionId: z.uuid({ error: "restoreVersionId must be a version id" }) }),
    z.strictObject({ chosen: z.literal(true, { error: "chosen can only be set to true" }) }),
  ],
  { error: "send one of: { text }, { restoreVersionId }, { chosen: true }" },
);
