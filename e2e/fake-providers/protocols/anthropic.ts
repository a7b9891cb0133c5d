// Anthropic Messages API: POST …/messages, SSE of named events (`event: message_start` … `event: message_stop`),
// each `data:` repeating its type. Usage comes in message_start (input side, with the prompt-cache reads and
// writes) and message_delta (output). Errors are `{ type: "error", error: { type, message } }`; 529 is
// "overloaded". Prompt caching follows the real rules closely enough to test against (see prompt-cache.ts).
import { asRecord, joinTextParts, userEntries } from "../json-fields";
import { sseEvent } from "../sse";
import { splitIntoPieces } from "../text-pieces";
import type { Answer, TokenUsage } from "../types";
import {
  type EncodeContext,
  type ErrorDetails,
  type ProtocolAdapter,
  routedByBody,
  type StreamPlan,
} from "./protocol";

const ERROR_TYPES: Record<number, { type: string; message: string }> = {
  400: { type: "invalid_request_error", message: "Invalid request." },
  401: { type: "authentication_error", message: "invalid x-api-key" },
  403: {
    type: "permission_error",
    message: "Your API key does not have permission to use the specified resource.",
  },
  404: { type: "not_found_error", message: "The requested resource could not be found." },
  413: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." },
  429: {
    type: "rate_limit_error",
    message: "Number of request tokens has exceeded your per-minute rate limit.",
  },
  500: { type: "api_error", message: "Internal server error" },
  529: { type: "overloaded_error", message: "Overloaded" },
};

function errorBody({ status, message }: ErrorDetails): unknown {
  const known = ERROR_TYPES[status] ?? {
    type: status >= 500 ? "api_error" : "invalid_request_error",
    message: "Error.",
  };
  return { type: "error", error: { type: known.type, message: message ?? known.message } };
}

/** Anthropic counts input without the cache: `input_tokens` is what was neither read from nor written to it. */
function usageJson(usage: TokenUsage, outputTokens: number) {
  return {
    input_tokens: Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens),
    cache_creation_input_tokens: usage.cacheWriteTokens,
    cache_read_input_tokens: usage.cachedInputTokens,
    output_tokens: outputTokens,
    service_tier: "standard",
  };
}

function messageId(context: EncodeContext): string {
  return `msg_fake${context.requestId}`;
}

function message(context: EncodeContext, content: unknown[], stopReason: string | null, usage: unknown) {
  return {
    id: messageId(context),
    type: "message",
    role: "assistant",
    model: context.model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  };
}

/** A stable, fake signature for a thinking block (the real one is opaque too). */
function thinkingSignature(context: EncodeContext): string {
  return Buffer.from(`fake-signature-${context.requestId}`).toString("base64");
}

function streamPlan(answer: Answer, pieces: string[], usage: TokenUsage, context: EncodeContext): StreamPlan {
  const event = (type: string, payload: Record<string, unknown>) => sseEvent(type, { type, ...payload });
  let head = event("message_start", { message: message(context, [], null, usageJson(usage, 1)) });
  let index = 0;
  if (answer.reasoning !== undefined) {
    head += event("content_block_start", {
      index,
      content_block: { type: "thinking", thinking: "", signature: "" },
    });
    for (const thinking of splitIntoPieces(answer.reasoning.text, 2))
      head += event("content_block_delta", { index, delta: { type: "thinking_delta", thinking } });
    head += event("content_block_delta", {
      index,
      delta: { type: "signature_delta", signature: thinkingSignature(context) },
    });
    head += event("content_block_stop", { index });
    index += 1;
  }
  const contentBlock =
    answer.kind === "text"
      ? { type: "text", text: "" }
      : { type: "tool_use", id: answer.callId, name: answer.toolName, input: {} };
  head += event("content_block_start", { index, content_block: contentBlock });
  head += event("ping", {});
  const chunks = pieces.map((piece) =>
    event("content_block_delta", {
      index,
      delta:
        answer.kind === "text"
          ? { type: "text_delta", text: piece }
          : { type: "input_json_delta", partial_json: piece },
    }),
  );
  const tail =
    event("content_block_stop", { index }) +
    event("message_delta", {
      delta: { stop_reason: answer.kind === "text" ? "end_turn" : "tool_use", stop_sequence: null },
      usage: { output_tokens: usage.outputTokens },
    }) +
    event("message_stop", {});
  return { head, chunks, tail };
}

function jsonResponse(answer: Answer, usage: TokenUsage, context: EncodeContext): unknown {
  const content: unknown[] = [];
  if (answer.reasoning !== undefined)
    content.push({
      type: "thinking",
      thinking: answer.reasoning.text,
      signature: thinkingSignature(context),
    });
  content.push(
    answer.kind === "text"
      ? { type: "text", text: answer.text }
      : { type: "tool_use", id: answer.callId, name: answer.toolName, input: answer.input },
  );
  return message(
    context,
    content,
    answer.kind === "text" ? "end_turn" : "tool_use",
    usageJson(usage, usage.outputTokens),
  );
}

export const anthropic: ProtocolAdapter = {
  protocol: "anthropic",
  cachesPromptPrefixes: true,
  ...routedByBody("/messages"),
  lastUserText: (body) => {
    // Tool results travel in user turns too: take the last user turn that has text.
    const texts = userEntries(asRecord(body)?.messages)
      .map((entry) => joinTextParts(entry.content, ["text"]))
      .filter((text) => text.length > 0);
    return texts.at(-1) ?? "";
  },
  errorBody,
  streamPlan,
  jsonResponse,
};
