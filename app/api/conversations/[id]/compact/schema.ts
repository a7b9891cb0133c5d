import { z } from "zod";
import { integerIn } from "@/lib/domain/settings";

/** Optional body of POST /compact; with none, the conversation's own summary.keepRecentTurns applies. */
export const compactRequestSchema = z
  .object({
    keepRecentTurns: integerIn("keepRecentTurns", 1, 20).optional(),
  })
  .strict();
