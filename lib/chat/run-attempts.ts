// The attempts of one turn: the persona's model, retried on 429/5xx with backoff that honours
// retry-after, then each fallback model. Phase B runs per attempt, so each model gets its own resolution and wire
// format. Every attempt is recorded as it ends, failed ones included. Text streams to the writer as it arrives.

import { APICallError, type ToolSet, type UIMessageStreamWriter } from "ai";
import type { Database } from "@/db/client";
import type { Model } from "@/db/schema";
import { stageClock } from "@/lib/chat/stage-clock";
import { ContextBudgetError, type ResolvedContext, resolveForModel } from "@/lib/context/resolve-for-model";
import type { BaseContext } from "@/lib/context/types";
import { createRequestCapture } from "@/lib/providers/request-capture";
import { offlineRequest, streamModelCall } from "./model-call";
import { type AttemptUsage, recordAttempt } from "./record-attempt";
import type { ReplyPersistence } from "./reply-persistence";
import { toModelDescriptor } from "./stored-rows";
import { MAX_TOOL_STEPS } from "./tools";

/** Retries per model after the first try, for retryable errors (429, 5xx) that happen before any text. */
const RETRIES_PER_MODEL = Number(process.env.GLASSBOX_RETRIES_PER_MODEL ?? 2);
const RETRY_BASE_DELAY_MS = Number(process.env.GLASSBOX_RETRY_BASE_MS ?? 1_000);
/** Never wait longer than this for one retry: a longer retry-after fails the model at once (the next one runs). */
const RETRY_MAX_DELAY_MS = 20_000;

/**
 * How long a provider may keep an attempt waiting: for its first chunk (no headers, or headers and no content),
 * and between chunks once it streams. Past either, the attempt fails with a clear error and retries and fallbacks
 * run. Without these, a provider that stalls holds the turn for undici's five minutes.
 */
export function providerTimeouts() {
  return {
    firstChunkMs: Number(process.env.PROVIDER_FIRST_CHUNK_TIMEOUT_MS || 60_000),
    chunkMs: Number(process.env.PROVIDER_CHUNK_TIMEOUT_MS || 30_000),
  };
}

export interface AttemptsOutcome {
  /** `stopped`: the user stopped the reply (the provider request was aborted). */
  status: "ok" | "error" | "interrupted" | "stopped";
  error?: { code: string; message: string };
  attemptCount: number;
}

