// Phase B's serialisation (docs/architecture.md#serialise): items → the AI SDK 7 call arguments. System items
// become `instructions` (one system block, first: a system message inside `messages` throws in AI SDK 7); the
// rest map to ModelMessages in one pass. The provider package then writes the wire body (captured exactly by the
// caller). Shapes checked against node_modules/ai, @ai-sdk/openai and @ai-sdk/google .d.ts: file parts `{ type:
// "file", mediaType, data }`, tool results in `role: "tool"` messages with `output: { type, value }`, thinking as
// `providerOptions.openai.reasoningEffort` / `providerOptions.google.thinkingConfig.thinkingBudget`.

import type { AssistantContent, JSONValue, ModelMessage, ToolContent, UserContent } from "ai";
import type { ItemsWithStops, PhaseBContext, SerialisedItems } from "./phases";
import type { ResolvedSettings } from "./settings";
import { reservedOutputTokens } from "./settings";
import type { Stage, StageResult } from "./stage";
import { itemsEvent } from "./trace";
import type { ContextItem, ItemPart, ModelDescriptor, TraceEvent } from "./types";

/** AI SDK's provider options shape (`SharedV4ProviderOptions`), which `ai` does not re-export. */
export type ProviderOptions = Record<string, Record<string, JSONValue>>;

export interface SerialisedRequest {
  instructions: string | undefined;
  messages: ModelMessage[];
  providerOptions: ProviderOptions;
  stopSequences: string[] | undefined;
  maxOutputTokens: number | undefined;
}

type UserPart = Exclude<UserContent, string>[number];
type AssistantPart = Exclude<AssistantContent, string>[number];
type ToolPart = ToolContent[number];
type ToolResultOutput = Extract<ToolPart, { type: "tool-result" }>["output"];

export type ReasoningEffort = "low" | "medium" | "high";

/** OpenAI has effort levels, not budgets: map the configured budget onto them. */
export function reasoningEffortFor(budgetTokens: number): ReasoningEffort {
  if (budgetTokens <= 2_048) return "low";
  if (budgetTokens <= 8_192) return "medium";
  return "high";
}

/** Thinking options per provider, only when thinking is on and the model can reason. */
export function thinkingProviderOptions(model: ModelDescriptor, settings: ResolvedSettings): ProviderOptions {
  if (!settings.thinking.enabled || !model.capabilities.reasoning) return {};
  switch (model.provider) {
    case "openai":
    case "openai-compatible":
      // OpenAI-compatible servers are called through @ai-sdk/openai, which reads the `openai` key.
      return { openai: { reasoningEffort: reasoningEffortFor(settings.thinking.budgetTokens) } };
    case "google":
      return { google: { thinkingConfig: { thinkingBudget: settings.thinking.budgetTokens } } };
    case "offline":
      return {};
  }
}

export function toolResultOutput(output: unknown): ToolResultOutput {
  if (typeof output === "string") return { type: "text", value: output };
  if (output === undefined) return { type: "text", value: "" };
  return { type: "json", value: output as JSONValue };
}

