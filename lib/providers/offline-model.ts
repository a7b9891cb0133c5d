// The offline model: the default when no provider key is set, and a model a persona may choose beside real ones
// (its first line says which of the two it is, so it never claims there are no keys when there are). It streams, word by word, a short
// deterministic reply that describes what it received, so a first-time user sees the whole app work without a
// network. The turn runner passes the item tags it sent through providerOptions.offline.

import "server-only";
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { env } from "@/lib/config/env";
import { configuredProviders } from "@/lib/config/providers";

export const OFFLINE_PROVIDER = "offline";

export interface OfflineProviderOptions {
  /** How many items of each tag the payload has, in payload order of first appearance. */
  tagCounts?: Record<string, number>;
  /** The pipeline's token estimate for the payload. */
  estimatedTokens?: number;
}

const QUOTE_LIMIT = 160;

export function describePrompt(options: LanguageModelV4CallOptions): string {
  const offline = (options.providerOptions?.[OFFLINE_PROVIDER] ?? {}) as OfflineProviderOptions;
  const messageCount = options.prompt.length;
  const lastUserText = findLastUserText(options);
  const quoted = lastUserText.length > QUOTE_LIMIT ? `${lastUserText.slice(0, QUOTE_LIMIT)}…` : lastUserText;
  const tagSummary = Object.entries(offline.tagCounts ?? {})
    .map(([tag, count]) => `${count} ${tag}`)
    .join(", ");
  const lines = [
    `Offline model here: ${offlineReason()}, so I describe what I received instead of answering.`,
    `I got ${messageCount} message${messageCount === 1 ? "" : "s"}${tagSummary ? ` built from ${tagSummary}` : ""}` +
      `${offline.estimatedTokens !== undefined ? `, about ${offline.estimatedTokens} tokens` : ""}.`,
    `Your last message: "${quoted}"`,
  ];
  return lines.join("\n");
}

/** Why the offline model answers: no provider is configured, or one is and this conversation chose it. */
function offlineReason(): string {
  const anyConfigured = Object.values(configuredProviders()).some((provider) => provider !== null);
  return anyConfigured ? "this conversation uses the offline model" : "no provider key is configured";
}

function findLastUserText(options: LanguageModelV4CallOptions): string {
  for (let index = options.prompt.length - 1; index >= 0; index--) {
    const message = options.prompt[index];
    if (message.role !== "user") continue;
    const text = message.content
      .filter((part) => part.type === "text")
      .map((part) => part.text)
      .join(" ")
      .trim();
    if (text) return text;
  }
  return "";
}

function usageFor(inputText: string, outputText: string): LanguageModelV4Usage {
  const inputTokens = Math.ceil(inputText.length / 4);
  const outputTokens = Math.ceil(outputText.length / 4);
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
  };
}

/** Wait `ms`, or fail as soon as the signal aborts; the listener goes with the wait (one a word would pile up). */
function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }, ms);
    function aborted() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", aborted, { once: true });
  });
}

export function createOfflineModel(modelId = "offline"): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: OFFLINE_PROVIDER,
    modelId,
    supportedUrls: {},
    async doGenerate(options) {
      const text = describePrompt(options);
      return {
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: usageFor(JSON.stringify(options.prompt), text),
        warnings: [],
        request: { body: { prompt: options.prompt } },
      };
    },
    async doStream(options) {
      const text = describePrompt(options);
      const words = text.split(/(?<=\s)/);
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          controller.enqueue({ type: "text-start", id: "offline-text" });
          try {
            for (const word of words) {
              await delay(env().OFFLINE_MODEL_WORD_DELAY_MS, options.abortSignal);
              controller.enqueue({ type: "text-delta", id: "offline-text", delta: word });
            }
          } catch {
            controller.close();
            return;
          }
          controller.enqueue({ type: "text-end", id: "offline-text" });
          controller.enqueue({
            type: "finish",
            finishReason: { unified: "stop", raw: "stop" },
            usage: usageFor(JSON.stringify(options.prompt), text),
          });
          controller.close();
        },
      });
      return { stream, request: { body: { prompt: options.prompt } } };
    },
  };
}
