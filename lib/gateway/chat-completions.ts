// POST /v1/chat/completions: one call is one turn of a Glassbox conversation (conversations.ts, turn.ts), answered
// in OpenAI's shapes: a chat.completion, or with `stream` a chat.completion.chunk per piece of text as server-sent
// events ending in `data: [DONE]`, and with `stream_options.include_usage` a last chunk with the usage and no
// choices. The model's calls of the client's tools (client-tools.ts) come as `tool_calls` (in the stream, one
// `delta.tool_calls` chunk per call), and the client's results of them in the next call are stored with the calls
// before its turn (tool-results.ts). Every answer names the conversation, the attempt and the server's own time
// before the provider request.

import "server-only";
import type { Database } from "@/db/client";
import type { Message, Persona } from "@/db/schema";
import { EVENT_STREAM_HEADERS } from "@/lib/api/event-stream-headers";
import { env } from "@/lib/config/env";
import { enforceRateLimit, type RateLimitPolicy } from "@/lib/rate-limit";
import { refuseNewTurnWhenShuttingDown } from "@/lib/shutdown-hooks";
import { bearerSecretHash } from "./api-keys";
import { type ChatCall, readChatCall } from "./chat-request";
import { type ClientToolCall, refuseShadowedTools } from "./client-tools";
import { storeContentImages } from "./content-parts";
import {
  CONVERSATION_HEADER,
  conversationForCall,
  lookUpTranscript,
  rememberTranscript,
  type TranscriptLookup,
} from "./conversations";
import { GatewayError, invalidField } from "./errors";
import { findPersonaForModel, lastPersonaIdOf, personaOfKey } from "./personas";
import type { GatewayCall } from "./route";
import { storeToolResults } from "./tool-results";
import { type GatewayReply, type ReplyEnd, runGatewayTurn } from "./turn";

/** Calls one key may make per minute: GATEWAY_RATE_LIMIT_PER_MINUTE, by default the chat's own limit. */
export function gatewayPolicy(): RateLimitPolicy {
  const { GATEWAY_RATE_LIMIT_PER_MINUTE, CHAT_RATE_LIMIT_PER_MINUTE } = env();
  return {
    name: "gateway",
    limit: GATEWAY_RATE_LIMIT_PER_MINUTE ?? CHAT_RATE_LIMIT_PER_MINUTE,
    windowSeconds: 60,
  };
}

/**
 * A call as read before its key is checked: the request, the lookup of the persona its model names and, when no
 * conversation is named, the lookup of the conversation its history continues.
 */
export interface ReadCall {
  call: ChatCall;
  persona: Promise<Persona | null>;
  transcript: TranscriptLookup | undefined;
}

/** The call's body and its lookups (lib/gateway/route.ts runs this while the key is checked). */
export async function readChatCompletion(request: Request, db: Database): Promise<ReadCall> {
  const call = await readChatCall(request);
  return readCallPersona(db, call, request, { conversationNamed: request.headers.has(CONVERSATION_HEADER) });
}

/**
 * The call, with the lookups made from the request alone started: its persona and, when the call names no
 * conversation, the conversation its history continues. That one needs the persona's id, so it starts under the id
 * the model named when this process last looked it up, and the call looks it up again when its persona is another
 * (conversations.ts, conversationForCall). A call's round trips before its model call are then the key, persona
 * and transcript at once, not one after the other.
 */
export function readCallPersona(
  db: Database,
  call: ChatCall,
  request: Request,
  { conversationNamed }: { conversationNamed: boolean },
): ReadCall {
  const persona = findPersonaForModel(db, call.model);
  // Awaited only by a call that gets that far: a refused one (a bad key, the rate limit) leaves it.
  persona.catch(() => {});
  const personaId = lastPersonaIdOf(call.model);
  const secretHash = bearerSecretHash(request);
  const transcript =
    !conversationNamed && personaId !== undefined && secretHash !== null
      ? lookUpTranscript(db, secretHash, personaId, call)
      : undefined;
  return { call, persona, transcript };
}

