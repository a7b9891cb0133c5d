// POST /v1/responses: OpenAI's Responses API over the same turn as chat completions (chat-completions.ts,
// startCallTurn). `instructions` and the input's system messages become the conversation's instructions;
// `previous_response_id` continues the conversation of that response (a response's id is its reply's); with
// `stream`, typed events from response.created to response.completed (or response.failed). Function tools, their
// calls and the client's outputs are read and written by response-tools.ts; a reply's calls are `function_call`
// output items after its message.

import "server-only";
import { z } from "zod";
import { conversationOfMessage } from "@/db/api-key-queries";
import type { Database } from "@/db/client";
import { isUuid } from "@/lib/ids";
import { responsesCallOptions } from "./call-options";
import {
  eventStream,
  type ReadCall,
  type Remember,
  readCallPersona,
  startCallTurn,
  wholeReply,
} from "./chat-completions";
import { type ChatCall, modelIdField, readGatewayBody } from "./chat-request";
import { type ClientToolCall, type IndexedMessage, newPart } from "./client-tools";
import { responsesItemContent } from "./content-parts";
import { CONVERSATION_HEADER } from "./conversations";
import { GatewayError, invalidField } from "./errors";
import {
  addToolItem,
  functionCallItemOf,
  isToolItem,
  responsesToolChoiceSchema,
  responsesToolOffer,
  responsesToolSchema,
} from "./response-tools";
import type { GatewayCall } from "./route";
import type { GatewayReply, ReplyEnd } from "./turn";

const part = z.object({ type: z.string() }).loose();
const inputItem = z
  .object({
    type: z.string().optional(),
    role: z.string().optional(),
    content: z.union([z.string(), z.array(part)]).optional(),
  })
  .loose();

export const responsesSchema = z
  .object({
    model: modelIdField,
    input: z.union([z.string(), z.array(inputItem)], { error: "must be text or a list of messages" }),
    instructions: z.string({ error: "must be text" }).nullable().optional(),
    previous_response_id: z.string({ error: "must be a response id" }).nullable().optional(),
    stream: z.boolean({ error: "must be true or false" }).nullable().optional(),
    tools: z.array(responsesToolSchema, { error: "must be a list" }).nullable().optional(),
    tool_choice: responsesToolChoiceSchema.optional(),
  })
  .loose();

type ResponsesBody = z.infer<typeof responsesSchema>;

const RESPONSE_ID_PREFIX = "resp_";

/** A Responses call as read before its key is checked: its body too, which the answer's shape is made from. */
type ReadResponsesCall = ReadCall & { body: ResponsesBody };

/** The body, the call it asks for and its persona's lookup (lib/gateway/route.ts runs this while the key is checked). */
export async function readResponsesCall(request: Request, db: Database): Promise<ReadResponsesCall> {
  const body = await readGatewayBody(request, responsesSchema);
  const conversationNamed = Boolean(body.previous_response_id) || request.headers.has(CONVERSATION_HEADER);
  return { body, ...readCallPersona(db, chatCallOf(body), request, { conversationNamed }) };
}

export async function responses(gatewayCall: GatewayCall, read: ReadResponsesCall): Promise<Response> {
  const { body } = read;
  const previousConversation = body.previous_response_id
    ? await conversationOfResponse(gatewayCall, body.previous_response_id)
    : null;
  const { reply, headers, remember } = await startCallTurn(gatewayCall, read, {
    conversationHeader: previousConversation ?? gatewayCall.request.headers.get(CONVERSATION_HEADER),
  });
  const shell = responseShell(body, reply);
  if (body.stream) return eventStream(responseEvents(reply, shell, remember), headers);
  const { end, text, toolCalls } = await wholeReply(reply, headers, remember);
  return Response.json(completed(shell, end, text, toolCalls), { headers });
}

