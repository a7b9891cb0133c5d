// A chat completions request as OpenAI's clients send it, checked and read as a Glassbox turn: the client's system
// text, the earlier messages (the transcript the call continues) and the new part: the results of the last reply's
// tool calls, the new user message, or both (client-tools.ts). Fields that clients send and Glassbox does not use
// are accepted and ignored, as OpenAI does; what cannot be honoured is refused with OpenAI's error naming the field.

import "server-only";
import { z } from "zod";
import { readJson } from "@/lib/api/route";
import type { CallOptions } from "@/lib/domain/types";
import { chatCallOptions } from "./call-options";
import {
  type ClientToolCall,
  type ClientToolOffer,
  clientToolOffer,
  functionToolSchema,
  indexedMessage,
  newPart,
  type ToolName,
  type ToolResultMessage,
  toolCallSchema,
  toolChoiceSchema,
} from "./client-tools";
import { type ContentImage, chatMessageContent } from "./content-parts";
import { GatewayError, invalidField } from "./errors";

/** A request carries a whole history: room for long ones. */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

const contentPart = z.object({ type: z.string() }).loose();

const messageSchema = z
  .object({
    role: z.enum(["system", "developer", "user", "assistant", "tool"], {
      error: "must be one of system, developer, user, assistant, tool",
    }),
    content: z
      .union([z.string(), z.array(contentPart)])
      .nullable()
      .optional(),
    name: z.string().optional(),
    tool_calls: z.array(toolCallSchema, { error: "must be a list of tool calls" }).nullable().optional(),
    tool_call_id: z.string().optional(),
  })
  .loose();

/** A request's `model`, as both APIs name it: a model id. */
export const modelIdField = z
  .string({ error: "must be a model id (GET /v1/models lists them)" })
  .min(1, { error: "must not be empty" });

export const chatCompletionSchema = z
  .object({
    model: modelIdField,
    messages: z
      .array(messageSchema, { error: "must be a list of messages" })
      .min(1, { error: "must not be empty" }),
    stream: z.boolean({ error: "must be true or false" }).nullable().optional(),
    stream_options: z
      .object({ include_usage: z.boolean({ error: "must be true or false" }).optional() })
      .loose()
      .nullable()
      .optional(),
    n: z.literal(1, { error: "only one choice is generated: leave n out or send 1" }).nullable().optional(),
    tools: z.array(functionToolSchema, { error: "must be a list" }).nullable().optional(),
    tool_choice: toolChoiceSchema.optional(),
    response_format: z
      .object({ type: z.literal("text", { error: "only text replies are supported" }) })
      .loose()
      .nullable()
      .optional(),
    logprobs: z.literal(false, { error: "log probabilities are not supported" }).nullable().optional(),
  })
  .loose();

/** A message of the transcript as a client sends it back, reduced to what the stored conversation holds. */
export interface TranscriptMessage {
  role: "user" | "assistant" | "tool";
  text: string;
  /** A user message's images (content-parts.ts). */
  images?: ContentImage[];
  /** An assistant message's tool calls. */
  toolCalls?: ClientToolCall[];
  /** A tool message's call. */
  toolCallId?: string;
}

export interface ChatCall {
  model: string;
  stream: boolean;
  includeUsage: boolean;
  /** The client's system (and developer) messages, joined: kept as the conversation's instructions. */
  systemText: string | null;
  /** The messages before the new ones. */
  history: TranscriptMessage[];
  /** The results of the stored reply's tool calls that the call sends (client-tools.ts). */
  toolResults: ToolResultMessage[];
  /** The new user message's text; null when the call ends with tool results (the model answers them). */
  text: string | null;
  /** The new user message's images. */
  images: ContentImage[];
  /** The call's sampling and length parameters (call-options.ts). */
  options: CallOptions | undefined;
  /** The client's own tools as sent, and as offered to the model. */
  tools: ToolName[];
  toolOffer: ClientToolOffer | undefined;
}

/** OpenAI's way to name a field: `messages[2].content`. */
function paramOf(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === "number" ? `[${key}]` : `${index > 0 ? "." : ""}${String(key)}`))
    .join("");
}

/** The body, checked against `schema`: a 400 names the first field at fault as OpenAI's `param`. */
export async function readGatewayBody<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.infer<Schema>> {
  const raw = await readJson(request, z.unknown(), {
    maxBytes: MAX_REQUEST_BYTES,
    maxElements: 1_000_000,
    maxStringChars: MAX_REQUEST_BYTES,
  });
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new GatewayError(400, `The request body must be a JSON object, not ${kindOf(raw)}.`, {
      code: "invalid_value",
    });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = paramOf(issue.path);
    throw param
      ? invalidField(param, issue.message)
      : new GatewayError(400, `The request body: ${issue.message}`, { code: "invalid_value" });
  }
  return parsed.data;
}

/** A JSON value's kind, as a refusal names it. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

export async function readChatCall(request: Request): Promise<ChatCall> {
  const body = await readGatewayBody(request, chatCompletionSchema);
  const toolOffer = clientToolOffer(body.tools, body.tool_choice);
  const system: string[] = [];
  const conversation: ReturnType<typeof indexedMessage>[] = [];
  body.messages.forEach((message, index) => {
    const where = `messages[${index}]`;
    const { text, images } = chatMessageContent(message.content, where, message.role);
    if (message.role === "system" || message.role === "developer") system.push(text);
    else conversation.push({ ...indexedMessage({ ...message, role: message.role }, text, index), images });
  });
  const { history, toolResults, text, images } = newPart(conversation);
  const systemText = system.join("\n\n").trim();
  return {
    model: body.model,
    stream: body.stream === true,
    includeUsage: body.stream_options?.include_usage === true,
    systemText: systemText || null,
    history,
    toolResults,
    text,
    images,
    options: chatCallOptions(body),
    tools: (body.tools ?? []).map((entry, index) => ({
      name: entry.function.name,
      param: `tools[${index}].function.name`,
    })),
    toolOffer,
  };
}
