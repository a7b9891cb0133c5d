// OpenAI Responses API: POST …/responses, SSE `event: response.*` with a `data:` JSON that repeats the type
// and carries a running sequence_number. There is no [DONE]: response.completed ends the stream.
import { asArray, asRecord, joinTextParts, userEntries } from "../json-fields";
import { openAIResponsesMedia } from "../media-parts";
import { sseEvent } from "../sse";
import { splitIntoPieces } from "../text-pieces";
import type { Answer, AnswerReasoning, TokenUsage } from "../types";
import { openAIErrorBody } from "./openai-error";
import { type EncodeContext, type ProtocolAdapter, routedByBody, type StreamPlan } from "./protocol";

function usageJson(usage: TokenUsage) {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
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
    // A stateless request (`store: false`) is answered as one.
    store: asRecord(context.requestBody)?.store !== false,
    usage: usage === null ? null : usageJson(usage),
    metadata: {},
  };
}

function outputText(text: string) {
  return { type: "output_text", annotations: [], logprobs: [], text };
}

function summaryText(text: string) {
  return { type: "summary_text", text };
}

/** The reasoning's encrypted content goes out only when the request asks for it, as OpenAI does. */
function asksForEncryptedReasoning(requestBody: unknown): boolean {
  return asArray(asRecord(requestBody)?.include).includes("reasoning.encrypted_content");
}

/** The reasoning item (before the answer): its summary, and its encrypted content when asked for. */
function reasoningItem(reasoning: AnswerReasoning, context: EncodeContext) {
  return {
    id: `rs_fake${context.requestId}`,
    type: "reasoning",
    summary: reasoning.text ? [summaryText(reasoning.text)] : [],
    ...(reasoning.encryptedContent !== undefined && asksForEncryptedReasoning(context.requestBody)
      ? { encrypted_content: reasoning.encryptedContent }
      : {}),
  };
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

/** Every output item of the answer: the reasoning item first when the model reasoned. */
function outputItems(answer: Answer, context: EncodeContext): unknown[] {
  const item = finishedItem(answer, context);
  return answer.reasoning ? [reasoningItem(answer.reasoning, context), item] : [item];
}

const REASONING_TEXT_CHUNKS = 3;

/**
 * The events in the order OpenAI sends them: created, in_progress, then per output item its `added`, its deltas,
 * its `done` (a reasoning item's summary part and text events around its deltas), then completed.
 */
function streamPlan(answer: Answer, pieces: string[], usage: TokenUsage, context: EncodeContext): StreamPlan {
  let sequenceNumber = 0;
  const event = (type: string, fields: Record<string, unknown>) =>
    sseEvent(type, { type, sequence_number: sequenceNumber++, ...fields });

  const opening =
    event("response.created", { response: responseJson(context, "in_progress", [], null) }) +
    event("response.in_progress", { response: responseJson(context, "in_progress", [], null) });
  const reasoning = answer.reasoning;
  let head = opening;
  let thinking: string[] | undefined;
  if (reasoning) {
    const finished = reasoningItem(reasoning, context);
    const location = { item_id: finished.id, output_index: 0, summary_index: 0 };
    head += event("response.output_item.added", {
      output_index: 0,
      item: { id: finished.id, type: "reasoning", summary: [] },
    });
    thinking = [];
    let done = "";
    if (reasoning.text) {
      head += event("response.reasoning_summary_part.added", { ...location, part: summaryText("") });
      for (const delta of splitIntoPieces(reasoning.text, REASONING_TEXT_CHUNKS)) {
        thinking.push(event("response.reasoning_summary_text.delta", { ...location, delta }));
      }
      done +=
        event("response.reasoning_summary_text.done", { ...location, text: reasoning.text }) +
        event("response.reasoning_summary_part.done", { ...location, part: summaryText(reasoning.text) });
    }
    done += event("response.output_item.done", { output_index: 0, item: finished });
    thinking.push(done);
  }

  const outputIndex = reasoning ? 1 : 0;
  const item = finishedItem(answer, context);
  let answerHead: string;
  let chunks: string[];
  let answerDone: string;
  if (answer.kind === "text") {
    const location = { item_id: item.id, output_index: outputIndex, content_index: 0 };
    answerHead =
      event("response.output_item.added", {
        output_index: outputIndex,
        item: { id: item.id, type: "message", status: "in_progress", role: "assistant", content: [] },
      }) + event("response.content_part.added", { ...location, part: outputText("") });
    chunks = pieces.map((delta) => event("response.output_text.delta", { ...location, delta, logprobs: [] }));
    // Built after the deltas so the sequence numbers stay in stream order.
    answerDone =
      event("response.output_text.done", { ...location, text: answer.text, logprobs: [] }) +
      event("response.content_part.done", { ...location, part: outputText(answer.text) });
  } else {
    const location = { item_id: item.id, output_index: outputIndex };
    answerHead = event("response.output_item.added", {
      output_index: outputIndex,
      item: { ...item, status: "in_progress", arguments: "" },
    });
    chunks = pieces.map((delta) => event("response.function_call_arguments.delta", { ...location, delta }));
    answerDone = event("response.function_call_arguments.done", {
      ...location,
      arguments: JSON.stringify(answer.input),
    });
  }
  const tail =
    answerDone +
    event("response.output_item.done", { output_index: outputIndex, item }) +
    event("response.completed", {
      response: responseJson(context, "completed", outputItems(answer, context), usage),
    });
  if (thinking === undefined) return { head: head + answerHead, chunks, tail };
  // The last reasoning chunk closes the reasoning item and opens the answer's.
  thinking[thinking.length - 1] += answerHead;
  return { head, thinking: { chunks: thinking, durationMs: reasoning?.durationMs ?? 0 }, chunks, tail };
}

export const openAIResponses: ProtocolAdapter = {
  protocol: "openai-responses",
  ...routedByBody("/responses"),
  lastUserText: (body) => {
    const input = asRecord(body)?.input;
    if (typeof input === "string") return input;
    return joinTextParts(userEntries(input).at(-1)?.content, ["input_text"]);
  },
  mediaParts: openAIResponsesMedia,
  errorBody: openAIErrorBody,
  streamPlan,
  jsonResponse: (answer, usage, context) =>
    responseJson(context, "completed", outputItems(answer, context), usage),
};
