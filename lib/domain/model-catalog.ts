// The built-in model list that seeds the `models` table. Admins can add and edit rows afterwards; these are
// only inserted when missing, so edits survive restarts.

import type { ModelCapabilities, ModelDescriptor, ModelPrices } from "./types";

export interface CatalogModel extends ModelDescriptor {
  label: string;
  /** Public list prices when the catalogue was written (US dollars per million tokens); admins keep them current. */
  prices: ModelPrices | null;
}

const FREE: ModelPrices = { inputPerMillion: 0, cachedInputPerMillion: 0, outputPerMillion: 0 };

const OPENAI_CHAT: ModelCapabilities = {
  vision: true,
  video: false,
  audio: false,
  documents: true,
  tools: true,
  reasoning: false,
  systemInstruction: true,
  strictAlternation: false,
  maxStopSequences: 4,
};

const GEMINI: ModelCapabilities = {
  vision: true,
  video: true,
  audio: true,
  documents: true,
  tools: true,
  reasoning: true,
  systemInstruction: true,
  strictAlternation: false,
  maxStopSequences: 5,
};

/** Claude through the Messages API: one system block and strictly alternating user and assistant turns. Anthropic
 *  documents no small cap on stop sequences; 16 keeps the request reasonable. */
const CLAUDE: ModelCapabilities = {
  vision: true,
  video: false,
  audio: false,
  documents: true,
  tools: true,
  reasoning: true,
  systemInstruction: true,
  strictAlternation: true,
  maxStopSequences: 16,
};

/** A Claude model through the Messages API: the same window, output cap and capabilities for each. */
function claudeModel(name: string, label: string, prices: ModelPrices): CatalogModel {
  return {
    id: `anthropic:${name}`,
    label,
    provider: "anthropic",
    providerModelName: name,
    apiKind: "chat",
    capabilities: CLAUDE,
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    tokenizer: "estimate",
    prices,
  };
}

export const OFFLINE_MODEL_ID = "offline:echo";

export const MODEL_CATALOG: CatalogModel[] = [
  {
    id: OFFLINE_MODEL_ID,
    label: "Offline model (no network)",
    provider: "offline",
    providerModelName: "echo",
    apiKind: "chat",
    capabilities: { ...OPENAI_CHAT, video: false, documents: false, maxStopSequences: 8 },
    contextWindow: 128_000,
    maxOutputTokens: 1_024,
    tokenizer: "o200k_base",
    prices: FREE,
  },
  {
    id: "openai:gpt-4.1-mini",
    label: "GPT-4.1 mini",
    provider: "openai",
    providerModelName: "gpt-4.1-mini",
    apiKind: "chat",
    capabilities: OPENAI_CHAT,
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    tokenizer: "o200k_base",
    prices: { inputPerMillion: 0.4, cachedInputPerMillion: 0.1, outputPerMillion: 1.6 },
  },
  {
    id: "openai:gpt-4o",
    label: "GPT-4o",
    provider: "openai",
    providerModelName: "gpt-4o",
    apiKind: "chat",
    capabilities: OPENAI_CHAT,
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    tokenizer: "o200k_base",
    prices: { inputPerMillion: 2.5, cachedInputPerMillion: 1.25, outputPerMillion: 10 },
  },
  {
    id: "openai:gpt-5-mini",
    label: "GPT-5 mini (Responses API)",
    provider: "openai",
    providerModelName: "gpt-5-mini",
    apiKind: "responses",
    // The Responses API takes no stop sequences: the SDK drops them with a warning.
    capabilities: { ...OPENAI_CHAT, reasoning: true, maxStopSequences: 0 },
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    tokenizer: "o200k_base",
    prices: { inputPerMillion: 0.25, cachedInputPerMillion: 0.025, outputPerMillion: 2 },
  },
  {
    id: "google:gemini-2.5-flash",
    label: "Gemini 2.5 Flash",
    provider: "google",
    providerModelName: "gemini-2.5-flash",
    apiKind: "chat",
    capabilities: GEMINI,
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    tokenizer: "estimate",
    prices: { inputPerMillion: 0.3, cachedInputPerMillion: 0.075, outputPerMillion: 2.5 },
  },
  // Cache writes (5-minute) at 1.25× input, cache reads at 0.1× input.
  claudeModel("claude-sonnet-4-5", "Claude Sonnet 4.5", {
    inputPerMillion: 3,
    cachedInputPerMillion: 0.3,
    cacheWritePerMillion: 3.75,
    outputPerMillion: 15,
  }),
  claudeModel("claude-haiku-4-5", "Claude Haiku 4.5", {
    inputPerMillion: 1,
    cachedInputPerMillion: 0.1,
    cacheWritePerMillion: 1.25,
    outputPerMillion: 5,
  }),
  {
    id: "google:gemma-3-27b-it",
    label: "Gemma 3 27B (no system instructions)",
    provider: "google",
    providerModelName: "gemma-3-27b-it",
    apiKind: "chat",
    capabilities: {
      ...GEMINI,
      video: false,
      audio: false,
      documents: false,
      reasoning: false,
      tools: false,
      systemInstruction: false,
      strictAlternation: true,
    },
    contextWindow: 131_072,
    maxOutputTokens: 8_192,
    tokenizer: "estimate",
    prices: FREE,
  },
  {
    id: "openai-compatible:local",
    label: "OpenAI-compatible server (OPENAI_COMPATIBLE_BASE_URL)",
    provider: "openai-compatible",
    providerModelName: "local-model",
    apiKind: "chat",
    capabilities: {
      ...OPENAI_CHAT,
      vision: false,
      documents: false,
      tools: false,
      strictAlternation: true,
    },
    contextWindow: 32_768,
    maxOutputTokens: 4_096,
    tokenizer: "estimate",
    prices: null,
  },
];

/** Capabilities assumed for a model named in `OPENAI_COMPATIBLE_MODELS`: nothing is known about it, so assume the
 *  least (no images, no tools, strict alternation as many local chat templates demand); admins can widen them. */
export const COMPATIBLE_DEFAULT_CAPABILITIES: ModelCapabilities = {
  vision: false,
  video: false,
  audio: false,
  documents: false,
  tools: false,
  reasoning: false,
  systemInstruction: true,
  strictAlternation: true,
  maxStopSequences: 4,
};

/** One registry entry per model an OpenAI-compatible server offers, id `openai-compatible:<name>`. */
export function compatibleCatalogModels(names: string[]): CatalogModel[] {
  return names.map((name) => ({
    id: `openai-compatible:${name}`,
    label: `${name} (OpenAI-compatible)`,
    provider: "openai-compatible",
    providerModelName: name,
    apiKind: "chat",
    capabilities: COMPATIBLE_DEFAULT_CAPABILITIES,
    contextWindow: 8_192,
    maxOutputTokens: 2_048,
    tokenizer: "estimate",
    prices: null,
  }));
}