export async function runAttempts({
  db,
  turnId,
  base,
  settingsVersion,
  modelRows,
  enabledToolNames,
  reply,
  writer,
  turnReady = Promise.resolve(),
  firstResolved,
  tools,
  stopSignal,
}: {
  db: Database;
  turnId: string;
  /** Resolves once the turn row exists; attempts are recorded after it (the row is inserted during the call). */
  turnReady?: Promise<void>;
  /** Phase B for the first model, when the caller already resolved it (pure, so it can be reused as is). */
  firstResolved?: ResolvedContext;
  base: BaseContext;
  settingsVersion: number;
  modelRows: Model[];
  enabledToolNames: string[];
  reply: ReplyPersistence;
  writer: SafeWriter;
  /** The reply's tools; the tool loop runs within each attempt, up to MAX_TOOL_STEPS model calls. */
  tools?: ToolSet;
  /** Aborted when the user stops the reply: the provider request is aborted and no other attempt runs. */
  stopSignal?: AbortSignal;
}): Promise<AttemptsOutcome> {
  let attemptNumber = 0;
  let lastError: { code: string; message: string } = {
    code: "no_model",
    message: "No usable model is configured.",
  };

  for (const modelRow of modelRows) {
    const model = toModelDescriptor(modelRow);
    for (let retry = 0; retry <= RETRIES_PER_MODEL; retry++) {
      if (stopSignal?.aborted) return { status: "stopped", attemptCount: attemptNumber };
      attemptNumber++;
      const queuedAt = new Date();
      const started = performance.now();
      let resolved: ResolvedContext;
      try {
        resolved =
          attemptNumber === 1 && firstResolved && firstResolved.model.id === model.id
            ? firstResolved
            : resolveForModel(base, model, { enabledToolNames, clock: stageClock });
      } catch (error) {
        if (!(error instanceof ContextBudgetError)) throw error;
        lastError = { code: "context_too_large", message: error.message };
        await turnReady;
        await recordAttempt(db, {
          turnId,
          attemptNumber,
          modelId: model.id,
          status: "error",
          error: lastError,
          resolved: null,
          base,
          settingsVersion,
          requests: [],
          response: null,
          timings: { queuedAt: queuedAt.toISOString() },
        });
        break; // this model cannot take the input: try the next one
      }

      const capture = createRequestCapture();
      const timeouts = providerTimeouts();
      // The SDK's firstChunkMs starts once the provider has answered with headers: a provider that sends nothing
      // at all would hold the attempt forever. This timer covers the wait from the request on, until content.
      const firstChunk = new AbortController();
      const firstChunkTimer = setTimeout(
        () => firstChunk.abort(new Error("first chunk timeout")),
        timeouts.firstChunkMs,
      );
      const result = streamModelCall({
        model,
        resolved,
        fetch: capture.fetch,
        tools,
        maxSteps: MAX_TOOL_STEPS,
        abortSignal: stopSignal ? AbortSignal.any([stopSignal, firstChunk.signal]) : firstChunk.signal,
        timeout: timeouts,
      });

      let text = "";
      let firstTokenMs: number | undefined;
      let streamError: unknown = null;
      let finishReason: string | null = null;
      let usage: AttemptUsage | null = null;
      let requestBody: unknown;
      let stopped = false;
      const textId = `text-${attemptNumber}`;
      // The tools this attempt called, shown under the reply as they are used.
      const toolNames: string[] = [];

      try {
        for await (const part of result.fullStream) {
          if (part.type !== "start" && part.type !== "start-step") clearTimeout(firstChunkTimer);
          if (part.type === "start-step") requestBody = part.request.body;
          else if (part.type === "text-delta") {
            if (firstTokenMs === undefined) {
              firstTokenMs = performance.now() - started;
              writer.write({ type: "text-start", id: textId });
            }
            text += part.text;
            reply.append(part.text);
            writer.write({ type: "text-delta", id: textId, delta: part.text });
          } else if (part.type === "tool-call") {
            reply.toolCall(part.toolCallId, part.toolName, part.input);
            if (!toolNames.includes(part.toolName)) {
              toolNames.push(part.toolName);
              writer.write({ type: "message-metadata", messageMetadata: { toolNames: [...toolNames] } });
            }
          } else if (part.type === "tool-result") {
            reply.toolOutput(part.toolCallId, part.toolName, part.output);
          } else if (part.type === "tool-error") {
            // The model is told the tool failed; the error is what it was given as the output.
            const message = part.error instanceof Error ? part.error.message : String(part.error);
            reply.toolOutput(part.toolCallId, part.toolName, { error: message });
          } else if (part.type === "finish") {
            finishReason = part.finishReason;
            usage = {
              inputTokens: part.totalUsage.inputTokens,
              outputTokens: part.totalUsage.outputTokens,
              cachedInputTokens: part.totalUsage.inputTokenDetails?.cacheReadTokens,
            };
          } else if (part.type === "error") {
            streamError = part.error;
          } else if (part.type === "abort") {
            // Our stop, or one of the provider timeouts (they abort the call the same way).
            if (stopSignal?.aborted) stopped = true;
            else streamError = new ProviderTimeoutError(part.reason);
          }
        }
      } catch (error) {
        // A stream cut mid-way surfaces as a throw from the iterator, not as an error part.
        if (stopSignal?.aborted) stopped = true;
        else streamError = error;
      }
      clearTimeout(firstChunkTimer);
      if (firstChunk.signal.aborted && !stopped) {
        streamError = new ProviderTimeoutError(`nothing within ${timeouts.firstChunkMs} ms of the request`);
      }
      if (firstTokenMs !== undefined) writer.write({ type: "text-end", id: textId });

      const requests =
        capture.requests.length > 0
          ? capture.requests
          : [offlineRequest(model.providerModelName, requestBody, queuedAt.getTime())];
      const failed = !stopped && streamError !== null;
      const error = failed ? describeError(streamError) : null;
      await turnReady;
      await recordAttempt(db, {
        turnId,
        attemptNumber,
        modelId: model.id,
        status: stopped ? "stopped" : failed ? "error" : "ok",
        error,
        resolved,
        base,
        settingsVersion,
        requests,
        response: { text, finishReason, usage },
        timings: {
          queuedAt: queuedAt.toISOString(),
          firstByteMs: requests[0]?.firstByteMs ?? undefined,
          firstTokenMs,
          doneMs: performance.now() - started,
        },
      });

      if (stopped) return { status: "stopped", attemptCount: attemptNumber };
      if (!failed) return { status: "ok", attemptCount: attemptNumber };
      lastError = error ?? lastError;
      // Text already reached the user: the reply is kept as interrupted rather than silently replaced.
      if (text.length > 0) return { status: "interrupted", error: lastError, attemptCount: attemptNumber };
      if (!isRetryable(streamError) || retry === RETRIES_PER_MODEL) break;
      const delay = retryDelayMs(streamError, retry);
      // The provider asks for a longer wait than we would make the user sit through: try the next model now,
      // and say why if none is left.
      if (delay === null) {
        lastError = {
          code: "rate_limited",
          message: `${model.id} is rate limited and asked to wait ${Math.round((askedDelayMs(streamError) ?? 0) / 1_000)} s, longer than the ${Math.round(RETRY_MAX_DELAY_MS / 1_000)} s a reply waits: try again later.`,
        };
        break;
      }
      await sleep(delay, stopSignal);
    }
  }
  return { status: "error", error: lastError, attemptCount: attemptNumber };
}

