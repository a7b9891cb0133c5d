// Gemini: POST …/models/{model}:streamGenerateContent?alt=sse (SSE of GenerateContentResponse JSON, "\r\n\r\n"
// separated, no end marker) and …:generateContent (one JSON). The path, not the body, selects streaming.
import { asRecord, joinTextParts, userEntries } from "../json-fields";
import { geminiMedia } from "../media-parts";
import { sseData } from "../sse";
import { splitIntoPieces } from "../text-pieces";
import type { Answer, TokenUsage } from "../types";
import type { EncodeContext, ErrorDetails, ProtocolAdapter, StreamPlan } from "./protocol";

const GEMINI_SSE_SEPARATOR = "\r\n\r\n";
const GENERATE_PATH = /\/([^/]+):(streamGenerateContent|generateContent)$/;

const STATUS_NAMES: Record<number, { status: string; message: string }> = {
  400: { status: "INVALID_ARGUMENT", message: "Request contains an invalid argument." },
  401: { status: "UNAUTHENTICATED", message: "Request had invalid authentication credentials." },
  403: { status: "PERMISSION_DENIED", message: "The caller does not have permission." },
  404: { status: "NOT_FOUND", message: "Requested entity was not found." },
  429: { status: "RESOURCE_EXHAUSTED", message: "Resource has been exhausted (e.g. check quota)." },
  500: { status: "INTERNAL", message: "An internal error has occurred." },
  503: { status: "UNAVAILABLE", message: "The model is overloaded. Please try again later." },
  504: { status: "DEADLINE_EXCEEDED", message: "Deadline expired before operation could complete." },
};

function errorBody({ status, message, retryAfterMs }: ErrorDetails): unknown {
  const known = STATUS_NAMES[status] ?? {
    status: status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION",
    message: "Error.",
  };
  // Google announces the retry delay in the body (RetryInfo), not only in headers.
  const details =
    retryAfterMs === undefined
      ? undefined
      : [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retryAfterMs / 1000}s` }];
  return {
    error: {
      code: status,
      message: message ?? known.message,
      status: known.status,
      ...(details ? { details } : {}),
    },
  };
}

function usageMetadata(usage: TokenUsage, final: boolean) {
  const cached =
    usage.cachedInputTokens > 0
      ? {
          cachedContentTokenCount: usage.cachedInputTokens,
          cacheTokensDetails: [{ modality: "TEXT", tokenCount: usage.cachedInputTokens }],
        }
      : {};
  const outputTokens = final ? usage.outputTokens : 0;
  // Gemini counts thoughts apart from the candidates: the two add up to the output.
  const thoughts = final ? Math.min(usage.reasoningTokens, outputTokens) : 0;
  return {
    promptTokenCount: usage.inputTokens,
    ...(final ? { candidatesTokenCount: outputTokens - thoughts } : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
    totalTokenCount: usage.inputTokens + outputTokens,
    ...cached,
    promptTokensDetails: [{ modality: "TEXT", tokenCount: usage.inputTokens }],
  };
}

function responseJson(
  parts: unknown[],
  finishReason: string | null,
  usage: TokenUsage,
  final: boolean,
  context: EncodeContext,
) {
  return {
    candidates: [
      {
        content: { parts, role: "model" },
        ...(finishReason === null ? {} : { finishReason }),
        index: 0,
      },
    ],
    usageMetadata: usageMetadata(usage, final),
    modelVersion: context.model,
    responseId: `fake-gemini-${context.requestId}`,
  };
}

/** The signature Gemini puts on the first part after its thoughts (a function call, or the first text). */
function signed(answer: Answer) {
  return answer.thoughtSignature ? { thoughtSignature: answer.thoughtSignature } : {};
}

function functionCallPart(answer: Extract<Answer, { kind: "tool-call" }>) {
  return {
    functionCall: { id: answer.callId, name: answer.toolName, args: answer.input },
    ...signed(answer),
  };
}

const THOUGHT_CHUNKS = 3;

/** The thought summary's parts (`thought: true`), one per chunk. */
function thoughtParts(answer: Answer): { text: string; thought: true }[] {
  const text = answer.reasoning?.text ?? "";
  return splitIntoPieces(text, THOUGHT_CHUNKS).map((piece) => ({ text: piece, thought: true }));
}

function streamPlan(answer: Answer, pieces: string[], usage: TokenUsage, context: EncodeContext): StreamPlan {
  const chunk = (parts: unknown[], finishReason: string | null, final: boolean) =>
    sseData(responseJson(parts, finishReason, usage, final, context), GEMINI_SSE_SEPARATOR);
  const thoughts = thoughtParts(answer).map((part) => chunk([part], null, false));
  // Thoughts come first, in chunks of their own, spread over the thinking time.
  const thinking =
    thoughts.length > 0
      ? { thinking: { chunks: thoughts, durationMs: answer.reasoning?.durationMs ?? 0 } }
      : {};
  if (answer.kind === "tool-call") {
    // Gemini sends a whole functionCall in one chunk (no argument deltas), together with the finish reason.
    return { head: "", ...thinking, chunks: [], tail: chunk([functionCallPart(answer)], "STOP", true) };
  }
  return {
    head: "",
    ...thinking,
    chunks: pieces.map((text, index) =>
      chunk([{ text, ...(index === 0 ? signed(answer) : {}) }], null, false),
    ),
    tail: chunk([{ text: "" }], "STOP", true),
  };
}

export const gemini: ProtocolAdapter = {
  protocol: "gemini",
  matchPath: (pathname) => {
    const match = GENERATE_PATH.exec(pathname);
    if (match === null) return null;
    return {
      modelFromPath: decodeURIComponent(match[1]),
      streamingFromPath: match[2] === "streamGenerateContent",
    };
  },
  requestModel: (_body, route) => route.modelFromPath,
  isStreaming: (_body, route) => route.streamingFromPath === true,
  lastUserText: (body) => {
    // Tool results travel as user turns too, so take the last user turn that has text.
    const texts = userEntries(asRecord(body)?.contents)
      .map((content) => joinTextParts(content.parts))
      .filter((text) => text.length > 0);
    return texts.at(-1) ?? "";
  },
  mediaParts: geminiMedia,
  errorBody,
  streamPlan,
  jsonResponse: (answer, usage, context) =>
    responseJson(
      [
        ...(answer.reasoning?.text ? [{ text: answer.reasoning.text, thought: true }] : []),
        answer.kind === "text" ? { text: answer.text, ...signed(answer) } : functionCallPart(answer),
      ],
      "STOP",
      usage,
      true,
      context,
    ),
};