/** The request as the turn reads it: instructions and system messages, the earlier messages, the new one. */
function chatCallOf(body: ResponsesBody): ChatCall {
  const { offer, names } = responsesToolOffer(body.tools, body.tool_choice);
  const system = body.instructions ? [body.instructions] : [];
  const conversation: IndexedMessage[] = [];
  if (typeof body.input === "string" && !body.input.trim()) throw invalidField("input", "is empty.");
  const items = typeof body.input === "string" ? [{ role: "user", content: body.input }] : body.input;
  items.forEach((item, index) => {
    const where = `input[${index}]`;
    if (isToolItem(item)) {
      addToolItem(conversation, item, index);
      return;
    }
    if (item.type !== undefined && item.type !== "message") {
      throw invalidField(
        `${where}.type`,
        `items of type ${JSON.stringify(item.type)} are not supported yet.`,
      );
    }
    const { role } = item;
    if (role !== "user" && role !== "assistant" && role !== "system" && role !== "developer") {
      throw invalidField(`${where}.role`, "must be one of user, assistant, system, developer");
    }
    const { text, images } = responsesItemContent(item.content, where, role);
    if (role === "system" || role === "developer") system.push(text);
    else conversation.push({ role, text, index, images });
  });
  const { history, toolResults, text, images } = newPart(conversation, { list: "input", callId: "call_id" });
  if (body.previous_response_id && history.length > 0) {
    throw invalidField(
      "input",
      "with previous_response_id, send only the new items: tool outputs, a user message.",
    );
  }
  const systemText = system.join("\n\n").trim();
  return {
    model: body.model,
    stream: body.stream === true,
    includeUsage: true,
    systemText: systemText || null,
    history,
    toolResults,
    text,
    images,
    options: responsesCallOptions(body),
    tools: names,
    toolOffer: offer,
  };
}

/** The conversation a previous response belongs to, when it is one of the caller's. */
async function conversationOfResponse({ db }: GatewayCall, responseId: string) {
  const messageId = responseId.startsWith(RESPONSE_ID_PREFIX)
    ? responseId.slice(RESPONSE_ID_PREFIX.length)
    : "";
  const conversationId = isUuid(messageId) ? await conversationOfMessage({ db, messageId }) : null;
  if (!conversationId) {
    throw new GatewayError(400, `Previous response with id '${responseId}' not found.`, {
      param: "previous_response_id",
      code: "previous_response_not_found",
    });
  }
  // Whose it is, and whether its persona is the model asked for, is checked as for the conversation header.
  return conversationId;
}

interface ResponseShell {
  id: string;
  itemId: string;
  created_at: number;
  model: string;
  instructions: string | null;
  previous_response_id: string | null;
  /** The request's tools and tool choice, echoed as OpenAI's responses do. */
  tools: unknown[];
  tool_choice: unknown;
}

function responseShell(body: ResponsesBody, reply: GatewayReply): ResponseShell {
  return {
    id: `${RESPONSE_ID_PREFIX}${reply.messageId}`,
    itemId: `msg_${reply.messageId}`,
    created_at: Math.floor(Date.now() / 1000),
    model: body.model,
    instructions: body.instructions ?? null,
    previous_response_id: body.previous_response_id ?? null,
    tools: body.tools ?? [],
    tool_choice: body.tool_choice ?? "auto",
  };
}

function responseObject(
  shell: ResponseShell,
  status: "in_progress" | "completed" | "failed",
  fields: { output?: unknown[]; usage?: unknown; error?: unknown } = {},
) {
  const { itemId: _itemId, ...visible } = shell;
  return {
    ...visible,
    object: "response",
    status,
    error: fields.error ?? null,
    incomplete_details: null,
    output: fields.output ?? [],
    parallel_tool_calls: false,
    usage: fields.usage ?? null,
    metadata: {},
  };
}

function messageItem(shell: ResponseShell, text: string, status: "in_progress" | "completed") {
  return {
    type: "message",
    id: shell.itemId,
    status,
    role: "assistant",
    content: status === "completed" ? [outputText(text)] : [],
  };
}