/** A writer that outlives the browser: once the client has gone, writes are dropped and generation goes on. */
export interface SafeWriter {
  write: UIMessageStreamWriter["write"];
}

export function safeWriter(writer: UIMessageStreamWriter): SafeWriter {
  let open = true;
  return {
    write(chunk) {
      if (!open) return;
      try {
        writer.write(chunk);
      } catch {
        open = false;
      }
    },
  };
}

function isRetryable(error: unknown): boolean {
  if (error instanceof ProviderTimeoutError) return true; // only reached when no text was streamed
  if (isStreamBreak(error)) return true; // only reached when no text was streamed: safe to try again
  return APICallError.isInstance(error) && (error.statusCode === 429 || (error.statusCode ?? 0) >= 500);
}

/** The provider answered 2xx and its stream then failed (a cut connection): the SDK reports the HTTP status it got. */
function isStreamBreak(error: unknown): error is APICallError {
  return APICallError.isInstance(error) && error.statusCode !== undefined && error.statusCode < 300;
}

/** "terminated: other side closed": the messages down an error's cause chain, which say what actually happened. */
function causeMessages(error: unknown): string {
  const messages: string[] = [];
  let cause = (error as { cause?: unknown })?.cause;
  while (cause instanceof Error && messages.length < 4) {
    if (cause.message) messages.push(cause.message);
    cause = cause.cause;
  }
  return messages.join(": ") || "no reason given";
}

/** The wait the provider asked for (retry-after-ms, else retry-after in seconds), or null when it asked none. */
function askedDelayMs(error: unknown): number | null {
  const headers = APICallError.isInstance(error) ? (error.responseHeaders ?? {}) : {};
  for (const [name, unitMs] of [
    ["retry-after-ms", 1],
    ["retry-after", 1_000],
  ] as const) {
    const value = Number(headers[name]);
    if (headers[name] !== undefined && Number.isFinite(value) && value >= 0) return value * unitMs;
  }
  return null;
}

/** How long to wait before the next try, or null when the provider asks for longer than RETRY_MAX_DELAY_MS. */
function retryDelayMs(error: unknown, retry: number): number | null {
  const asked = askedDelayMs(error);
  if (asked !== null) return asked > RETRY_MAX_DELAY_MS ? null : asked;
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** retry, RETRY_MAX_DELAY_MS);
}

/** The provider sent nothing for longer than providerTimeouts() allow. */
class ProviderTimeoutError extends Error {
  constructor(reason: string | undefined) {
    const { firstChunkMs, chunkMs } = providerTimeouts();
    super(
      `The provider sent nothing for too long (${reason ?? "timed out"}): the first chunk may take ${firstChunkMs} ms, and then ${chunkMs} ms between chunks.`,
    );
    this.name = "ProviderTimeoutError";
  }
}

function describeError(error: unknown): { code: string; message: string; status?: number } {
  if (isStreamBreak(error)) {
    return {
      code: "stream_interrupted",
      message: `The provider's stream broke off before the reply was finished (${causeMessages(error)}).`,
    };
  }
  if (APICallError.isInstance(error)) {
    return {
      code: error.statusCode === 429 ? "rate_limited" : "provider_error",
      message: `${error.statusCode ?? "network"}: ${error.message}`,
      status: error.statusCode,
    };
  }
  if (error instanceof ProviderTimeoutError) return { code: "provider_timeout", message: error.message };
  if (error instanceof Error) return { code: "stream_error", message: error.message };
  return { code: "stream_error", message: String(error) };
}

/** Wait, or stop waiting as soon as the signal aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
