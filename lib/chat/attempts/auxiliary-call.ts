// A model call that answers no turn (a summary, a title, a write-as-me draft): generated whole, through the same
// attempt loop as a reply (retries, fallbacks, timeouts), each try recorded as an attempt of its kind under the
// conversation, with the exact request bodies the provider received.

import "server-only";
import type { Database } from "@/db/client";
import { ContextBudgetError } from "@/lib/context/resolve-for-model";
import type { AttemptKind, BaseContext, ModelDescriptor } from "@/lib/domain/types";
import { type CapturedRequest, createRequestCapture } from "@/lib/providers/request-capture";
import { warningText } from "@/lib/providers/wire-reconciliation";
import {
  type AttemptEnd,
  describeAttemptError,
  type LoopOutcome,
  ProviderTimeoutError,
  runAttemptLoop,
} from "./attempt-loop";
import { type GenerateRequest, generateModelCall, offlineRequest, plainRequestItems } from "./model-call";
import { type AttemptUsage, attemptUsage, recordAttempt } from "./record-attempt";

export interface AuxiliaryAnswer {
  text: string;
  modelId: string;
  attemptId: string;
}

/** An answer that came back but cannot be used (empty): the next model is tried, this one is not retried. */
class UnusableAnswerError extends Error {}

export async function runAuxiliaryCall({
  db,
  conversationId,
  kind,
  models,
  context,
  settingsVersion,
  prepare,
  offlineText,
  unusable,
  timeoutMs,
}: {
  db: Database;
  conversationId: string;
  kind: Exclude<AttemptKind, "reply" | "replay">;
  /** The models to try, first one first. */
  models: ModelDescriptor[];
  /** What the call is built from, recorded with each attempt: phase A's context, or only the settings in force. */
  context: Pick<BaseContext, "items" | "trace" | "settings" | "stageTimings">;
  settingsVersion: number;
  /** The request for one model (phase B for a pipeline call); a ContextBudgetError skips to the next model. */
  prepare: (model: ModelDescriptor) => GenerateRequest;
  /** The offline model's answer, when it has its own deterministic one rather than a model call. */
  offlineText?: () => string;
  /** Why an answer cannot be used (it is empty), or null when it can. */
  unusable?: (text: string) => string | null;
  /** How long one try may take, start to end. */
  timeoutMs: number;
}): Promise<Exclude<LoopOutcome<AuxiliaryAnswer>, { status: "stopped" }>> {
  const outcome = await runAttemptLoop({
    models,
    attempt: async (model, attemptNumber): Promise<AttemptEnd<AuxiliaryAnswer>> => {
      const queuedAt = new Date();
      const started = performance.now();
      const record = (fields: {
        status: "ok" | "error";
        error: { code: string; message: string; status?: number } | null;
        request: GenerateRequest | null;
        requests: CapturedRequest[];
        /** The adapter's warnings for the call's one request. */
        warnings?: string[];
        response: { text: string; finishReason: string | null; usage: AttemptUsage | null } | null;
      }) =>
        recordAttempt(db, {
          conversationId,
          turnId: null,
          kind,
          attemptNumber,
          modelId: model.id,
          status: fields.status,
          error: fields.error,
          resolved: fields.request && "resolved" in fields.request ? fields.request.resolved : null,
          // A plain request has no pipeline items: it records the two it sends, so its inspector is not empty.
          base:
            fields.request && !("resolved" in fields.request)
              ? { ...context, items: plainRequestItems(fields.request, model) }
              : context,
          settingsVersion,
          requests: fields.requests,
          steps: [{ addedItems: [], warnings: fields.warnings ?? [] }],
          response: fields.response,
          timings: {
            queuedAt: queuedAt.toISOString(),
            firstByteMs: fields.requests[0]?.firstByteMs ?? undefined,
            doneMs: performance.now() - started,
          },
        });

      let request: GenerateRequest;
      try {
        request = prepare(model);
      } catch (error) {
        if (!(error instanceof ContextBudgetError)) throw error;
        const unfit = { code: "context_too_large", message: error.message };
        await record({ status: "error", error: unfit, request: null, requests: [], response: null });
        return { status: "unfit", error: unfit };
      }

      const called = await callOnce(model, request, offlineText, timeoutMs, queuedAt);
      if (called.error !== null) {
        await record({
          status: "error",
          error: describeAttemptError(called.error),
          request,
          requests: called.requests,
          response: null,
        });
        return { status: "failed", error: called.error };
      }
      const attemptId = await record({
        status: "ok",
        error: null,
        request,
        requests: called.requests,
        warnings: called.warnings,
        response: { text: called.text, finishReason: called.finishReason, usage: called.usage },
      });
      const reason = unusable?.(called.text) ?? null;
      if (reason !== null)
        return { status: "failed", error: new UnusableAnswerError(`${model.id}: ${reason}`) };
      return { status: "ok", value: { text: called.text, modelId: model.id, attemptId } };
    },
  });
  // Nothing stops an auxiliary call but its timeout, which fails the attempt.
  if (outcome.status === "stopped") throw new Error("an auxiliary call has no stop signal");
  return outcome;
}

interface CallResult {
  text: string;
  finishReason: string | null;
  usage: AttemptUsage | null;
  requests: CapturedRequest[];
  warnings?: string[];
  /** Null when the call answered. */
  error: unknown;
}

async function callOnce(
  model: ModelDescriptor,
  request: GenerateRequest,
  offlineText: (() => string) | undefined,
  timeoutMs: number,
  queuedAt: Date,
): Promise<CallResult> {
  if (model.provider === "offline" && offlineText) {
    // No HTTP: the recorded "request" is what the offline model was given.
    const body = "resolved" in request ? request.resolved.request : request;
    return {
      text: offlineText(),
      finishReason: "stop",
      usage: null,
      requests: [offlineRequest(model.providerModelName, body, queuedAt.getTime())],
      error: null,
    };
  }
  const capture = createRequestCapture();
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(new Error("timeout")), timeoutMs);
  try {
    const result = await generateModelCall({
      model,
      request,
      fetch: capture.fetch,
      abortSignal: timer.signal,
    });
    const requests =
      capture.requests.length > 0
        ? capture.requests
        : [offlineRequest(model.providerModelName, result.request.body, queuedAt.getTime())];
    return {
      text: result.text,
      finishReason: result.finishReason,
      usage: attemptUsage(result.totalUsage),
      requests,
      warnings: (result.warnings ?? []).map(warningText),
      error: null,
    };
  } catch (error) {
    return {
      text: "",
      finishReason: null,
      usage: null,
      requests: capture.requests,
      error: timer.signal.aborted ? new ProviderTimeoutError(`no answer within ${timeoutMs} ms`) : error,
    };
  } finally {
    clearTimeout(timeout);
  }
}
