// The attempts of one turn (SPEC §6.1 step 5): the persona's model, retried on 429/5xx with backoff that honours
// retry-after, then each fallback model. Phase B runs per attempt, so each model gets its own resolution and wire
// format. Every attempt is recorded as it ends, failed ones included. Text streams to the writer as it arrives.

import { APICallError, type ToolSet, type UIMessageStreamWriter } from "ai";
import type { Database } from "@/db/client";
import type { Model } from "@/db/schema";
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
/** Never wait longer than this for one retry, whatever retry-after says. */
const RETRY_MAX_DELAY_MS = 20_000;

export interface AttemptsOutcome {
  status: "ok" | "error" | "interrupted";
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
}): Promise<AttemptsOutcome> {
  let attemptNumber = 0;
  let lastError: { code: string; message: string } = {
    code: "no_model",
    message: "No usable model is configured.",
  };

  for (const modelRow of modelRows) {
    const model = toModelDescriptor(modelRow);
    for (let retry = 0; retry <= RETRIES_PER_MODEL; retry++) {
      attemptNumber++;
      const queuedAt = new Date();
      const started = performance.now();
      let resolved: ResolvedContext;
      try {
        resolved =
          attemptNumber === 1 && firstResolved && firstResolved.model.id === model.id
            ? firstResolved
            : resolveForModel(base, model, { enabledToolNames });
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
      const result = streamModelCall({
        model,
        resolved,
        fetch: capture.fetch,
        tools,
        maxSteps: MAX_TOOL_STEPS,
      });

      let text = "";
      let firstTokenMs: number | undefined;
      let streamError: unknown = null;
      let finishReason: string | null = null;
      let usage: AttemptUsage | null = null;
      let requestBody: unknown;
      const textId = `text-${attemptNumber}`;
      // The tools this attempt called, shown under the reply as they are used.
      const toolNames: string[] = [];

      try {
        for await (const part of result.fullStream) {
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
          }
        }
      } catch (error) {
        // A stream cut mid-way surfaces as a throw from the iterator, not as an error part.
        streamError = error;
      }
      if (firstTokenMs !== undefined) writer.write({ type: "text-end", id: textId });

      const requests =
        capture.requests.length > 0
          ? capture.requests
          : [offlineRequest(model.providerModelName, requestBody, queuedAt.getTime())];
      const failed = streamError !== null;
      const error = failed ? describeError(streamError) : null;
      await turnReady;
      await recordAttempt(db, {
        turnId,
        attemptNumber,
        modelId: model.id,
        status: failed ? "error" : "ok",
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

      if (!failed) return { status: "ok", attemptCount: attemptNumber };
      lastError = error ?? lastError;
      // Text already reached the user: the reply is kept as interrupted rather than silently replaced.
      if (text.length > 0) return { status: "interrupted", error: lastError, attemptCount: attemptNumber };
      if (!isRetryable(streamError) || retry === RETRIES_PER_MODEL) break;
      await sleep(retryDelayMs(streamError, retry));
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

function retryDelayMs(error: unknown, retry: number): number {
  const headers = APICallError.isInstance(error) ? (error.responseHeaders ?? {}) : {};
  const retryAfterMs = Number(headers["retry-after-ms"]);
  if (Number.isFinite(retryAfterMs) && retryAfterMs >= 0) return Math.min(retryAfterMs, RETRY_MAX_DELAY_MS);
  const retryAfterSeconds = Number(headers["retry-after"]);
  if (Number.isFinite(retryAfterSeconds) && retryAfterSeconds >= 0) {
    return Math.min(retryAfterSeconds * 1_000, RETRY_MAX_DELAY_MS);
  }
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** retry, RETRY_MAX_DELAY_MS);
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
  if (error instanceof Error) return { code: "stream_error", message: error.message };
  return { code: "stream_error", message: String(error) };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