export async function chatCompletions(gatewayCall: GatewayCall, read: ReadCall): Promise<Response> {
  const { call } = read;
  const { reply, headers, remember } = await startCallTurn(gatewayCall, read, {
    conversationHeader: gatewayCall.request.headers.get(CONVERSATION_HEADER),
  });
  if (call.stream) return eventStream(completionChunks(reply, call, remember), headers);
  const { end, text, toolCalls } = await wholeReply(reply, headers, remember);
  return Response.json(completion(call, end, text, toolCalls), { headers });
}

/** Server-sent events, with the call's headers. */
export function eventStream(body: ReadableStream<Uint8Array>, headers: Record<string, string>): Response {
  return new Response(body, {
    headers: { ...headers, ...EVENT_STREAM_HEADERS },
  });
}

/** The whole reply, for an answer that is not streamed: a failed reply with no text or call at all is a 502. */
export async function wholeReply(
  reply: GatewayReply,
  headers: Record<string, string>,
  remember: Remember,
): Promise<{ end: ReplyEnd; text: string; toolCalls: ClientToolCall[] }> {
  let text = "";
  const toolCalls: ClientToolCall[] = [];
  for await (const event of reply) {
    if (event.type === "text") {
      text += event.text;
      continue;
    }
    if (event.type === "tool-call") {
      toolCalls.push({ id: event.id, name: event.name, arguments: event.arguments });
      continue;
    }
    if (event.errorText !== null && text === "" && toolCalls.length === 0) {
      throw replyFailed(event.errorText, headers);
    }
    await remember(text, toolCalls);
    return { end: event, text, toolCalls };
  }
  throw new Error("the reply ended without its end");
}

/**
 * The part every gateway call shares: the rate limit, the persona, the conversation, the turn. Resolves once the
 * reply's first text (or its end) has come, with the response headers then known.
 */
export async function startCallTurn(
  { db, key, user, arrivedAt }: GatewayCall,
  { call, persona: personaFound, transcript }: ReadCall,
  { conversationHeader }: { conversationHeader: string | null },
) {
  refuseNewTurnWhenShuttingDown();
  await enforceRateLimit(gatewayPolicy(), key.id);
  const persona = personaOfKey(key, call.model, await personaFound);
  refuseShadowedTools(call.tools, persona.toolNames);
  refuseUnpairedResults(call, conversationHeader);
  const { conversationId, snapshot } = await conversationForCall({
    db,
    key,
    user,
    persona,
    call,
    headerValue: conversationHeader,
    transcriptLookup: transcript,
  });
  const answered = await storeToolResults({ db, conversationId: conversationId, results: call.toolResults });
  const reply = await runGatewayTurn({
    db,
    user,
    conversationId: conversationId,
    input:
      call.text === null
        ? { continueMessageId: (answered as Message).id }
        : {
            text: call.text,
            // Stored as the chat's uploads are, then carried by the user message the turn stores.
            attachmentIds: await storeContentImages({
              db,
              conversationId,
              userId: user.id,
              images: call.images,
            }),
          },
    callOptions: call.options,
    toolOffer: call.toolOffer,
    // Read before the tool results were stored, and so of no use to a call that stored some.
    snapshot: call.toolResults.length === 0 ? snapshot : undefined,
    arrivedAt,
  });
  await reply.ready;
  const headers = {
    [CONVERSATION_HEADER]: conversationId,
    "x-glassbox-attempt-id": reply.attemptId ?? "",
    "x-glassbox-overhead-ms": reply.overheadMs === null ? "" : reply.overheadMs.toFixed(2),
  };
  const turn = { db, key, persona, conversationId, call, replyMessageId: reply.messageId };
  const remember: Remember = (replyText, replyToolCalls) =>
    rememberTranscript(turn, replyText, replyToolCalls);
  return { conversationId, reply, headers, remember };
}

/**
 * Results with no call before them in the request can only answer a named conversation's last reply: without
 * one, no stored transcript ends in their calls (each ends with the reply), so they are refused before any is made.
 */
