// The contract each wire protocol implements: how to recognise its requests and encode answers and errors.
import { asRecord, asString } from "../json-fields";
import type { RecordedMedia } from "../media-parts";
import type { Answer, Protocol, TokenUsage } from "../types";

/** What the URL path alone says about a request. */
export interface RouteMatch {
  /** Model named in the path (Gemini), otherwise null. */
  modelFromPath: string | null;
  /** Whether the path selects streaming (Gemini), or null when the body decides (OpenAI). */
  streamingFromPath: boolean | null;
}

export interface EncodeContext {
  requestId: number;
  model: string;
  /** Epoch seconds, as OpenAI's `created` / `created_at`. */
  createdAt: number;
  /** The parsed request body (some replies depend on request options, e.g. `stream_options`). */
  requestBody: unknown;
}

/** A streamed reply as ready-to-write SSE text, split where the writer may pause or cut. */
export interface StreamPlan {
  /** Sent as soon as the stream opens. */
  head: string;
  /**
   * The reasoning before the answer (sent after `head`, spread over `durationMs`); its last chunk also opens the
   * answer's content. Absent when the answer has no reasoning or the protocol sends none.
   */
  thinking?: { chunks: string[]; durationMs: number };
  /** One entry per content chunk. */
  chunks: string[];
  /** Finish, usage and end-of-stream frames. */
  tail: string;
}

export interface ErrorDetails {
  status: number;
  /** Overrides the provider's usual message for the status. */
  message?: string;
  /** The delay also announced in the retry-after headers. */
  retryAfterMs?: number;
}

export interface ProtocolAdapter {
  readonly protocol: Protocol;
  /** Null when this protocol does not serve the path. */
  matchPath(pathname: string): RouteMatch | null;
  requestModel(body: unknown, route: RouteMatch): string | null;
  isStreaming(body: unknown, route: RouteMatch): boolean;
  /** Text of the last user turn, for the default reply. */
  lastUserText(body: unknown): string;
  /** The media parts of the body as recorded (`RecordedRequest.media`); a protocol without it records none. */
  mediaParts?(body: unknown): RecordedMedia[];
  /** The provider's own JSON error shape. */
  errorBody(error: ErrorDetails): unknown;
  /** `pieces` is the answer's text (or tool arguments JSON) already split into chunks. */
  streamPlan(answer: Answer, pieces: string[], usage: TokenUsage, context: EncodeContext): StreamPlan;
  /** Whether the provider caches prompt prefixes at `cache_control` breakpoints (Anthropic): the fake then
   *  reports cache reads and writes from its memory of earlier requests (prompt-cache.ts). */
  readonly cachesPromptPrefixes?: boolean;
  jsonResponse(answer: Answer, usage: TokenUsage, context: EncodeContext): unknown;
}

/** Routing of a protocol whose body names the model and asks for streaming (`model`, `stream: true`), served at
 *  paths ending in `pathSuffix`: OpenAI's and Anthropic's. */
export function routedByBody(
  pathSuffix: string,
): Pick<ProtocolAdapter, "matchPath" | "requestModel" | "isStreaming"> {
  return {
    matchPath: (pathname) =>
      pathname.endsWith(pathSuffix) ? { modelFromPath: null, streamingFromPath: null } : null,
    requestModel: (body) => asString(asRecord(body)?.model) ?? null,
    isStreaming: (body) => asRecord(body)?.stream === true,
  };
}
