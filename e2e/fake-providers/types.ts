// Shared shapes of the fake provider servers: what they record and what they answer with.
import type { RecordedMedia } from "./media-parts";

export const PROTOCOLS = ["openai-chat", "openai-responses", "gemini", "anthropic"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** One HTTP request a fake provider received. Secrets are removed from `headers`, never stored. */
export interface RecordedRequest {
  id: number;
  /** "unknown" for a path no protocol serves (answered with 404, recorded to ease debugging). */
  protocol: Protocol | "unknown";
  method: string;
  /** Path with query string, e.g. "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse". */
  path: string;
  /** Lower-cased header names, multi-valued headers joined with ", ". */
  headers: Record<string, string>;
  /** Names of secret headers the request carried and that were removed from `headers`. */
  strippedHeaders: string[];
  /** The raw request body as utf8, exactly as received. */
  body: string;
  /** Model named by the request (body field or URL path), when it could be read. */
  model: string | null;
  /** The images, documents, audio and video the body carries, in the protocol's own part shapes. */
  media: RecordedMedia[];
  /** Epoch milliseconds, with a fraction (a benchmark times a request's arrival from another process). */
  receivedAt: number;
  /** When the client closed the connection before the reply was finished (a stop, a timeout), else null. */
  closedByClientAt: number | null;
}

/** Token counts in provider-neutral terms; `inputTokens` includes the cache reads and writes (Anthropic's wire
 *  format counts them apart, its adapter subtracts them). */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Written to the prompt cache; only Anthropic reports it. */
  cacheWriteTokens: number;
  /** Of the output tokens, those spent reasoning. */
  reasoningTokens: number;
}

/** The model's reasoning before its answer, as the protocols that reason send it. */
export interface AnswerReasoning {
  /** The reasoning's text (a Responses summary, Gemini's thought summary); empty: the provider hides it. */
  text: string;
  /** Responses: the item's `encrypted_content`, sent only when the request's `include` asks for it. */
  encryptedContent?: string;
  /** How long the model thinks: the reasoning's chunks are spread over this time. */
  durationMs: number;
}

/** What the provider attaches to the answer besides its content. */
interface AnswerTags {
  reasoning?: AnswerReasoning;
  /** Gemini: the `thoughtSignature` on the function call, or on the first text part. */
  thoughtSignature?: string;
}

/** What a successful reply carries, before a protocol encodes it. */
export type Answer = (
  | { kind: "text"; text: string }
  | { kind: "tool-call"; toolName: string; input: unknown; callId: string }
) &
  AnswerTags;
