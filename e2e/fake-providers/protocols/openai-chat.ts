// OpenAI chat completions: POST …/chat/completions, SSE `data: {chat.completion.chunk}` … `data: [DONE]`.
import { asRecord, joinTextParts, userEntries } from "../json-fields";
import { openAIChatMedia } from "../media-parts";
import { sseData } from "../sse";
import type { Answer, TokenUsage } from "../types";
import { openAIErrorBody } from "./openai-error";
import { type EncodeContext, type ProtocolAdapter, routedByBody, type StreamPlan } from "./protocol";

function usageJson(usage: TokenUsage) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** Only with `stream_options.include_usage` does OpenAI send the usage chunk (and `usage: null` on the others). */
function includesUsage(requestBody: unknown): boolean {
  return asRecord(asRecord(requestBody)?.stream_options)?.include_usage === true;
}

function completionId(context: EncodeContext): string {
  return `chatcmpl-fake${context.requestId}`;
}

function streamPlan(answer: Answer, pieces: string[], usage: TokenUsage, context: EncodeContext): StreamPlan {
  const withUsage = includesUsage(context.requestBody);
  const chunk = (choices: unknown[], usageValue: unknown = null) =>
    sseData({
      id: completionId(context),
      object: "chat.completion.chunk",
      created: context.createdAt,
      model: context.model,
      service_tier: "default",
      system_fingerprint: "fp_fake",
      choices,
      ...(withUsage ? { usage: usageValue } : {}),
    });
  const choice = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    index: 0,
    delta,
    logprobs: null,
    finish_reason: finishReason,
  });

  const finish = (reason: string) =>
    chunk([choice({}, reason)]) + (withUsage ? chunk([], usageJson(usage)) : "") + sseData("[DONE]");

  if (answer.kind === "text") {
    return {
      head: chunk([choice({ role: "assistant", content: "", refusal: null })]),
      chunks: pieces.map((piece) => chunk([choice({ content: piece })])),
      tail: finish("stop"),
    };
  }
  const toolCallHead = {
    index: 0,
    id: answer.callId,
    type: "function",
    function: { name: answer.toolName, arguments: "" },
  };
  return {
    head: chunk([choice({ role: "assistant", content: null, tool_calls: [toolCallHead], refusal: null })]),
    chunks: pieces.map((piece) =>
      chunk([choice({ tool_calls: [{ index: 0, function: { arguments: piece } }] })]),
    ),
    tail: finish("tool_calls"),
  };
}

function jsonResponse(answer: Answer, usage: TokenUsage, context: EncodeContext): unknown {
  const message =
    answer.kind === "text"
      ? { role: "assistant", content: answer.text, refusal: null, annotations: [] }
      : {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: answer.callId,
              type: "function",
              function: { name: answer.toolName, arguments: JSON.stringify(answer.input) },
            },
          ],
          refusal: null,
          annotations: [],
        };
  return {
    id: completionId(context),
    object: "chat.completion",
    created: context.createdAt,
    model: context.model,
    choices: [
      { index: 0, message, logprobs: null, finish_reason: answer.kind === "text" ? "stop" : "tool_calls" },
    ],
    usage: usageJson(usage),
    service_tier: "default",
    system_fingerprint: "fp_fake",
  };
}

export const openAIChat: ProtocolAdapter = {
  protocol: "openai-chat",
  ...routedByBody("/chat/completions"),
  lastUserText: (body) => {
    return joinTextParts(userEntries(asRecord(body)?.messages).at(-1)?.content, ["text"]);
  },
  mediaParts: openAIChatMedia,
  errorBody: openAIErrorBody,
  streamPlan,
  jsonResponse,
};
