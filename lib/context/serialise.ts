// Phase B's serialisation (docs/pipeline.md#serialise): items → the AI SDK 7 call arguments. System items
// become `instructions` (one system block, first: a system message inside `messages` throws in AI SDK 7); the
// rest map to ModelMessages in one pass. The provider package then writes the wire body (captured exactly by the
// caller). Shapes checked against node_modules/ai, @ai-sdk/openai and @ai-sdk/google .d.ts: file parts `{ type:
// "file", mediaType, data }`, tool results in `role: "tool"` messages with `output: { type, value }`, thinking as
// `providerOptions.openai.reasoningEffort` / `providerOptions.google.thinkingConfig.thinkingBudget` /
// `providerOptions.anthropic.thinking`. Prompt caching (docs/pipeline.md#prompt-cache-breakpoints): an item
// marked with a cache breakpoint gives its last message `providerOptions.anthropic.cacheControl` (the system block:
// the instructions as a system message carrying it), and OpenAI gets the conversation as `promptCacheKey`.

import type { AssistantContent, JSONValue, ModelMessage, ToolContent, UserContent } from "ai";
import type { ResolvedSettings } from "@/lib/domain/settings";
import { reservedOutputTokens } from "@/lib/domain/settings";
import type { ContextItem, ItemPart, ModelDescriptor, TraceEvent } from "@/lib/domain/types";
import { withCallOptions } from "./call-options";
import type {
  ItemsWithStops,
  PhaseBContext,
  ProviderOptions,
  SerialisedItems,
  SerialisedRequest,
} from "./phases";
import type { Stage, StageResult } from "./stage";
import { itemsEvent } from "./trace";

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

/** The system text of serialised instructions, whether sent as text or as a system message. */
export function instructionsText(instructions: SerialisedRequest["instructions"]): string | undefined {
  return typeof instructions === "object" ? instructions.content : instructions;
}

/** Anthropic refuses a thinking budget under 1 024 tokens. */
export const ANTHROPIC_MIN_THINKING_BUDGET = 1_024;

/** Thinking options per provider, only when thinking is on and the model can reason. */
export function thinkingProviderOptions(model: ModelDescriptor, settings: ResolvedSettings): ProviderOptions {
  if (!settings.thinking.enabled || !model.capabilities.reasoning) return {};
  switch (model.provider) {
    case "openai":
    case "openai-compatible":
      // OpenAI-compatible servers are called through @ai-sdk/openai, which reads the `openai` key. With an
      // effort, the SDK asks the Responses API for a detailed summary of the reasoning on its own.
      return { openai: { reasoningEffort: reasoningEffortFor(settings.thinking.budgetTokens) } };
    case "google":
      // Thought summaries come back only with includeThoughts; the signatures come back either way.
      return {
        google: { thinkingConfig: { thinkingBudget: settings.thinking.budgetTokens, includeThoughts: true } },
      };
    case "anthropic": {
      const budgetTokens = Math.max(ANTHROPIC_MIN_THINKING_BUDGET, settings.thinking.budgetTokens);
      return { anthropic: { thinking: { type: "enabled", budgetTokens } } };
    }
    case "offline":
      return {};
  }
}

/** What marks a breakpoint on a message for the provider (the SDK writes `cache_control` on its last block). */
const ANTHROPIC_BREAKPOINT: ProviderOptions = { anthropic: { cacheControl: { type: "ephemeral" } } };

/**
 * OpenAI routes requests with the same `prompt_cache_key` to the same cache: one key per conversation keeps its
 * turns together. Not for OpenAI-compatible servers, which may refuse a field they do not know.
 */
export function promptCacheKeyOptions(
  model: ModelDescriptor,
  settings: ResolvedSettings,
  conversationId: string | undefined,
): ProviderOptions {
  if (model.provider !== "openai" || conversationId === undefined || settings.cache.breakpoints === "off")
    return {};
  return { openai: { promptCacheKey: `conversation:${conversationId}` } };
}

/** Provider options merged per provider key (thinking and the cache key both live under `openai`). */
function mergeProviderOptions(...options: ProviderOptions[]): ProviderOptions {
  const merged: ProviderOptions = {};
  for (const option of options)
    for (const [provider, values] of Object.entries(option))
      merged[provider] = { ...merged[provider], ...values };
  return merged;
}

/**
 * Every Responses request is stateless (`store: false`): what is replayed travels in the body (text, calls, and a
 * reasoning model's reasoning as its `encrypted_content`, asked for with `include`), never as a reference to state
 * kept at OpenAI, so the inspector shows all the model got and a replay needs nothing stored elsewhere
 * (docs/features.md#reasoning-and-provider-metadata).
 */
export function statelessProviderOptions(model: ModelDescriptor): ProviderOptions {
  if (model.provider !== "openai" || model.apiKind !== "responses") return {};
  return model.capabilities.reasoning
    ? { openai: { store: false, include: ["reasoning.encrypted_content"] } }
    : { openai: { store: false } };
}

