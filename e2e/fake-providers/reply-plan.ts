// Turns a scripted reply (or none) into a plan the reply writer can carry out for any protocol.
import type { ScriptedReply, ScriptedUsage } from "./script-schema";
import type { Answer, AnswerReasoning, Protocol, TokenUsage } from "./types";

const DEFAULT_TEXT_CHUNKS = 5;
const DEFAULT_TOOL_ARGUMENT_CHUNKS = 3;
const DEFAULT_CHUNK_DELAY_MS = 10;
const QUOTED_USER_TEXT_LENGTH = 60;

export interface AnswerPlan {
  kind: "answer";
  answer: Answer;
  usage: TokenUsage;
  chunkCount: number;
  chunkDelayMs: number;
  firstTokenDelayMs: number;
  /** Destroy the socket after this many content chunks, before any finish event. */
  cutAfterChunks?: number;
  /** The script gave cache reads or writes: a protocol with a prompt cache must not work them out. */
  cacheUsageScripted: boolean;
}

export interface ErrorPlan {
  kind: "error";
  status: number;
  message?: string;
  retryAfterMs?: number;
  retryAfterSeconds?: number;
}

/** Send nothing, not even headers, until the client goes away. */
export interface HangPlan {
  kind: "hang";
}

/** Send these recorded events as they are (a real provider's stream, byte for byte). */
export interface RecordedPlan {
  kind: "recorded";
  chunks: readonly string[];
}

export type ReplyPlan = AnswerPlan | ErrorPlan | HangPlan | RecordedPlan;

export interface PlanInput {
  protocol: Protocol;
  requestId: number;
  lastUserText: string;
  requestBodyBytes: number;
}

/** Deterministic, and quotes the request so a test can tell which request a reply answered. */
export function defaultReplyText(protocol: Protocol, lastUserText: string): string {
  return `Fake ${protocol} reply to: "${Array.from(lastUserText).slice(0, QUOTED_USER_TEXT_LENGTH).join("")}"`;
}

/** Rough but stable counts (about 4 characters a token) when a script gives none. */
function resolveUsage(
  scripted: ScriptedUsage | undefined,
  requestBodyBytes: number,
  outputText: string,
  reasoning?: AnswerReasoning,
): TokenUsage {
  // A model that reasoned spent tokens on it even when the text is hidden.
  const reasoningTokens =
    scripted?.reasoningTokens ?? (reasoning ? Math.max(1, Math.ceil(reasoning.text.length / 4)) : 0);
  return {
    inputTokens: scripted?.inputTokens ?? Math.max(1, Math.ceil(requestBodyBytes / 4)),
    outputTokens: scripted?.outputTokens ?? Math.max(1, Math.ceil(outputText.length / 4)) + reasoningTokens,
    cachedInputTokens: scripted?.cachedInputTokens ?? 0,
    cacheWriteTokens: scripted?.cacheWriteTokens ?? 0,
    reasoningTokens,
  };
}

/** The reasoning and signature a scripted reply asks for, as the answer carries them. */
function answerTags(reply: Extract<ScriptedReply, { kind: "text" | "tool-call" }>): {
  reasoning?: AnswerReasoning;
  thoughtSignature?: string;
} {
  return {
    ...(reply.reasoning
      ? {
          reasoning: {
            text: reply.reasoning.text ?? "",
            ...(reply.reasoning.encryptedContent
              ? { encryptedContent: reply.reasoning.encryptedContent }
              : {}),
            durationMs: reply.reasoning.durationMs ?? 0,
          },
        }
      : {}),
    ...(reply.thoughtSignature ? { thoughtSignature: reply.thoughtSignature } : {}),
  };
}

function cacheUsageScripted(scripted: ScriptedUsage | undefined): boolean {
  return scripted?.cachedInputTokens !== undefined || scripted?.cacheWriteTokens !== undefined;
}

export function planReply(reply: ScriptedReply | undefined, input: PlanInput): ReplyPlan {
  const defaultText = defaultReplyText(input.protocol, input.lastUserText);
  if (reply === undefined) {
    return textPlan(defaultText, undefined, input, {});
  }
  switch (reply.kind) {
    case "text": {
      const tags = answerTags(reply);
      const plan = textPlan(reply.text, reply.usage, input, reply, tags.reasoning);
      return { ...plan, answer: { ...plan.answer, ...tags } };
    }
    case "cut":
      return {
        ...textPlan(reply.text ?? defaultText, undefined, input, reply),
        cutAfterChunks: reply.afterChunks,
      };
    case "tool-call": {
      const argumentsJson = JSON.stringify(reply.input ?? {});
      const tags = answerTags(reply);
      return {
        kind: "answer",
        answer: {
          kind: "tool-call",
          toolName: reply.toolName,
          input: reply.input ?? {},
          callId: reply.id ?? `call_fake${input.requestId}`,
          ...tags,
        },
        usage: resolveUsage(reply.usage, input.requestBodyBytes, argumentsJson, tags.reasoning),
        cacheUsageScripted: cacheUsageScripted(reply.usage),
        chunkCount: reply.chunks ?? DEFAULT_TOOL_ARGUMENT_CHUNKS,
        chunkDelayMs: reply.chunkDelayMs ?? DEFAULT_CHUNK_DELAY_MS,
        firstTokenDelayMs: reply.firstTokenDelayMs ?? 0,
      };
    }
    case "hang":
      return { kind: "hang" };
    case "recorded":
      return { kind: "recorded", chunks: reply.chunks };
    case "error":
      return {
        kind: "error",
        status: reply.status,
        message: reply.message,
        retryAfterMs: reply.retryAfterMs,
        retryAfterSeconds: reply.retryAfterSeconds,
      };
  }
}

interface Timing {
  chunks?: number;
  chunkDelayMs?: number;
  firstTokenDelayMs?: number;
}

function textPlan(
  text: string,
  usage: ScriptedUsage | undefined,
  input: PlanInput,
  timing: Timing,
  reasoning?: AnswerReasoning,
): AnswerPlan {
  return {
    kind: "answer",
    answer: { kind: "text", text },
    usage: resolveUsage(usage, input.requestBodyBytes, text, reasoning),
    cacheUsageScripted: cacheUsageScripted(usage),
    chunkCount: timing.chunks ?? DEFAULT_TEXT_CHUNKS,
    chunkDelayMs: timing.chunkDelayMs ?? DEFAULT_CHUNK_DELAY_MS,
    firstTokenDelayMs: timing.firstTokenDelayMs ?? 0,
  };
}
