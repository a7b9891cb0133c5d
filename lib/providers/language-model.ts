// Provider adapters: a model row → an AI SDK language model, with the capturing fetch plugged in. Keys and base
// URLs come from the environment (provider-config.ts); a model whose provider is not configured is refused.

import "server-only";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogle } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { ModelDescriptor } from "@/lib/context/types";
import { AppError } from "@/lib/errors";
import { createOfflineModel } from "./offline-model";
import { configuredProviders } from "./provider-config";

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
      if (!providers.openai) throw unconfigured(model, "OPENAI_API_KEY");
      const openai = createOpenAI({
        apiKey: providers.openai.apiKey,
        baseURL: providers.openai.baseURL,
        fetch,
      });
      return model.apiKind === "responses"
        ? openai.responses(model.providerModelName)
        : openai.chat(model.providerModelName);
    }
    case "openai-compatible": {
      if (!providers.openaiCompatible) throw unconfigured(model, "OPENAI_COMPATIBLE_BASE_URL");
      const compatible = createOpenAI({
        name: "openai-compatible",
        apiKey: providers.openaiCompatible.apiKey ?? "not-needed",
        baseURL: providers.openaiCompatible.baseURL,
        fetch,
      });
      return compatible.chat(model.providerModelName);
    }
    case "google": {
      if (!providers.google) throw unconfigured(model, "GOOGLE_GENERATIVE_AI_API_KEY");
      const google = createGoogle({
        apiKey: providers.google.apiKey,
        baseURL: providers.google.baseURL,
        fetch,
      });
      return google(model.providerModelName);
    }
    case "anthropic": {
      if (!providers.anthropic) throw unconfigured(model, "ANTHROPIC_API_KEY");
      const anthropic = createAnthropic({
        apiKey: providers.anthropic.apiKey,
        baseURL: providers.anthropic.baseURL,
        fetch,
      });
      return anthropic(model.providerModelName);
    }
  }
}

function unconfigured(model: ModelDescriptor, variable: string): AppError {
  return new AppError(
    "model_unavailable",
    `Model ${model.id} needs ${variable}, which is not set on the server.`,
  );
}
