import { z } from "zod";
import { policyDocumentSchema } from "@/lib/domain/settings";

export const updateSettingsSchema = z
  .object({
    settings: policyDocumentSchema,
    /** The version the edit started from: when another admin saved since, the PUT is refused (409). */
    baseVersion: z.number({ error: "baseVersion must be a version number" }).int().min(1).optional(),
  })
  .strict();
