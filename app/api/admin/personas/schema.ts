import { z } from "zod";
import { nonEmptyTextField, textField } from "@/app/api/request-fields";
import { TOOL_CATALOG } from "@/lib/chat/turn/tools";
import { oneOf, settingsOverrideSchema } from "@/lib/domain/settings";
import { MODEL_ID } from "../params";

const TOOL_NAMES = TOOL_CATALOG.map((tool) => tool.name) as [string, ...string[]];

const modelId = (field: string) =>
  z
    .string({ error: `${field} must be a model id` })
    .regex(MODEL_ID, { error: `${field} must be a model id such as openai:gpt-4.1-mini` });

function unique<T>(values: T[]): boolean {
  return new Set(values).size === values.length;
}

const personaFields = {
  name: nonEmptyTextField("name", 100),
  avatar: z
    .string({ error: "avatar must be text (an emoji or an image URL)" })
    .trim()
    .max(2_000, { error: "avatar must be at most 2000 characters" })
    .nullable(),
  systemPrompt: textField("systemPrompt", 20_000),
  modelId: modelId("modelId"),
  fallbackModelIds: z
    .array(modelId("fallbackModelIds[]"), { error: "fallbackModelIds must be a list of model ids" })
    .max(5, { error: "fallbackModelIds must have at most 5 entries" })
    .refine(unique, { error: "fallbackModelIds must not repeat a model" }),
  toolNames: z
    .array(oneOf("toolNames[]", TOOL_NAMES), {
      error: "toolNames must be a list of tool names",
    })
    .refine(unique, { error: "toolNames must not repeat a tool" }),
  settingsOverride: settingsOverrideSchema,
};

export const createPersonaSchema = z
  .object({
    ...personaFields,
    avatar: personaFields.avatar.default(null),
    systemPrompt: personaFields.systemPrompt.default(""),
    fallbackModelIds: personaFields.fallbackModelIds.default([]),
    toolNames: personaFields.toolNames.default([]),
    settingsOverride: personaFields.settingsOverride.default({}),
  })
  .strict();

/** Any subset of the fields; each one given replaces the stored value (settingsOverride as a whole). */
export const personaChangesSchema = z.object(personaFields).partial().strict();

export const updatePersonaSchema = personaChangesSchema.refine((body) => Object.keys(body).length > 0, {
  error: "Nothing to change: send at least one field",
});

export type PersonaChanges = z.infer<typeof updatePersonaSchema>;
