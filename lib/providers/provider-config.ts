// Which providers are configured, read from the environment. Keys are never stored or returned.

export interface ProviderConfig {
  openai: { apiKey: string; baseURL?: string } | null;
  google: { apiKey: string; baseURL?: string } | null;
  openaiCompatible: { baseURL: string; apiKey?: string; models: string[] } | null;
}

export function configuredProviders(env: NodeJS.ProcessEnv = process.env): ProviderConfig {
  return {
    openai: env.OPENAI_API_KEY
      ? { apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL || undefined }
      : null,
    google: env.GOOGLE_GENERATIVE_AI_API_KEY
      ? { apiKey: env.GOOGLE_GENERATIVE_AI_API_KEY, baseURL: env.GOOGLE_BASE_URL || undefined }
      : null,
    openaiCompatible: env.OPENAI_COMPATIBLE_BASE_URL
      ? {
          baseURL: env.OPENAI_COMPATIBLE_BASE_URL,
          apiKey: env.OPENAI_COMPATIBLE_API_KEY || undefined,
          models: compatibleModelNames(env),
        }
      : null,
  };
}

/** `OPENAI_COMPATIBLE_MODELS`: comma-separated model names as the server knows them, trimmed, de-duplicated. */
export function compatibleModelNames(env: NodeJS.ProcessEnv = process.env): string[] {
  const names = (env.OPENAI_COMPATIBLE_MODELS ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return [...new Set(names)];
}
