// OpenAI Responses API: POST …/responses, SSE `event: response.*` with a `data:` JSON that repeats the type
// and carries a running sequence_number. There is no [DONE]: response.completed ends the stream.
import { asArray, asRecord, asString, joinTextParts } from "../json-fields";
import { openAIResponsesMedia } from "../media-parts";
import { sseEvent } from "../sse";
import type { Answer, TokenUsage } from "../types";
import { openAIErrorBody } from "./openai-error";
import type { EncodeContext, ProtocolAdapter, StreamPlan } from "./protocol";

function usageJson(usage: TokenUsage) {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

function responseJson(context: EncodeContext, status: string, output: unknown[], usage: TokenUsage | null) {
  return {
    id: `resp_fake${context.requestId}`,
    object: "response",
    created_at: context.createdAt,
    status,
    error: null,
    incomplete_details: null,
    model: context.model,
    output,
    parallel_tool_calls: true,
    service_tier: "default",
    store: true,
    usage: usage === null ? null : usageJson(usage),
    metadata: {},
  };
}

function outputText(text: string) {
  return { type: "output_text", annotations: [], logprobs: [], text };
}

/** The finished output item, as in output_item.done and in the final response's `output`. */
function finishedItem(answer: Answer, context: EncodeContext) {
  if (answer.kind === "text") {
    return {
      id: `msg_fake${context.requestId}`,
      type: "message",
      status: "completed",
      role: "assistant",
      content: [outputText(answer.text)],
    };
  }
  return {
    id: `fc_fake${context.requestId}`,
    type: "function_call",
    status: "completed",
    arguments: JSON.stringify(answer.input),
    call_id: answer.callId,
    name: answer.toolName,
  };
}

function streamPlan(answer: Answer, pieces: string[], usage: TokenUsage, context: EncodeContext): StreamPlan {
  let sequenceNumber = 0;
  const event = (type: string, fields: Record<string, unknown>) =>
    sseEvent(type, { type, sequence_number: sequenceNumber++, ...fields });

  const item = finishedItem(answer, context);
  const opening =
    event("response.created", { response: responseJson(context, "in_progress", [], null) }) +
    event("response.in_progress", { response: responseJson(context, "in_progress", [], null) });
  const completed = () =>
    event("response.output_item.done", { output_index: 0, item }) +
    event("response.completed", { response: responseJson(context, "completed", [item], usage) });

  if (answer.kind === "text") {
    const location = { item_id: item.id, output_index: 0, content_index: 0 };
    const head =
      opening +
      event("response.output_item.added", {
        output_index: 0,
        item: { id: item.id, type: "message", status: "in_progress", role: "assistant", content: [] },
      }) +
      event("response.content_part.added", { ...location, part: outputText("") });
    const chunks = pieces.map((delta) =>
      event("response.output_text.delta", { ...location, delta, logprobs: [] }),
    );
    // Built after the deltas so the sequence numbers stay in stream order.
    const tail =
      event("response.output_text.done", { ...location, text: answer.text, logprobs: [] }) +
      event("response.content_part.done", { ...location, part: outputText(answer.text) }) +
      completed();
    return { head, chunks, tail };
  }

  const location = { item_id: item.id, output_index: 0 };
  const head =
    opening +
    event("response.output_item.added", {
      output_index: 0,
      item: { ...item, status: "in_progress", arguments: "" },
    });
  const chunks = pieces.map((delta) =>
    event("response.function_call_arguments.delta", { ...location, delta }),
  );
  const tail =
    event("response.function_call_arguments.done", { ...location, arguments: JSON.stringify(answer.input) }) +
    completed();
  return { head, chunks, tail };
}

export const openAIResponses: ProtocolAdapter = {
  protocol: "openai-responses",
  matchPath: (pathname) =>
    pathname.endsWith("/responses") ? { modelFromPath: null, streamingFromPath: null } : null,
  requestModel: (body) => asString(asRecord(body)?.model) ?? null,
  isStreaming: (body) => asRecord(body)?.stream === true,
  lastUserText: (body) => {
    const input = asRecord(body)?.input;
    if (typeof input === "string") return input;
    const userItems = asArray(input)
      .map(asRecord)
      .filter((item) => item?.role === "user");
    return joinTextParts(userItems.at(-1)?.content, ["input_text"]);
  },
  mediaParts: openAIResponsesMedia,
  errorBody: openAIErrorBody,
  streamPlan,
  jsonResponse: (answer, usage, context) =>
    responseJson(context, "completed", [finishedItem(answer, context)], usage),
};
