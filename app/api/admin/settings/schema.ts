import { z } from "zod";
import { settingsSchema } from "@/lib/context/settings";

// The full policy document: every section required, unknown keys refused (a typo must not be silently dropped).
// Keys missing inside a section take their §4 default.
function section<Shape extends z.ZodRawShape>(name: string, shape: Shape) {
  return z.object(shape, { error: notAnObject(name) }).strict();
}

/** Only the "wrong type" issue gets this message; unknown keys keep zod's own ("Unrecognized key: …"). */
function notAnObject(name: string) {
  return (issue: { code?: string }) =>
    issue.code === "invalid_type" ? `${name} must be an object` : undefined;
}

const { shape } = settingsSchema;

export const policyDocumentSchema = z
  .object(
    {
      history: section("history", shape.history.shape),
      media: section("media", shape.media.shape),
      contextNote: section("contextNote", shape.contextNote.shape),
      summary: section("summary", shape.summary.shape),
      tools: section("tools", shape.tools.shape),
      reasoning: section("reasoning", shape.reasoning.shape),
      budget: section("budget", shape.budget.shape),
      stop: section("stop", shape.stop.shape),
      thinking: section("thinking", shape.thinking.shape),
      cache: section("cache", shape.cache.shape),
      keyContextReminder: shape.keyContextReminder,
    },
    { error: notAnObject("settings") },
  )
  .strict();

export const updateSettingsSchema = z
  .object({
    settings: policyDocumentSchema,
    /** The version the edit started from: when another admin saved since, the PUT is refused (409). */
    baseVersion: z.number({ error: "baseVersion must be a version number" }).int().min(1).optional(),
  })
  .strict();
