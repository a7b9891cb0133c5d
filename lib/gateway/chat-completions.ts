// POST /v1/chat/completions: one call is one turn of a Glassbox conversation (conversations.ts, turn.ts), answered
// in OpenAI's shapes: a chat.completion, or with `stream` a chat.completion.chunk per piece of text as server-sent
// events ending in `data: [DONE]`, and with `stream_options.include_usage` a last chunk with the usage and no
// choices. Every answer names the conversation, the attempt and the server's own time before the provider request.

import "server-only";
import { env } from "@/lib/config/env";
import { enforceRateLimit, type RateLimitPolicy } from "@/lib/rate-limit";
import { refuseNewTurnWhenShuttingDown } from "@/lib/shutdown-hooks";
import { type ChatCall, readChatCall } from "./chat-request";
import { storeContentImages } from "./content-parts";
import { CONVERSATION_HEADER, conversationForCall, rememberTranscript } from "./conversations";
import { GatewayError } from "./errors";
import { personaForModel } from "./personas";
import type { GatewayCall } from "./route";
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

export async function chatCompletions(gatewayCall: GatewayCall): Promise<Response> {
  const call = await readChatCall(gatewayCall.request);
  const { reply, headers, remember } = await startCallTurn(gatewayCall, call, {
    conversationHeader: gatewayCall.request.headers.get(CONVERSATION_HEADER),
  });
  if (call.stream) return eventStream(completionChunks(reply, call, remember), headers);
  const { end, text } = await wholeReply(reply, headers, remember);
  return Response.json(completion(call, end, text), { headers });
}

/** Server-sent events, with the call's headers. */
export function eventStream(body: ReadableStream<Uint8Array>, headers: Record<string, string>): Response {
  return new Response(body, {
    headers: { ...headers, "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  });
}

/** The whole reply, for an answer that is not streamed: a reply with no text at all is a 502. */
export async function wholeReply(
  reply: GatewayReply,
  headers: Record<string, string>,
  remember: (replyText: string) => Promise<void>,
): Promise<{ end: ReplyEnd; text: string }> {
  let text = "";
  for await (const event of reply) {
    if (event.type === "text") {
      text += event.text;
      continue;
    }
    if (event.errorText !== null && text === "") throw replyFailed(event.errorText, headers);
    await remember(text);
    return { end: event, text };
  }
  throw new Error("the reply ended without its end");
}

/**
 * The part every gateway call shares: the rate limit, the persona, the conversation, the turn. Resolves once the
 * reply's first text (or its end) has come, with the response headers then known.
 */
export async function startCallTurn(
  { db, key, user, arrivedAt }: GatewayCall,
  call: ChatCall,
  { conversationHeader }: { conversationHeader: string | null },
) {
  refuseNewTurnWhenShuttingDown();
  await enforceRateLimit(gatewayPolicy(), key.id);
  const persona = await personaForModel(db, key, call.model);
  const { conversation } = await conversationForCall({
    db,
    key,
    user,
    persona,
    call,
    headerValue: conversationHeader,
  });
  const reply = await runGatewayTurn({
    db,
    user,
    conversationId: conversation.id,
    text: call.text,
    // Stored as the chat's uploads are, then carried by the user message the turn stores.
    attachmentIds: await storeContentImages({
      db,
      conversationId: conversation.id,
      userId: user.id,
      images: call.images,
    }),
    callOptions: call.options,
    arrivedAt,
  });
  await reply.ready;
  const headers = {
    [CONVERSATION_HEADER]: conversation.id,
    "x-glassbox-attempt-id": reply.attemptId ?? "",
    "x-glassbox-overhead-ms": reply.overheadMs === null ? "" : reply.overheadMs.toFixed(2),
  };
  const remember = (replyText: string) =>
    rememberTranscript({ db, key, persona, conversationId: conversation.id, call, replyText });
  return { conversation, reply, headers, remember };
}

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

function completion(call: ChatCall, end: ReplyEnd, text: string) {
  return {
    id: `chatcmpl-${end.messageId}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: call.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: text, refusal: null },
        logprobs: null,
        finish_reason: finishReason(end.finishReason),
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
  remember: (replyText: string) => Promise<void>,
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
      if (event.errorText !== null) {
        const error = { message: event.errorText, type: "server_error", param: null, code: "upstream_error" };
        controller.enqueue(encoder.encode(`data: ${JSON.stringify({ error })}\n\n`));
      } else {
        await remember(text);
        controller.enqueue(chunk(choice({}, finishReason(event.finishReason))));
        if (call.includeUsage) controller.enqueue(chunk({ choices: [], usage: usage(event) }));
      }
      controller.enqueue(encoder.encode("data: [DONE]\n\n"));
      controller.close();
    },
  });
}
