// The one place a request becomes a model call: real turns stream it, summaries, titles and write-as-me drafts
// generate it whole, previews capture the exact body the provider would receive and stop before anything is sent.

import "server-only";
import { generateText, isStepCount, streamText, type ToolChoice, type ToolSet } from "ai";
import { MAX_TOOL_STEPS } from "@/lib/chat/turn/tools";
import type { ResolvedContext } from "@/lib/context/resolve-for-model";
import { countItemTokens } from "@/lib/context/tokens";
import type { ContextItem, ModelDescriptor } from "@/lib/domain/types";
import { languageModelFor } from "@/lib/providers/language-model";
import { OFFLINE_PROVIDER } from "@/lib/providers/offline-model";
import { type CapturedRequest, recordedUrl } from "@/lib/providers/request-capture";

export function streamModelCall({
  model,
  resolved,
  fetch,
  abortSignal,
  tools,
  toolChoice,
  maxSteps = 1,
  timeout,
}: {
  model: ModelDescriptor;
  resolved: ResolvedContext;
  fetch?: typeof globalThis.fetch;
  abortSignal?: AbortSignal;
  /** The reply's tools, offered only to a model that supports tools. */
  tools?: ToolSet;
  toolChoice?: ToolChoice<ToolSet>;
  /** Model calls the tool loop may make in this attempt. */
  maxSteps?: number;
  /** How long the provider may take to its first chunk, and between chunks. */
  timeout?: { firstChunkMs: number; chunkMs: number };
}) {
  const withTools = tools !== undefined && model.capabilities.tools;
  return streamText({
    model: languageModelFor(model, { fetch }),
    ...resolvedRequestFields(model, resolved),
    maxRetries: 0, // retries are the turn runner's, so each one is a recorded attempt
    onError: () => {}, // the runner records every error on its attempt; the SDK default would print it to stderr
    include: { requestBody: true },
    abortSignal,
    ...(timeout ? { timeout } : {}),
    ...(withTools ? { tools, stopWhen: isStepCount(maxSteps) } : {}),
    ...(withTools && toolChoice !== undefined ? { toolChoice } : {}),
  });
}

/** What a non-streaming call sends: a pipeline's resolved context, or plain instructions and a prompt. */
export type GenerateRequest = { resolved: ResolvedContext } | { instructions: string; prompt: string };

/** A call outside the pipeline: instructions (sent as the system message) and one prompt (the user message). */
export type PlainRequest = Extract<GenerateRequest, { instructions: string }>;

/**
 * The items of a plain request, as an attempt records them so the inspector lists and counts what was sent like a
 * reply's: the instructions as the system item, the prompt as the current input, each with exactly the text sent
 * and its tokens under the model's tokenizer (docs/architecture.md#attempts).
 */
export function plainRequestItems(request: PlainRequest, model: ModelDescriptor): ContextItem[] {
  const item = (id: string, role: "system" | "user", tag: ContextItem["tag"], text: string): ContextItem => {
    const parts: ContextItem["parts"] = [{ type: "text", text }];
    return {
      id,
      role,
      tag,
      parts,
      sourceMessageIds: [],
      tokens: countItemTokens({ parts }, model.tokenizer),
    };
  };
  return [
    item("call:instructions", "system", "SYSTEM_PROMPT", request.instructions),
    item("call:prompt", "user", "CURRENT_INPUT", request.prompt),
  ];
}

/** A call answered whole (no tools, no retries: the attempt loop retries, so each try is a recorded attempt). */
export function generateModelCall({
  model,
  request,
  fetch,
  abortSignal,
}: {
  model: ModelDescriptor;
  request: GenerateRequest;
  fetch?: typeof globalThis.fetch;
  abortSignal?: AbortSignal;
}) {
  const common = {
    model: languageModelFor(model, { fetch }),
    maxRetries: 0,
    include: { requestBody: true },
    abortSignal,
  };
  if (!("resolved" in request)) {
    return generateText({ ...common, instructions: request.instructions, prompt: request.prompt });
  }
  const { resolved } = request;
  return generateText({
    ...common,
    ...resolvedRequestFields(model, resolved),
  });
}

/** What a call sends from a resolved context: instructions, messages, provider options and settings. */
function resolvedRequestFields(model: ModelDescriptor, resolved: ResolvedContext) {
  const { request } = resolved;
  return {
    instructions: request.instructions,
    messages: request.messages,
    providerOptions: providerOptionsFor(model, resolved),
    stopSequences: request.stopSequences,
    maxOutputTokens: request.maxOutputTokens,
    temperature: request.temperature,
    topP: request.topP,
  };
}

/** The resolved provider options; the offline model is also told about the payload, so it can describe it. */
function providerOptionsFor(model: ModelDescriptor, resolved: ResolvedContext) {
  if (model.provider !== "offline") return resolved.request.providerOptions;
  return { ...resolved.request.providerOptions, [OFFLINE_PROVIDER]: offlineDescription(resolved) };
}

/** What the offline model is told about the payload, so it can describe it. */
function offlineDescription(resolved: ResolvedContext) {
  const tagCounts: Record<string, number> = {};
  for (const item of resolved.items) tagCounts[item.tag] = (tagCounts[item.tag] ?? 0) + 1;
  return { tagCounts, estimatedTokens: resolved.budget.totalTokens };
}

/** The offline model has no HTTP: its "request" is the call it received, serialised as JSON. */
export function offlineRequest(modelName: string, body: unknown, startedAt: number): CapturedRequest {
  return {
    url: `offline://${modelName}`,
    method: "CALL",
    body: JSON.stringify(body ?? null),
    status: 200,
    startedAt,
    firstByteMs: 0,
    error: null,
  };
}

class PreviewStop extends Error {}

/**
 * The exact request a real attempt would send, without sending it: the provider package builds the body and
 * hands it to our fetch, which keeps it and stops there. Same code path as a turn, no model called.
 */
export async function previewRequest(
  model: ModelDescriptor,
  resolved: ResolvedContext,
  tools?: ToolSet,
): Promise<CapturedRequest> {
  let captured: CapturedRequest | null = null;
  const stoppingFetch: typeof fetch = async (input, init) => {
    captured = {
      url: recordedUrl(input),
      method: init?.method ?? "POST",
      body: typeof init?.body === "string" ? init.body : "",
      status: null,
      startedAt: Date.now(),
      firstByteMs: null,
      error: null,
    };
    throw new PreviewStop("preview: request captured, not sent");
  };
  if (model.provider === "offline") {
    const result = streamModelCall({ model, resolved, tools, maxSteps: MAX_TOOL_STEPS });
    const controller = new AbortController();
    let body: unknown;
    for await (const part of result.fullStream) {
      if (part.type === "start-step") {
        body = part.request.body;
        controller.abort();
        break;
      }
    }
    return offlineRequest(model.providerModelName, body, Date.now());
  }
  const result = streamModelCall({ model, resolved, fetch: stoppingFetch, tools, maxSteps: MAX_TOOL_STEPS });
  try {
    await result.consumeStream();
  } catch {
    // Expected: the stopping fetch ends the call once the body is captured.
  }
  if (!captured) throw new Error(`preview: ${model.id} did not build a request`);
  return captured;
}
