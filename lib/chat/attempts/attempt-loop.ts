// The one retry and fallback policy for every model call (replies, summaries, titles, write-as-me drafts): each
// model in order, retried on 429/5xx, timeouts and broken streams with backoff that honours retry-after up to a
// cap, then the next model. What one attempt does (stream a reply, or generate a text) is the caller's; each
// attempt records itself. See docs/architecture.md, "Attempts".

import "server-only";
import { STATUS_CODES } from "node:http";
import { APICallError } from "ai";
import { env } from "@/lib/config/env";
import type { ModelDescriptor } from "@/lib/domain/types";

/** Never wait longer than this for one retry: a longer retry-after fails the model at once (the next one runs). */
const RETRY_MAX_DELAY_MS = 20_000;

/**
 * How long a provider may keep an attempt waiting: for its first chunk (no headers, or headers and no content),
 * and between chunks once it streams. Past either, the attempt fails with a clear error and retries and fallbacks
 * run. Without these, a provider that stalls holds the call for undici's five minutes.
 */
export function providerTimeouts() {
  return {
    firstChunkMs: env().PROVIDER_FIRST_CHUNK_TIMEOUT_MS,
    chunkMs: env().PROVIDER_CHUNK_TIMEOUT_MS,
  };
}

export interface AttemptError {
  code: string;
  message: string;
  status?: number;
}

/** How one attempt ended, as its caller reports it to the loop. */
export type AttemptEnd<Value> =
  | { status: "ok"; value: Value }
  | { status: "stopped" }
  /** `partial`: output already reached the user, so the call is not tried again (it ends `interrupted`). */
  | { status: "failed"; error: unknown; partial?: boolean }
  /** This model cannot take the input at all (it does not fit): the next model runs, without retries. */
  | { status: "unfit"; error: AttemptError };

export type LoopOutcome<Value> =
  | { status: "ok"; value: Value; attemptCount: number }
  | { status: "stopped"; attemptCount: number }
  | { status: "interrupted" | "error"; error: AttemptError; attemptCount: number };

/** What the loop does next after a failed attempt, told before it waits or moves on (the reply shows it). */
export type LoopProgress =
  | { kind: "retry"; model: ModelDescriptor; error: AttemptError; delayMs: number }
  | { kind: "fallback"; from: ModelDescriptor; to: ModelDescriptor; error: AttemptError };

export async function runAttemptLoop<Value>({
  models,
  attempt,
  stopSignal,
  onProgress,
}: {
  /** The models to try, first one first. */
  models: ModelDescriptor[];
  /** Runs and records one attempt; `attemptNumber` counts from 1 across models. */
  attempt: (model: ModelDescriptor, attemptNumber: number) => Promise<AttemptEnd<Value>>;
  /** Aborted when the user stops: no other attempt runs and a retry wait ends at once. */
  stopSignal?: AbortSignal;
  onProgress?: (progress: LoopProgress) => void;
}): Promise<LoopOutcome<Value>> {
  let attemptNumber = 0;
  let lastError: AttemptError = { code: "no_model", message: "No usable model is configured." };
  for (const [index, model] of models.entries()) {
    if (index > 0 && attemptNumber > 0) {
      onProgress?.({ kind: "fallback", from: models[index - 1], to: model, error: lastError });
    }
    for (let retry = 0; retry <= env().GLASSBOX_RETRIES_PER_MODEL; retry++) {
      if (stopSignal?.aborted) return { status: "stopped", attemptCount: attemptNumber };
      attemptNumber++;
      const end = await attempt(model, attemptNumber);
      if (end.status === "ok") return { status: "ok", value: end.value, attemptCount: attemptNumber };
      if (end.status === "stopped") return { status: "stopped", attemptCount: attemptNumber };
      if (end.status === "unfit") {
        lastError = end.error;
        break;
      }
      lastError = describeAttemptError(end.error);
      if (end.partial) return { status: "interrupted", error: lastError, attemptCount: attemptNumber };
      if (!isRetryable(end.error) || retry === env().GLASSBOX_RETRIES_PER_MODEL) break;
      const delay = retryDelayMs(end.error, retry);
      // The provider asks for a longer wait than we would make the user sit through: try the next model now,
      // and say why if none is left.
      if (delay === null) {
        lastError = {
          code: "rate_limited",
          message: `${model.id} is rate limited and asked to wait ${Math.round((askedDelayMs(end.error) ?? 0) / 1_000)} s, longer than the ${Math.round(RETRY_MAX_DELAY_MS / 1_000)} s a model call waits: try again later.`,
        };
        break;
      }
      onProgress?.({ kind: "retry", model, error: lastError, delayMs: delay });
      await sleep(delay, stopSignal);
    }
  }
  return { status: "error", error: lastError, attemptCount: attemptNumber };
}

