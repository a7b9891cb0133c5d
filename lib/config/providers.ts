// Which providers are configured, read from the environment. Keys are never stored or returned.

import "server-only";
import { env, type ServerEnvironment } from "./env";

export interface ProviderConfig {
  openai: { apiKey: string; baseURL?: string } | null;
  google: { apiKey: string; baseURL?: string } | null;
  anthropic: { apiKey: string; baseURL?: string } | null;
  openaiCompatible: { baseURL: string; apiKey?: string; models: string[] } | null;
}

export function configuredProviders(environment: ServerEnvironment = env()): ProviderConfig {
  return {
    openai: environment.OPENAI_API_KEY
      ? { apiKey: environment.OPENAI_API_KEY, baseURL: environment.OPENAI_BASE_URL }
      : null,
    google: environment.GOOGLE_GENERATIVE_AI_API_KEY
      ? { apiKey: environment.GOOGLE_GENERATIVE_AI_API_KEY, baseURL: environment.GOOGLE_BASE_URL }
      : null,
    anthropic: environment.ANTHROPIC_API_KEY
      ? { apiKey: environment.ANTHROPIC_API_KEY, baseURL: environment.ANTHROPIC_BASE_URL }
      : null,
    openaiCompatible: environment.OPENAI_COMPATIBLE_BASE_URL
      ? {
          baseURL: environment.OPENAI_COMPATIBLE_BASE_URL,
          apiKey: environment.OPENAI_COMPATIBLE_API_KEY,
          models: environment.OPENAI_COMPATIBLE_MODELS,
        }
      : null,
  };
}
