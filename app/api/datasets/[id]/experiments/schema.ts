import { z } from "zod";
import { MAX_MESSAGE_CHARS } from "@/app/api/chat/schema";
import { nonEmptyTextField, textField } from "@/app/api/request-fields";
import { settingsOverrideSchema } from "@/lib/domain/settings";

/** The next message an experiment builds each conversation's turn for, unless the request names one. */
export const EXPERIMENT_DEFAULT_TEXT = "What would you say next?";

const version = (key: string) =>
  z
    .number({ error: `${key} must be a version number` })
    .int({ error: `${key} must be a whole number` })
    .positive({ error: `${key} must be a version number` });

export const candidateSchema = z
  .object({
    settings: settingsOverrideSchema.optional(),
    personaId: z.uuid({ error: "candidate.personaId must be a persona id" }).optional(),
    personaPrompt: textField("candidate.personaPrompt", 20_000).optional(),
    modelId: z.string({ error: "candidate.modelId must be text" }).min(1).max(200).optional(),
    policyVersion: version("candidate.policyVersion").optional(),
    personaVersion: version("candidate.personaVersion").optional(),
  })
  .strict();

export const startExperimentSchema = z
  .object({
    candidate: candidateSchema,
    live: z.boolean({ error: "live must be true or false" }).default(false),
    /** The next message each conversation's turn is built for. */
    text: nonEmptyTextField("text", MAX_MESSAGE_CHARS).default(EXPERIMENT_DEFAULT_TEXT),
  })
  .strict();