/** A replayed part's provider metadata as the provider options it is sent back with. */
function withProviderOptions<Part extends object>(
  part: Part,
  providerMetadata: Record<string, Record<string, unknown>> | undefined,
): Part {
  return providerMetadata === undefined
    ? part
    : { ...part, providerOptions: providerMetadata as ProviderOptions };
}

export function toolResultOutput(
  output: unknown,
  outputType?: Extract<ItemPart, { type: "tool-result" }>["outputType"],
): ToolResultOutput {
  // A failed tool goes back as the SDK's error output, as the tool loop itself sent it.
  if (outputType === "error-text") return { type: "error-text", value: toolErrorText(output) };
  if (outputType === "error-json") return { type: "error-json", value: (output ?? null) as JSONValue };
  if (typeof output === "string") return { type: "text", value: output };
  if (output === undefined) return { type: "text", value: "" };
  return { type: "json", value: output as JSONValue };
}

function toolErrorText(output: unknown): string {
  return typeof output === "string" ? output : (JSON.stringify(output) ?? "");
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
  return withProviderOptions<ToolPart>(
    {
      type: "tool-result",
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      output: toolResultOutput(part.output, part.outputType),
    },
    part.providerMetadata,
  );
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
    // The provider's tags on its own text, reasoning and calls go back as provider options.
    if (part.type === "text" && part.providerMetadata !== undefined) {
      if (!isBlankText(part.text)) {
        parts.push(withProviderOptions({ type: "text", text: part.text }, part.providerMetadata));
      }
      continue;
    }
    if (part.type === "tool-result" && part.providerExecuted === true) {
      // The provider's own result: inside the assistant message, where the tool loop sent it.
      parts.push(toolResultPart(part) as AssistantPart);
      continue;
    }
    if (pushSharedPart(part, parts, toolParts)) continue;
    if (part.type === "reasoning") {
      // Hidden reasoning (encrypted, or only a signature) has no text and still goes back.
      if (isBlankText(part.text) && part.providerMetadata === undefined) continue;
      parts.push(withProviderOptions({ type: "reasoning", text: part.text }, part.providerMetadata));
    } else if (part.type === "tool-call") {
      parts.push(
        withProviderOptions(
          {
            type: "tool-call",
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: toolInput(part.input),
            ...(part.providerExecuted === true ? { providerExecuted: true } : {}),
          },
          part.providerMetadata,
        ),
      );
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
  conversationId?: string,
): StageResult<SerialisedRequest> {
  const providerRun = withoutUnreplayableProviderTools(items, model);
  const { instructions, messages, skipped, systemBreakpoint } = itemMessages(providerRun.items);
  const events: TraceEvent[] = [];
  if (providerRun.event !== null) events.push(providerRun.event);
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
  const thinkingOptions = thinkingProviderOptions(model, settings);
  if (settings.thinking.enabled) events.push(thinkingEvent(model, settings, thinkingOptions));
  const providerOptions = mergeProviderOptions(
    statelessProviderOptions(model),
    thinkingOptions,
    promptCacheKeyOptions(model, settings, conversationId),
  );
  const systemBlock = instructions.length > 0 ? instructions.join("\n\n") : undefined;

  const reserved = reservedOutputTokens(settings, model.maxOutputTokens);
  return {
    value: {
      instructions:
        systemBlock !== undefined && systemBreakpoint
          ? { role: "system", content: systemBlock, providerOptions: ANTHROPIC_BREAKPOINT }
          : systemBlock,
      messages,
      providerOptions,
      stopSequences: stopSequences.length > 0 ? [...stopSequences] : undefined,
      maxOutputTokens: reserved > 0 ? reserved : undefined,
    },
    trace: events,
  };
}

/** The tool loop's messages of one step: its assistant message and the tool message answering it. */
interface OpenStep {
  step: string;
  assistant: { role: "assistant"; content: AssistantPart[] } | null;
  tool: { role: "tool"; content: ToolPart[] } | null;
}

/**
 * The items as the call's messages: system text gathered for the instructions; every other item its user or
 * assistant message, then a tool message with the tool results it carries. Adjacent items of one tool-loop step
 * share one assistant message and one tool message, as the loop sent them (docs/pipeline.md#serialise). An item
 * with nothing sendable is skipped (no empty message is sent).
 */
function itemMessages(
  items: readonly ContextItem[],
  /** Filled with the item each message starts from (a step's shared message: its first item). */
  sources?: ContextItem[],
): {
  instructions: string[];
  messages: ModelMessage[];
  skipped: string[];
  /** A system item carries a cache breakpoint: the instructions go as a system message marked with it. */
  systemBreakpoint: boolean;
} {
  const instructions: string[] = [];
  const messages: ModelMessage[] = [];
  const skipped: string[] = [];
  let systemBreakpoint = false;
  let open = null as OpenStep | null;
  for (const item of items) {
    if (item.role === "system") {
      const text = systemText(item);
      if (text.length > 0) instructions.push(text);
      else skipped.push(item.id);
      if (item.cacheBreakpoint !== undefined) systemBreakpoint = true;
      open = null;
      continue;
    }
    if (item.step === undefined || open?.step !== item.step) open = null;
    const toolParts: ToolPart[] = [];
    /** The last message this item wrote to, new or shared with its step. */
    let wroteTo: ModelMessage | null = null;
    if (item.role === "user") {
      const content = userParts(item, toolParts);
      if (content.length > 0) {
        wroteTo = { role: "user", content };
        messages.push(wroteTo);
      }
    } else if (item.role === "assistant") {
      const content = assistantParts(item, toolParts);
      if (content.length > 0) {
        // Within a step the model's parts all belong to its one assistant message, even after the SDK's answer to
        // an invalid call (which goes in the step's tool message).
        if (open?.assistant) open.assistant.content.push(...content);
        else {
          const assistant = { role: "assistant" as const, content };
          messages.push(assistant);
          if (item.step !== undefined) open = { step: item.step, assistant, tool: null };
        }
        wroteTo = open?.assistant ?? (messages.at(-1) as ModelMessage);
      }
    } else {
      for (const part of item.parts) if (part.type === "tool-result") toolParts.push(toolResultPart(part));
    }
    if (toolParts.length > 0) {
      if (open?.tool) open.tool.content.push(...toolParts);
      else {
        const tool = { role: "tool" as const, content: toolParts };
        messages.push(tool);
        if (item.step !== undefined) open = { step: item.step, assistant: open?.assistant ?? null, tool };
      }
      wroteTo = open?.tool ?? (messages.at(-1) as ModelMessage);
    }
    if (wroteTo === null) skipped.push(item.id);
    while (sources !== undefined && sources.length < messages.length) sources.push(item);
    // The breakpoint closes the item: it goes on the last message the item wrote to (its tool results, when it
    // has some; the step's shared message, when it joined one).
    if (item.cacheBreakpoint !== undefined && wroteTo !== null)
      wroteTo.providerOptions = ANTHROPIC_BREAKPOINT;
  }
  return { instructions, messages, skipped, systemBreakpoint };
}

/** The item each message of the request starts from, in message order (the messages serialiseRequest sends). */
export function messageSourceItems(items: readonly ContextItem[], model: ModelDescriptor): ContextItem[] {
  const sources: ContextItem[] = [];
  itemMessages(withoutUnreplayableProviderTools(items, model).items, sources);
  return sources;
}

/** Whether a provider-run tool's call or result can go back to this model, and why not when it cannot. */
export function providerRunRefusal(part: { executedBy?: string }, model: ModelDescriptor): string | null {
  if (model.provider === "openai" && model.apiKind === "responses")
    return "a Responses request is stateless (store: false): a provider-run tool's call and result exist only as state kept at OpenAI, which the request does not use";
  if (part.executedBy !== model.provider)
    return `run by ${part.executedBy ?? "an unknown provider"}; only the provider that ran a tool can take its call and result back`;
  if (model.provider !== "anthropic" && model.provider !== "google")
    return `${model.provider} has no form for a provider-run tool's call and result`;
  return null;
}

/**
 * Provider-run tools' calls and results the model cannot take back are left out (and traced), never sent as if
 * the app had run them (docs/features.md#tools).
 */
function withoutUnreplayableProviderTools(
  items: readonly ContextItem[],
  model: ModelDescriptor,
): { items: readonly ContextItem[]; event: TraceEvent | null } {
  let out: ContextItem[] | null = null;
  const droppedCallIds: string[] = [];
  const itemIds: string[] = [];
  const reasons = new Set<string>();
  for (let index = 0; index < items.length; index++) {
    const item = items[index] as ContextItem;
    let kept: ItemPart[] | null = null;
    for (let partIndex = 0; partIndex < item.parts.length; partIndex++) {
      const part = item.parts[partIndex] as ItemPart;
      const refusal =
        (part.type === "tool-call" || part.type === "tool-result") && part.providerExecuted === true
          ? providerRunRefusal(part, model)
          : null;
      if (refusal === null) {
        kept?.push(part);
        continue;
      }
      kept ??= item.parts.slice(0, partIndex);
      reasons.add(refusal);
      if (part.type === "tool-call") droppedCallIds.push(part.toolCallId);
    }
    if (kept === null) {
      out?.push(item);
      continue;
    }
    out ??= items.slice(0, index);
    itemIds.push(item.id);
    out.push({ ...item, parts: kept });
  }
  if (out === null) return { items, event: null };
  return {
    items: out,
    event: {
      stage: "serialise",
      action: "dropped-provider-run-tools",
      reason: `${droppedCallIds.length} provider-run tool call(s) and their results left out: ${[...reasons].join("; ")}`,
      itemIds,
      details: { toolCallIds: droppedCallIds, reasons: [...reasons] },
    },
  };
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
  run({ items, budget, stopSequences }, { model, settings, conversationId, callOptions }) {
    const serialised = serialiseRequest(items, model, settings, stopSequences, conversationId);
    const { value: request, trace } = withCallOptions(serialised, callOptions);
    return { value: { items, budget, request }, trace };
  },
};
