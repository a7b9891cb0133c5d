// Provider adapters: a model row → an AI SDK language model, with the capturing fetch plugged in. Keys and base
// URLs come from the environment (lib/config/providers.ts); a model whose provider is not configured is refused.

import "server-only";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogle } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { configuredProviders } from "@/lib/config/providers";
import { AppError } from "@/lib/domain/errors";
import type { ModelDescriptor } from "@/lib/domain/types";
import { createOfflineModel } from "./offline-model";

export function isProviderConfigured(provider: ModelDescriptor["provider"]): boolean {
  const providers = configuredProviders();
  switch (provider) {
    case "offline":
      return true;
    case "openai":
      return providers.openai !== null;
    case "google":
      return providers.google !== null;
    case "anthropic":
      return providers.anthropic !== null;
    case "openai-compatible":
      return providers.openaiCompatible !== null;
  }
}

export function languageModelFor(
  model: ModelDescriptor,
  { fetch }: { fetch?: typeof globalThis.fetch } = {},
): LanguageModelV4 {
  const providers = configuredProviders();
  switch (model.provider) {
    case "offline":
      return createOfflineModel(model.providerModelName);
    case "openai": {
      const openai = createOpenAI(connection(model, providers.openai, "OPENAI_API_KEY", fetch));
      return model.apiKind === "responses"
        ? openai.responses(model.providerModelName)
        : openai.chat(model.providerModelName);
    }
    case "openai-compatible": {
      const settings = connection(model, providers.openaiCompatible, "OPENAI_COMPATIBLE_BASE_URL", fetch);
      const compatible = createOpenAI({
        name: "openai-compatible",
        ...settings,
        apiKey: settings.apiKey ?? "not-needed",
      });
      return compatible.chat(model.providerModelName);
    }
    case "google": {
      const google = createGoogle(connection(model, providers.google, "GOOGLE_GENERATIVE_AI_API_KEY", fetch));
      return google(model.providerModelName);
    }
    case "anthropic": {
      const anthropic = createAnthropic(connection(model, providers.anthropic, "ANTHROPIC_API_KEY", fetch));
      return anthropic(model.providerModelName);
    }
  }
}

/** A configured provider's key and base URL with the capturing fetch; without `variable` set, the model is refused. */
function connection(
  model: ModelDescriptor,
  provider: { apiKey?: string; baseURL?: string } | null,
  variable: string,
  fetch: typeof globalThis.fetch | undefined,
) {
  if (!provider) throw unconfigured(model, variable);
  return { apiKey: provider.apiKey, baseURL: provider.baseURL, fetch };
}

function unconfigured(model: ModelDescriptor, variable: string): AppError {
  return new AppError(
    "model_unavailable",
    `Model ${model.id} needs ${variable}, which is not set on the server.`,
  );
}