function refuseUnpairedResults(call: ChatCall, conversationHeader: string | null) {
  const first = call.toolResults[0];
  if (!first || conversationHeader !== null) return;
  if (call.history.some((message) => message.role === "assistant" && message.toolCalls?.length)) return;
  throw invalidField(
    first.param,
    "answers no tool call: send the assistant message with the call before it, or name the conversation.",
  );
}

/** After the reply: the transcript the client will send back next. */
export type Remember = (replyText: string, replyToolCalls?: ClientToolCall[]) => Promise<void>;

function replyFailed(errorText: string, headers: Record<string, string>): GatewayError {
  return new GatewayError(502, `The persona's model did not answer: ${errorText}`, {
    type: "server_error",
    code: "upstream_error",
    headers,
  });
}

/** OpenAI's finish reasons for the AI SDK's. */
function finishReason(reason: string | null): "stop" | "length" | "content_filter" | "tool_calls" {
  if (reason === "length") return "length";
  if (reason === "content-filter") return "content_filter";
  if (reason === "tool-calls") return "tool_calls";
  return "stop";
}

export function usage(end: ReplyEnd) {
  const inputTokens = end.usage?.inputTokens ?? 0;
  const outputTokens = end.usage?.outputTokens ?? 0;
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
  };
}

/** A call of a client tool as OpenAI's messages carry it. */
function toolCallOf(call: ClientToolCall) {
  return { id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } };
}

function completion(call: ChatCall, end: ReplyEnd, text: string, toolCalls: ClientToolCall[]) {
  const calls = toolCalls.length > 0;
  return {
    id: `chatcmpl-${end.messageId}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: call.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          // As OpenAI answers a reply that only calls tools: no content.
          content: calls && text === "" ? null : text,
          refusal: null,
          ...(calls ? { tool_calls: toolCalls.map(toolCallOf) } : {}),
        },
        logprobs: null,
        finish_reason: calls ? "tool_calls" : finishReason(end.finishReason),
      },
    ],
    usage: usage(end),
  };
}

const encoder = new TextEncoder();

/** The reply as chat.completion.chunk events; a reply that fails midway ends with an error event. */
function completionChunks(
  reply: GatewayReply,
  call: ChatCall,
  remember: Remember,
): ReadableStream<Uint8Array> {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (fields: Record<string, unknown>) =>
    encoder.encode(
      `data: ${JSON.stringify({ id: `chatcmpl-${reply.messageId}`, object: "chat.completion.chunk", created, model: call.model, ...fields })}\n\n`,
    );
  const choice = (delta: Record<string, unknown>, finish: string | null = null) => ({
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const events = reply[Symbol.asyncIterator]();
  let text = "";
  const toolCalls: ClientToolCall[] = [];
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(chunk(choice({ role: "assistant", content: "" })));
    },
    async pull(controller) {
      const { value: event, done } = await events.next();
      if (done || !event) return;
      if (event.type === "text") {
        text += event.text;
        controller.enqueue(chunk(choice({ content: event.text })));
        return;
      }
      if (event.type === "tool-call") {
        const call = { id: event.id, name: event.name, arguments: event.arguments };
        // The whole call in one chunk: its index, id, type, name and all its arguments.
        controller.enqueue(chunk(choice({ tool_calls: [{ index: toolCalls.length, ...toolCallOf(call) }] })));
        toolCalls.push(call);
        return;
      }
      if (event.errorText !== null) {
        const error = { message: event.errorText, type: "server_error", param: null, code: "upstream_error" };
        controller.enqueue(encoder.encode(`data: ${JSON.stringify({ error })}\n\n`));
      } else {
        await remember(text, toolCalls);
        const finish = toolCalls.length > 0 ? "tool_calls" : finishReason(event.finishReason);
        controller.enqueue(chunk(choice({}, finish)));
        if (call.includeUsage) controller.enqueue(chunk({ choices: [], usage: usage(event) }));
      }
      controller.enqueue(encoder.encode("data: [DONE]\n\n"));
      controller.close();
    },
  });
}