/** Stored arguments may be a JSON string; providers want the object (Gemini's `args` must be one). */
function toolInput(input: unknown): unknown {
  if (typeof input !== "string") return input ?? {};
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

const NON_BLANK = /\S/;

function isBlankText(text: string): boolean {
  return !NON_BLANK.test(text);
}

function filePart(part: Extract<ItemPart, { type: "image" | "video" | "audio" | "file" }>): {
  type: "file";
  mediaType: string;
  data: string;
  filename?: string;
} {
  const sent = { type: "file" as const, mediaType: part.mediaType, data: part.url };
  return part.filename ? { ...sent, filename: part.filename } : sent;
}

function toolResultPart(part: Extract<ItemPart, { type: "tool-result" }>): ToolPart {
  return {
    type: "tool-result",
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    output: toolResultOutput(part.output),
  };
}

/** The parts both sides send the same way. */
type SharedPart = { type: "text"; text: string } | ReturnType<typeof filePart>;

/**
 * Text, media and tool results go out the same way from either side (tool results into the tool message that
 * follows); false for the parts only one side sends.
 */
function pushSharedPart(
  part: ItemPart,
  parts: { push(part: SharedPart): number },
  toolParts: ToolPart[],
): boolean {
  switch (part.type) {
    case "text":
      if (!isBlankText(part.text)) parts.push({ type: "text", text: part.text });
      return true;
    case "image":
    case "video":
    case "audio":
    case "file":
      parts.push(filePart(part));
      return true;
    case "tool-result":
      toolParts.push(toolResultPart(part));
      return true;
    default:
      return false;
  }
}

function userParts(item: ContextItem, toolParts: ToolPart[]): UserPart[] {
  const parts: UserPart[] = [];
  // Reasoning and tool calls are the model's own; unresolved media placeholders cannot be sent.
  for (const part of item.parts) pushSharedPart(part, parts, toolParts);
  return parts;
}

function assistantParts(item: ContextItem, toolParts: ToolPart[]): AssistantPart[] {
  const parts: AssistantPart[] = [];
  for (const part of item.parts) {
    if (pushSharedPart(part, parts, toolParts)) continue;
    if (part.type === "reasoning") {
      if (isBlankText(part.text)) continue;
      parts.push(
        part.providerMetadata
          ? { type: "reasoning", text: part.text, providerOptions: part.providerMetadata as ProviderOptions }
          : { type: "reasoning", text: part.text },
      );
    } else if (part.type === "tool-call") {
      parts.push({
        type: "tool-call",
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: toolInput(part.input),
      });
    }
  }
  return parts;
}

function systemText(item: ContextItem): string {
  const texts: string[] = [];
  for (const part of item.parts) if (part.type === "text" && !isBlankText(part.text)) texts.push(part.text);
  return texts.join("\n");
}

export function serialiseRequest(
  items: readonly ContextItem[],
  model: ModelDescriptor,
  settings: ResolvedSettings,
  stopSequences: readonly string[] = [],
): StageResult<SerialisedRequest> {
  const { instructions, messages, skipped } = itemMessages(items);
  const events: TraceEvent[] = [];
  if (skipped.length > 0) {
    events.push(
      itemsEvent(
        "serialise",
        "skipped-empty-items",
        `${skipped.length} item(s) had nothing sendable and were left out (no empty message is sent)`,
        skipped,
      ),
    );
  }
  const providerOptions = thinkingProviderOptions(model, settings);
  if (settings.thinking.enabled) events.push(thinkingEvent(model, settings, providerOptions));

  const reserved = reservedOutputTokens(settings, model.maxOutputTokens);
  return {
    value: {
      instructions: instructions.length > 0 ? instructions.join("\n\n") : undefined,
      messages,
      providerOptions,
      stopSequences: stopSequences.length > 0 ? [...stopSequences] : undefined,
      maxOutputTokens: reserved > 0 ? reserved : undefined,
    },
    trace: events,
  };
}

/**
 * The items as the call's messages: system text gathered for the instructions; every other item its user or
 * assistant message, then a tool message with the tool results it carries. An item with nothing sendable is
 * skipped (no empty message is sent).
 */
function itemMessages(items: readonly ContextItem[]): {
  instructions: string[];
  messages: ModelMessage[];
  skipped: string[];
} {
  const instructions: string[] = [];
  const messages: ModelMessage[] = [];
  const skipped: string[] = [];
  for (const item of items) {
    if (item.role === "system") {
      const text = systemText(item);
      if (text.length > 0) instructions.push(text);
      else skipped.push(item.id);
      continue;
    }
    const toolParts: ToolPart[] = [];
    let emitted = false;
    if (item.role === "user") {
      const content = userParts(item, toolParts);
      if (content.length > 0) {
        messages.push({ role: "user", content });
        emitted = true;
      }
    } else if (item.role === "assistant") {
      const content = assistantParts(item, toolParts);
      if (content.length > 0) {
        messages.push({ role: "assistant", content });
        emitted = true;
      }
    } else {
      for (const part of item.parts) if (part.type === "tool-result") toolParts.push(toolResultPart(part));
    }
    if (toolParts.length > 0) {
      messages.push({ role: "tool", content: toolParts });
      emitted = true;
    }
    if (!emitted) skipped.push(item.id);
  }
  return { instructions, messages, skipped };
}

/** With thinking on: whether this model gets thinking options, and which. */
function thinkingEvent(
  model: ModelDescriptor,
  settings: ResolvedSettings,
  providerOptions: SerialisedRequest["providerOptions"],
): TraceEvent {
  return model.capabilities.reasoning && Object.keys(providerOptions).length > 0
    ? {
        stage: "serialise",
        action: "thinking-enabled",
        reason: `thinking on for ${model.id} (budget ${settings.thinking.budgetTokens} tokens)`,
        details: { providerOptions },
      }
    : {
        stage: "serialise",
        action: "thinking-not-sent",
        reason: `thinking.enabled is on but ${model.id} does not reason; no thinking options sent`,
      };
}

/** Phase B: the items become the AI SDK call's arguments. */
export const serialiseStage: Stage<ItemsWithStops, SerialisedItems, PhaseBContext> = {
  name: "serialise",
  run({ items, budget, stopSequences }, { model, settings }) {
    const { value: request, trace } = serialiseRequest(items, model, settings, stopSequences);
    return { value: { items, budget, request }, trace };
  },
};
