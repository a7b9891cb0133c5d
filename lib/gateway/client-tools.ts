// The tools a client runs itself, as OpenAI's chat completions carry them: `tools` (function tools only) and
// `tool_choice` are offered to the persona's model beside the persona's own tools, without an execute, so a call
// of one ends the reply (finish reason tool-calls) and goes back to the client as `tool_calls`. The client's next
// request carries that assistant message and a `tool` message per result; the results that end the messages are
// the call's new part (stored with the calls, lib/gateway/tool-results.ts), followed or not by a new user message.

import "server-only";
import { jsonSchema, type ToolChoice, type ToolSet, tool } from "ai";
import { z } from "zod";
import type { ContentImage } from "./content-parts";
import { invalidField } from "./errors";

/** OpenAI's limits on a function's name. */
const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** A function tool's `type`: only function tools are taken. */
export const functionToolType = z.literal("function", {
  error: 'only function tools are supported: send type "function"',
});

/** A function's fields, as both APIs carry them (chat completions inside `function`, Responses at the top). */
export const functionFields = {
  name: z
    .string({ error: "must be a string" })
    .regex(FUNCTION_NAME, { error: "must be 1 to 64 letters, digits, underscores or dashes" }),
  description: z.string({ error: "must be a string" }).nullable().optional(),
  parameters: z
    .record(z.string(), z.unknown(), { error: "must be a JSON Schema object" })
    .nullable()
    .optional(),
  strict: z.boolean({ error: "must be true or false" }).nullable().optional(),
};

export const functionToolSchema = z
  .object({ type: functionToolType, function: z.object(functionFields).loose() })
  .loose();

export const toolChoiceSchema = z.union(
  [
    z.enum(["none", "auto", "required"]),
    z
      .object({
        type: z.literal("function"),
        function: z.object({ name: z.string() }).loose(),
      })
      .loose(),
  ],
  { error: 'must be "none", "auto", "required" or {"type": "function", "function": {"name": …}}' },
);

/** A call of the model as the client sends it back in an assistant message's `tool_calls`. */
export const toolCallSchema = z
  .object({
    id: z.string({ error: "must be the call's id" }).min(1, { error: "must not be empty" }),
    type: z.literal("function", { error: 'must be "function"' }).optional(),
    function: z
      .object({
        name: z.string({ error: "must be the function's name" }),
        arguments: z.string({ error: "must be the arguments as a JSON string" }),
      })
      .loose(),
  })
  .loose();

export type FunctionTool = z.infer<typeof functionToolSchema>;

/** A tool call as stored with the reply and as the client sends it back. */
export interface ClientToolCall {
  id: string;
  name: string;
  /** The arguments as a JSON string, exactly as the client got them. */
  arguments: string;
}

/** The client's result of one call: a `tool` message. */
export interface ToolResultMessage {
  toolCallId: string;
  text: string;
  /** Where it was in the request, for a 400 naming it: `messages[3].tool_call_id`. */
  param: string;
}

/** The client's tools, checked, as the turn offers them to the model (none: undefined). */
export interface ClientToolOffer {
  tools: ToolSet;
  toolChoice?: ToolChoice<ToolSet>;
}

/** `tools` and `tool_choice`, checked together: names once each, a named choice among them. */
export function clientToolOffer(
  tools: FunctionTool[] | null | undefined,
  choice: z.infer<typeof toolChoiceSchema> | undefined,
): ClientToolOffer | undefined {
  const list = tools ?? [];
  const seen = new Set<string>();
  list.forEach((entry, index) => {
    if (seen.has(entry.function.name)) {
      throw invalidField(`tools[${index}].function.name`, `${entry.function.name} is named twice.`);
    }
    seen.add(entry.function.name);
  });
  if (choice !== undefined && typeof choice !== "string" && !seen.has(choice.function.name)) {
    throw invalidField(
      "tool_choice.function.name",
      `${choice.function.name} is not one of the request's tools.`,
    );
  }
  if (choice === "required" && list.length === 0) {
    throw invalidField("tool_choice", '"required" needs tools: send some, or leave tool_choice out.');
  }
  return toolOffer(
    list.map((entry) => entry.function),
    typeof choice === "object" ? { name: choice.function.name } : choice,
  );
}

/** A function as both APIs describe it (chat completions inside `function`, Responses at the top). */
export interface FunctionDefinition {
  name: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
}