/** The provider sent nothing for longer than providerTimeouts() (or the caller's own limit) allow. */
export class ProviderTimeoutError extends Error {
  constructor(reason: string | undefined) {
    const { firstChunkMs, chunkMs } = providerTimeouts();
    super(
      `The provider sent nothing for too long (${reason ?? "timed out"}): the first chunk may take ${firstChunkMs} ms, and then ${chunkMs} ms between chunks.`,
    );
    this.name = "ProviderTimeoutError";
  }
}

/** An error in the words an attempt records and the user reads. */
export function describeAttemptError(error: unknown): AttemptError {
  if (isStreamBreak(error)) {
    return {
      code: "stream_interrupted",
      message: `The provider's stream broke off before the reply was finished (${causeMessages(error)}).`,
    };
  }
  if (APICallError.isInstance(error)) {
    return {
      code: error.statusCode === 429 ? "rate_limited" : "provider_error",
      message: providerErrorSentence(error),
      status: error.statusCode,
    };
  }
  if (error instanceof ProviderTimeoutError) return { code: "provider_timeout", message: error.message };
  if (error instanceof Error) return { code: "stream_error", message: error.message };
  return { code: "stream_error", message: String(error) };
}

/**
 * One sentence for a provider's refusal, shown as it is in the chat and the inspector: the status once, with its
 * reason phrase, then the provider's own message when it gave one ("The provider answered 500 (Internal Server
 * Error) with no message.").
 */
function providerErrorSentence(error: APICallError): string {
  const said = providerMessage(error);
  if (error.statusCode === undefined) {
    return said
      ? `The provider could not be reached: ${endSentence(said)}`
      : "The provider could not be reached.";
  }
  const reason = STATUS_CODES[error.statusCode];
  const answered = `The provider answered ${error.statusCode}${reason ? ` (${reason})` : ""}`;
  return said ? `${answered}: ${endSentence(said)}` : `${answered} with no message.`;
}

/**
 * What the provider itself said: the SDK's message, else the message in a JSON body it could not map. A message
 * that only repeats the status or its reason phrase is no message.
 */
function providerMessage(error: APICallError): string {
  const candidates = [error.message, messageInBody(error.responseBody)];
  const status = error.statusCode === undefined ? "" : String(error.statusCode);
  const reason = (error.statusCode !== undefined && STATUS_CODES[error.statusCode]) || "";
  for (const candidate of candidates) {
    const trimmed = candidate?.trim() ?? "";
    const text =
      status && trimmed.startsWith(`${status}:`) ? trimmed.slice(status.length + 1).trim() : trimmed;
    if (text && text !== status && text.toLowerCase() !== reason.toLowerCase()) return text;
  }
  return "";
}

function messageInBody(body: string | undefined): string | undefined {
  if (!body?.trim()) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown } | null;
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const nested = parsed.error as { message?: unknown } | string | undefined;
    if (typeof nested === "string") return nested;
    if (typeof nested?.message === "string") return nested.message;
    if (typeof parsed.message === "string") return parsed.message;
  } catch {
    // Not JSON: a plain-text body is the provider's message as it is (capped, an HTML error page is not a sentence).
    if (!body.trimStart().startsWith("<")) return body.trim().slice(0, 300);
  }
  return undefined;
}

function endSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function isRetryable(error: unknown): boolean {
  if (error instanceof ProviderTimeoutError) return true; // only reached when no output was shown
  if (isStreamBreak(error)) return true; // only reached when no output was shown: safe to try again
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
  return Math.min(env().GLASSBOX_RETRY_BASE_MS * 2 ** retry, RETRY_MAX_DELAY_MS);
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
