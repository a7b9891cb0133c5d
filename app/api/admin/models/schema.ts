import { z } from "zod";
import { nonEmptyTextField } from "@/app/api/request-fields";
import { integerIn, oneOf } from "@/lib/domain/settings";
import { API_KINDS, PROVIDER_NAMES, TOKENIZER_NAMES } from "@/lib/domain/types";
import { MODEL_ID } from "../params";

const flag = (key: string) => z.boolean({ error: `capabilities.${key} must be true or false` });

const capabilitiesSchema = z
  .object(
    {
      vision: flag("vision"),
      video: flag("video"),
      // Added after the registry existed: absent means the model takes none (docs/features.md#documents-audio-and-video).
      audio: flag("audio").default(false),
      documents: flag("documents").default(false),
      tools: flag("tools"),
      reasoning: flag("reasoning"),
      systemInstruction: flag("systemInstruction"),
      strictAlternation: flag("strictAlternation"),
      maxStopSequences: integerIn("capabilities.maxStopSequences", 0, 64),
    },
    // Only the wrong-type issue: unknown keys keep zod's "Unrecognized key" message.
    { error: (issue) => (issue.code === "invalid_type" ? "capabilities must be an object" : undefined) },
  )
  .strict();

const modelFields = {
  provider: oneOf("provider", PROVIDER_NAMES),
  providerModelName: nonEmptyTextField("providerModelName", 200),
  label: nonEmptyTextField("label", 200),
  apiKind: oneOf("apiKind", API_KINDS),
  capabilities: capabilitiesSchema,
  contextWindow: integerIn("contextWindow", 256, 100_000_000),
  maxOutputTokens: integerIn("maxOutputTokens", 1, 10_000_000),
  tokenizer: oneOf("tokenizer", TOKENIZER_NAMES),
  enabled: z.boolean({ error: "enabled must be true or false" }),
  /** US dollars per million tokens; null when unknown (costs then show as unknown). */
  prices: z
    .object(
      {
        inputPerMillion: price("prices.inputPerMillion"),
        cachedInputPerMillion: price("prices.cachedInputPerMillion"),
        cacheWritePerMillion: price("prices.cacheWritePerMillion").optional(),
        outputPerMillion: price("prices.outputPerMillion"),
      },
      { error: (issue) => (issue.code === "invalid_type" ? "prices must be an object or null" : undefined) },
    )
    .strict()
    .nullable(),
};

function price(key: string) {
  const message = `${key} must be a number of US dollars per million tokens, from 0 to 10000`;
  return z.number({ error: message }).min(0, { error: message }).max(10_000, { error: message });
}

/** Rules across fields: the Responses API is OpenAI's only; the reply must fit in the window. */
function consistent(
  body: { provider?: string; apiKind?: string; contextWindow?: number; maxOutputTokens?: number },
  context: z.RefinementCtx,
) {
  if (body.apiKind === "responses" && body.provider !== undefined && body.provider !== "openai") {
    context.addIssue({
      code: "custom",
      path: ["apiKind"],
      message: "apiKind responses is only for the openai provider",
    });
  }
  if (
    body.contextWindow !== undefined &&
    body.maxOutputTokens !== undefined &&
    body.maxOutputTokens > body.contextWindow
  ) {
    context.addIssue({
      code: "custom",
      path: ["maxOutputTokens"],
      message: "maxOutputTokens must not exceed contextWindow",
    });
  }
}

export const createModelSchema = z
  .object({
    id: z.string({ error: "id must be text" }).regex(MODEL_ID, {
      error:
        "id must be 1–200 letters, digits or . _ : - (e.g. openai:gpt-4.1-mini), starting with a letter or digit",
    }),
    ...modelFields,
    apiKind: modelFields.apiKind.default("chat"),
    enabled: modelFields.enabled.default(true),
    prices: modelFields.prices.default(null),
  })
  .strict()
  .superRefine(consistent);

/** Any subset of the fields except the id (personas and attempts refer to it). */
export const updateModelSchema = z
  .object(modelFields)
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { error: "Nothing to change: send at least one field" });