/** Checked functions and choice, as the turn offers them: without an execute. */
export function toolOffer(
  functions: FunctionDefinition[],
  choice: "none" | "auto" | "required" | { name: string } | undefined,
): ClientToolOffer | undefined {
  if (functions.length === 0) return undefined;
  const offered: ToolSet = Object.fromEntries(
    functions.map((entry) => [
      entry.name,
      tool({
        ...(entry.description ? { description: entry.description } : {}),
        inputSchema: jsonSchema(entry.parameters ?? { type: "object", properties: {} }),
        ...(typeof entry.strict === "boolean" ? { strict: entry.strict } : {}),
      }),
    ]),
  );
  if (choice === undefined) return { tools: offered };
  const toolChoice: ToolChoice<ToolSet> =
    typeof choice === "string" ? choice : { type: "tool", toolName: choice.name };
  return { tools: offered, toolChoice };
}

/** A client tool named like one of the persona's own tools would hide it: refused. */
export function refuseShadowedTools(tools: ToolName[], personaTools: readonly string[]) {
  for (const { name, param } of tools) {
    if (personaTools.includes(name)) {
      throw invalidField(param, `${name} is one of the persona's own tools; name yours differently.`);
    }
  }
}

/** A client tool's name and the field that gives it (`tools[1].function.name`). */
export interface ToolName {
  name: string;
  param: string;
}

/** A message of the conversation (not system) as the call reads it, with where it was. */
export interface IndexedMessage {
  role: "user" | "assistant" | "tool";
  text: string;
  index: number;
  /** A user message's images (content-parts.ts). */
  images?: ContentImage[];
  toolCalls?: ClientToolCall[];
  toolCallId?: string;
}

/** One non-system message: an assistant's calls, a tool message's call id (required). */
export function indexedMessage(
  message: {
    role: "user" | "assistant" | "tool";
    tool_calls?: z.infer<typeof toolCallSchema>[] | null;
    tool_call_id?: string;
  },
  text: string,
  index: number,
): IndexedMessage {
  if (message.role === "tool") {
    if (!message.tool_call_id) {
      throw invalidField(`messages[${index}].tool_call_id`, "a tool message must name the call it answers.");
    }
    return { role: "tool", text, index, toolCallId: message.tool_call_id };
  }
  const calls = message.role === "assistant" ? (message.tool_calls ?? []) : [];
  if (message.role === "user" && message.tool_calls && message.tool_calls.length > 0) {
    throw invalidField(`messages[${index}].tool_calls`, "only an assistant message has tool calls.");
  }
  return calls.length === 0
    ? { role: message.role, text, index }
    : {
        role: message.role,
        text,
        index,
        toolCalls: calls.map((call) => ({
          id: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
        })),
      };
}

/**
 * The call's new part: a last user message, and the tool results just before it (or ending the messages); the
 * messages before them are the transcript the call continues. A tool message answers a call of the assistant
 * message before it; one with no assistant message before it answers the stored reply's (checked when stored).
 */
/** How a request names its messages and a result's call id: chat completions' by default. */
export interface MessageNaming {
  list: string;
  callId: string;
}

const CHAT_NAMING: MessageNaming = { list: "messages", callId: "tool_call_id" };

export function newPart(conversation: IndexedMessage[], naming: MessageNaming = CHAT_NAMING) {
  const at = (index: number, field: string) => `${naming.list}[${index}].${field}`;
  let callsBefore: Set<string> | null = null;
  for (const message of conversation) {
    if (message.role === "assistant") callsBefore = new Set(message.toolCalls?.map((call) => call.id));
    else if (message.role === "tool" && callsBefore && !callsBefore.has(message.toolCallId as string)) {
      throw invalidField(
        at(message.index, naming.callId),
        `${JSON.stringify(message.toolCallId)} answers no tool call of the assistant message before it.`,
      );
    }
  }
  const history = [...conversation];
  let text: string | null = null;
  let images: ContentImage[] = [];
  const last = history.at(-1);
  if (last?.role === "user") {
    history.pop();
    if (!last.text.trim() && !last.images?.length) throw invalidField(at(last.index, "content"), "is empty.");
    text = last.text;
    images = last.images ?? [];
  }
  const toolResults: ToolResultMessage[] = [];
  while (history.at(-1)?.role === "tool") {
    const result = history.pop() as IndexedMessage;
    toolResults.unshift({
      toolCallId: result.toolCallId as string,
      text: result.text,
      param: at(result.index, naming.callId),
    });
  }
  const answered = history.at(-1);
  if (toolResults.length > 0 && answered?.role === "assistant") {
    const missing = answered.toolCalls?.find(
      (call) => !toolResults.some((result) => result.toolCallId === call.id),
    );
    if (missing) {
      throw invalidField(
        naming.list,
        `the tool call ${JSON.stringify(missing.id)} has no result: send one for each call of the assistant message.`,
      );
    }
  }
  if (text === null && toolResults.length === 0) {
    throw invalidField(
      naming.list,
      "the last message (after any system message) must be the user's, or the results of the tool calls.",
    );
  }
  return { history, toolResults, text, images };
}