const outputText = (text: string) => ({ type: "output_text", text, annotations: [] });

function responseUsage(end: ReplyEnd) {
  const input = end.usage?.inputTokens ?? 0;
  const output = end.usage?.outputTokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

/**
 * The finished response: the message (left out when the reply only called tools, unless a stream announced it),
 * then the calls of the client's tools.
 */
function completed(
  shell: ResponseShell,
  end: ReplyEnd,
  text: string,
  toolCalls: ClientToolCall[] = [],
  withMessage = text !== "" || toolCalls.length === 0,
) {
  return responseObject(shell, "completed", {
    output: [
      ...(withMessage ? [messageItem(shell, text, "completed")] : []),
      ...toolCalls.map((call) => functionCallItemOf(call, "completed")),
    ],
    usage: responseUsage(end),
  });
}

const encoder = new TextEncoder();

/** The reply as the Responses API's typed events, each numbered. */
function responseEvents(
  reply: GatewayReply,
  shell: ResponseShell,
  remember: Remember,
): ReadableStream<Uint8Array> {
  let sequence = 0;
  const event = (type: string, fields: Record<string, unknown>) =>
    encoder.encode(
      `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`,
    );
  const where = { item_id: shell.itemId, output_index: 0, content_index: 0 };
  const events = reply[Symbol.asyncIterator]();
  let text = "";
  const toolCalls: ClientToolCall[] = [];
  let messageOpen = true;
  const closeMessage = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (!messageOpen) return;
    messageOpen = false;
    controller.enqueue(event("response.output_text.done", { ...where, text, logprobs: [] }));
    controller.enqueue(event("response.content_part.done", { ...where, part: outputText(text) }));
    controller.enqueue(
      event("response.output_item.done", { output_index: 0, item: messageItem(shell, text, "completed") }),
    );
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(event("response.created", { response: responseObject(shell, "in_progress") }));
      controller.enqueue(event("response.in_progress", { response: responseObject(shell, "in_progress") }));
      controller.enqueue(
        event("response.output_item.added", { output_index: 0, item: messageItem(shell, "", "in_progress") }),
      );
      controller.enqueue(event("response.content_part.added", { ...where, part: outputText("") }));
    },
    async pull(controller) {
      const { value, done } = await events.next();
      if (done || !value) return;
      if (value.type === "text") {
        text += value.text;
        controller.enqueue(
          event("response.output_text.delta", { ...where, delta: value.text, logprobs: [] }),
        );
        return;
      }
      if (value.type === "tool-call") {
        // The message item ends before the call's item; the call comes whole, its arguments in one delta.
        closeMessage(controller);
        const call = { id: value.id, name: value.name, arguments: value.arguments };
        toolCalls.push(call);
        const output_index = toolCalls.length;
        const item_id = `fc_${call.id}`;
        const at = { item_id, output_index };
        controller.enqueue(
          event("response.output_item.added", {
            output_index,
            item: functionCallItemOf(call, "in_progress"),
          }),
        );
        controller.enqueue(event("response.function_call_arguments.delta", { ...at, delta: call.arguments }));
        controller.enqueue(
          event("response.function_call_arguments.done", { ...at, arguments: call.arguments }),
        );
        controller.enqueue(
          event("response.output_item.done", { output_index, item: functionCallItemOf(call, "completed") }),
        );
        return;
      }
      if (value.errorText !== null) {
        const error = { code: "server_error", message: value.errorText };
        controller.enqueue(
          event("response.failed", { response: responseObject(shell, "failed", { error }) }),
        );
      } else {
        await remember(text, toolCalls);
        closeMessage(controller);
        controller.enqueue(
          event("response.completed", { response: completed(shell, value, text, toolCalls, true) }),
        );
      }
      controller.close();
    },
  });
}
