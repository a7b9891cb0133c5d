// Scripted replies: validated with zod so that POST /__script rejects typos instead of silently ignoring them.
import { z } from "zod";
import { PROTOCOLS } from "./types";

const nonNegativeInt = z.number().int().nonnegative();

const usageSchema = z
  .object({
    inputTokens: nonNegativeInt.optional(),
    outputTokens: nonNegativeInt.optional(),
    cachedInputTokens: nonNegativeInt.optional(),
    /** Anthropic only. Without cachedInputTokens or this, the fake Anthropic works both out from its cache. */
    cacheWriteTokens: nonNegativeInt.optional(),
    reasoningTokens: nonNegativeInt.optional(),
  })
  .strict();

/** What a reasoning model sends besides its answer: its reasoning (Responses, Gemini) and signatures (Gemini). */
const reasoningShape = {
  reasoning: z
    .object({
      /** The reasoning summary (Responses) or thought text (Gemini); omitted: hidden by the provider. */
      text: z.string().optional(),
      /** Responses: `encrypted_content` of the reasoning item, sent when the request's `include` asks for it. */
      encryptedContent: z.string().min(1).optional(),
      /** How long the model thinks before answering (default 0). */
      durationMs: nonNegativeInt.optional(),
    })
    .strict()
    .optional(),
  /** Gemini: `thoughtSignature` on the function call (tool call) or the first text part (text). */
  thoughtSignature: z.string().min(1).optional(),
};

const timingShape = {
  /** How many pieces the content is split into (default 5 for text, 3 for tool arguments). */
  chunks: z.number().int().positive().optional(),
  chunkDelayMs: nonNegativeInt.optional(),
  /** Wait before the first content chunk; the HTTP headers and opening events are sent at once. */
  firstTokenDelayMs: nonNegativeInt.optional(),
};

/** Which requests a reply may be consumed by. Omitted fields match anything. */
const targetShape = {
  protocol: z.enum(PROTOCOLS).optional(),
  match: z
    .object({
      /** Substring of the request path (query included). */
      path: z.string().optional(),
      /** Exact model name. */
      model: z.string().optional(),
    })
    .strict()
    .optional(),
  /** Serve this reply to this many matching requests before it leaves the queue (default 1). */
  times: z.number().int().positive().optional(),
};

/** What every answer (text or tool call) may say besides its content. */
const answerShape = {
  usage: usageSchema.optional(),
  ...reasoningShape,
  ...timingShape,
  ...targetShape,
};

export const scriptedReplySchema = z.discriminatedUnion("kind", [
  // Sends nothing at all, not even headers, until the client gives up: a provider that hangs.
  z.object({ kind: z.literal("hang"), ...targetShape }).strict(),
  z
    .object({
      kind: z.literal("text"),
      text: z.string(),
      ...answerShape,
    })
    .strict(),
  z
    .object({
      kind: z.literal("tool-call"),
      toolName: z.string().min(1),
      input: z.unknown(),
      /** Tool call id; generated when omitted. */
      id: z.string().min(1).optional(),
      ...answerShape,
    })
    .strict(),
  z
    .object({
      kind: z.literal("error"),
      status: z.number().int().min(400).max(599),
      /** Sent as `retry-after` (seconds). */
      retryAfterSeconds: z.number().nonnegative().optional(),
      /** Sent as `retry-after-ms`, and as `retry-after` rounded up to whole seconds unless that is given. */
      retryAfterMs: nonNegativeInt.optional(),
      message: z.string().optional(),
      ...targetShape,
    })
    .strict(),
  // A stream recorded from the real provider, served as it is: each chunk (one JSON event as recorded) is sent
  // unchanged as one server-sent event, whatever the request asked for.
  z
    .object({
      kind: z.literal("recorded"),
      chunks: z.array(z.string().min(1)).min(1),
      ...targetShape,
    })
    .strict(),
  z
    .object({
      kind: z.literal("cut"),
      /** Content chunks sent before the socket is destroyed (no finish event, no [DONE]). */
      afterChunks: nonNegativeInt,
      /** Text whose first chunks are sent; defaults to the default reply's text. */
      text: z.string().optional(),
      ...timingShape,
      ...targetShape,
    })
    .strict(),
]);

export const scriptRequestSchema = z.object({ replies: z.array(scriptedReplySchema) }).strict();

export type ScriptedReply = z.input<typeof scriptedReplySchema>;
export type ScriptedUsage = z.input<typeof usageSchema>;
