import { z } from "zod";
import { policyDocumentSchema } from "@/lib/domain/settings";
import { addSettingsConflictIssues } from "@/lib/domain/settings-rules";

export const updateSettingsSchema = z
  .object({
    // Each key in range, and no two contradicting each other (lib/domain/settings-rules.ts).
    settings: policyDocumentSchema.superRefine(addSettingsConflictIssues),
    /** The version the edit started from: when another admin saved since, the PUT is refused (409). */
    baseVersion: z.number({ error: "baseVersion must be a version number" }).int().min(1).optional(),
  })
  .strict();
