// The attempts of one reply, run by the shared attempt loop (attempt-loop.ts): per attempt, phase B for its model
// (so each model gets its own resolution and wire format), the streamed call with its tool loop, and the record.
// Every attempt is recorded as it ends, failed ones included. Text streams to the writer as it arrives.

import "server-only";
import type { ToolChoice, ToolSet } from "ai";
import { v7 as uuidv7 } from "uuid";
import type { Database } from "@/db/client";
import type { Model } from "@/db/schema";
import type { ReplyWriter } from "@/lib/chat/turn/reply-events";
import type { ReplyPersistence, ToolResultSource } from "@/lib/chat/turn/reply-persistence";
import { stageClock } from "@/lib/chat/turn/stage-clock";
import { toModelDescriptor } from "@/lib/chat/turn/stored-rows";
import { ToolLoopSteps } from "@/lib/chat/turn/tool-loop-steps";
import { MAX_TOOL_STEPS } from "@/lib/chat/turn/tools";
import { ContextBudgetError, type ResolvedContext, resolveForModel } from "@/lib/context/resolve-for-model";
import type { BaseContext, ModelDescriptor } from "@/lib/domain/types";
import { createRequestCapture } from "@/lib/providers/request-capture";
import { warningText } from "@/lib/providers/wire-reconciliation";
import {
  type AttemptEnd,
  type AttemptError,
  describeAttemptError,
  type LoopProgress,
  ProviderTimeoutError,
  providerTimeouts,
  runAttemptLoop,
} from "./attempt-loop";
import { offlineRequest, streamModelCall } from "./model-call";
import {
  type AttemptRecord,
  type AttemptStep,
  type AttemptUsage,
  attemptUsage,
  recordAttempt,
} from "./record-attempt";

export interface AttemptsOutcome {
  /** `stopped`: the user stopped the reply (the provider request was aborted). */
  status: "ok" | "error" | "interrupted" | "stopped";
  error?: { code: string; message: string };
  attemptCount: number;
}

export interface ReplyAttempts {
  db: Database;
  conversationId: string;
  turnId: string;
  /** Resolves once the turn row exists; attempts are recorded after it (the row is inserted during the call). */
  turnReady?: Promise<unknown>;
  /** Phase B for the first model, when the caller already resolved it (pure, so it can be reused as is). */
  firstResolved?: ResolvedContext;
  base: BaseContext;
  settingsVersion: number;
  modelRows: Model[];
  enabledToolNames: string[];
  reply: ReplyPersistence;
  writer: ReplyWriter;
  /** The reply's tools; the tool loop runs within each attempt, up to MAX_TOOL_STEPS model calls. */
  tools?: ToolSet;
  /** How the model must use the tools (a gateway client's tool_choice); the provider's default without it. */
  toolChoice?: ToolChoice<ToolSet>;
  /** Aborted when the user stops the reply: the provider request is aborted and no other attempt runs. */
  stopSignal?: AbortSignal;
}

export async function runAttempts(input: ReplyAttempts): Promise<AttemptsOutcome> {
  const outcome = await runAttemptLoop({
    models: input.modelRows.map(toModelDescriptor),
    stopSignal: input.stopSignal,
    attempt: (model, attemptNumber) => replyAttempt(input, model, attemptNumber),
    // Shown in place of the waiting dots until the next attempt's first words replace it.
    onProgress: (progress) =>
      input.writer.write({
        type: "message-metadata",
        messageMetadata: { retryProgress: retryProgressText(progress) },
      }),
  });
  if (outcome.status === "ok" || outcome.status === "stopped") {
    return { status: outcome.status, attemptCount: outcome.attemptCount };
  }
  return { status: outcome.status, error: outcome.error, attemptCount: outcome.attemptCount };
}

/** "429 — retrying in 2 s", "gpt-4.1-mini failed — trying gemini-2.5-flash": what the reply waits for. */
function retryProgressText(progress: LoopProgress): string {
  if (progress.kind === "fallback") {
    return `${progress.from.providerModelName} failed — trying ${progress.to.providerModelName}`;
  }
  const wait =
    progress.delayMs < 1_000 ? `${progress.delayMs} ms` : `${Math.round(progress.delayMs / 100) / 10} s`;
  return `${progress.error.status ?? progress.error.code} — retrying in ${wait}`;
}

/** One attempt: phase B, the streamed call, its record. */
async function replyAttempt(
  input: ReplyAttempts,
  model: ModelDescriptor,
  attemptNumber: number,
): Promise<AttemptEnd<undefined>> {
  const { db, base, turnReady = Promise.resolve() } = input;
  const queuedAt = new Date();
  const started = performance.now();
  const attemptId = uuidv7();
  input.writer.attempt?.({ kind: "start", attemptId, modelId: model.id });
  const record = (
    fields: Pick<AttemptRecord, "status" | "error" | "resolved" | "requests" | "response" | "timings"> &
      Partial<Pick<AttemptRecord, "steps">>,
  ) =>
    turnReady.then(() =>
      recordAttempt(db, {
        id: attemptId,
        conversationId: input.conversationId,
        turnId: input.turnId,
        kind: "reply",
        attemptNumber,
        modelId: model.id,
        base,
        settingsVersion: input.settingsVersion,
        ...fields,
      }),
    );

  let resolved: ResolvedContext;
  try {
    resolved =
      attemptNumber === 1 && input.firstResolved && input.firstResolved.model.id === model.id
        ? input.firstResolved
        : resolveForModel(base, model, { enabledToolNames: input.enabledToolNames, clock: stageClock });
  } catch (error) {
    if (!(error instanceof ContextBudgetError)) throw error;
    const unfit: AttemptError = { code: "context_too_large", message: error.message };
    await record({
      status: "error",
      error: unfit,
      resolved: null,
      requests: [],
      response: null,
      timings: { queuedAt: queuedAt.toISOString() },
    });
    return { status: "unfit", error: unfit };
  }

  const capture = createRequestCapture();
  const streamed = await streamReply({
    input,
    model,
    resolved,
    fetch: reportFirstRequest(capture.fetch, () =>
      input.writer.attempt?.({ kind: "request", attemptId, modelId: model.id }),
    ),
    attemptNumber,
    started,
  });
  const requests =
    capture.requests.length > 0
      ? capture.requests
      : [offlineRequest(model.providerModelName, streamed.requestBody, queuedAt.getTime())];
  const failed = !streamed.stopped && streamed.error !== null;
  await record({
    status: streamed.stopped ? "stopped" : failed ? "error" : "ok",
    error: failed ? describeAttemptError(streamed.error) : null,
    resolved,
    requests,
    steps: streamed.steps,
    response: { text: streamed.text, finishReason: streamed.finishReason, usage: streamed.usage },
    timings: {
      queuedAt: queuedAt.toISOString(),
      firstByteMs: requests[0]?.firstByteMs ?? undefined,
      firstTokenMs: streamed.firstTokenMs,
      doneMs: performance.now() - started,
    },
  });
  input.writer.attempt?.({
    kind: "end",
    attemptId,
    status: streamed.stopped ? "stopped" : failed ? "error" : "ok",
    finishReason: streamed.finishReason,
    usage: streamed.usage,
  });
  if (streamed.stopped) return { status: "stopped" };
  if (!failed) return { status: "ok", value: undefined };
  // Text already reached the user: the reply is kept as interrupted rather than silently replaced.
  return { status: "failed", error: streamed.error, partial: streamed.text.length > 0 };
}

/** `fetch` that calls `onFirst` as its first request leaves (later tool steps' requests do not). */
function reportFirstRequest(fetch: typeof globalThis.fetch, onFirst: () => void): typeof globalThis.fetch {
  let reported = false;
  return (input, init) => {
    if (!reported) {
      reported = true;
      onFirst();
    }
    return fetch(input, init);
  };
}

interface StreamedReply {
  text: string;
  firstTokenMs: number | undefined;
  /** Null when the stream ended well. */
  error: unknown;
  stopped: boolean;
  finishReason: string | null;
  usage: AttemptUsage | null;
  /** The body of the call's first step, as the SDK reports it (the offline model's only "request"). */
  requestBody: unknown;
  /** Per model call of the tool loop: what the earlier steps added to it, and the adapter's warnings. */
  steps: AttemptStep[];
}

/** Streams one call to the writer and the reply's persistence, with the provider timeouts around it. */
async function streamReply({
  input,
  model,
  resolved,
  fetch,
  attemptNumber,
  started,
}: {
  input: ReplyAttempts;
  model: ModelDescriptor;
  resolved: ResolvedContext;
  fetch: typeof globalThis.fetch;
  attemptNumber: number;
  started: number;
}): Promise<StreamedReply> {
  const { writer, stopSignal } = input;
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
    fetch,
    tools: input.tools,
    toolChoice: input.toolChoice,
    maxSteps: MAX_TOOL_STEPS,
    abortSignal: stopSignal ? AbortSignal.any([stopSignal, firstChunk.signal]) : firstChunk.signal,
    timeout: timeouts,
  });

  const streamed: StreamedReply = {
    text: "",
    firstTokenMs: undefined,
    error: null,
    stopped: false,
    finishReason: null,
    usage: null,
    requestBody: undefined,
    steps: [],
  };
  const reading: ReplyReading = {
    input,
    model,
    started,
    streamed,
    loopSteps: new ToolLoopSteps(model.tokenizer),
    textId: `text-${attemptNumber}`,
    toolNames: [],
    lastCallInputTokens: undefined,
  };
  try {
    for await (const part of result.fullStream) {
      if (part.type !== "start" && part.type !== "start-step") clearTimeout(firstChunkTimer);
      readReplyPart(part, reading);
    }
  } catch (error) {
    // A stream cut mid-way surfaces as a throw from the iterator, not as an error part.
    if (stopSignal?.aborted) streamed.stopped = true;
    else streamed.error = error;
  }
  clearTimeout(firstChunkTimer);
  if (firstChunk.signal.aborted && !streamed.stopped) {
    streamed.error = new ProviderTimeoutError(`nothing within ${timeouts.firstChunkMs} ms of the request`);
  }
  if (streamed.firstTokenMs !== undefined) writer.write({ type: "text-end", id: reading.textId });
  return streamed;
}

/** One attempt's stream as it is read: what it has streamed so far and where each part goes. */
interface ReplyReading {
  input: ReplyAttempts;
  model: ModelDescriptor;
  started: number;
  streamed: StreamedReply;
  loopSteps: ToolLoopSteps;
  textId: string;
  /** The tools this attempt called, shown under the reply as they are used. */
  toolNames: string[];
  lastCallInputTokens: number | undefined;
}

type ReplyStreamPart =
  ReturnType<typeof streamModelCall>["fullStream"] extends AsyncIterable<infer Part> ? Part : never;

/** One part of the stream: to the browser (writer), to the stored reply (persistence) and to the attempt's record. */
function readReplyPart(part: ReplyStreamPart, reading: ReplyReading): void {
  const { input, model, streamed, loopSteps, textId, toolNames } = reading;
  const { writer, reply, stopSignal } = input;
  loopSteps.observe(part);
  if (part.type === "start-step") {
    streamed.requestBody = part.request.body;
    streamed.steps.push({ addedItems: loopSteps.takeAdded(), warnings: part.warnings.map(warningText) });
    reply.stepStarted();
  } else if (part.type === "text-delta") {
    if (streamed.firstTokenMs === undefined) {
      streamed.firstTokenMs = performance.now() - reading.started;
      // The model that answers, and the one it stands in for when an earlier model failed.
      const firstModelId = input.modelRows[0]?.id;
      writer.write({
        type: "message-metadata",
        messageMetadata: {
          modelId: model.id,
          fallbackFromModelId: firstModelId !== model.id ? firstModelId : null,
          retryProgress: null,
        },
      });
      writer.write({ type: "text-start", id: textId });
    }
    streamed.text += part.text;
    reply.append(part.text);
    reply.tagText(part.providerMetadata);
    writer.write({ type: "text-delta", id: textId, delta: part.text });
  } else if (part.type === "text-start" || part.type === "text-end") {
    reply.tagText(part.providerMetadata);
  } else if (part.type === "reasoning-start") {
    reply.reasoningStart(part.id, part.providerMetadata);
  } else if (part.type === "reasoning-delta") {
    reply.reasoningDelta(part.id, part.text, part.providerMetadata);
  } else if (part.type === "reasoning-end") {
    reply.reasoningEnd(part.id, part.providerMetadata);
    // The chat shows "Thought for 4 s" above the reply as soon as the model has thought.
    writer.write({ type: "message-metadata", messageMetadata: { reasoning: reply.reasoning() } });
  } else if (part.type === "tool-call") {
    reply.toolCall(part.toolCallId, part.toolName, part.input, part.providerMetadata);
    writer.toolCall?.({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
    if (!toolNames.includes(part.toolName)) {
      toolNames.push(part.toolName);
      writer.write({ type: "message-metadata", messageMetadata: { toolNames: [...toolNames] } });
    }
  } else if (part.type === "tool-result") {
    reply.toolOutput(part.toolCallId, part.toolName, part.output, toolResultSource(part, model));
  } else if (part.type === "tool-error") {
    // The model is told the tool failed: stored as the error output the loop gave it.
    reply.toolError(part.toolCallId, part.toolName, part.error, toolResultSource(part, model));
  } else if (part.type === "finish-step") {
    // The gauge compares the payload with what the provider counted for the last call, not a sum over steps.
    reading.lastCallInputTokens = part.usage.inputTokens;
  } else if (part.type === "finish") {
    streamed.finishReason = part.finishReason;
    const { lastCallInputTokens } = reading;
    // The sum over the attempt's tool steps: what the attempt cost.
    streamed.usage = {
      ...attemptUsage(part.totalUsage),
      // Kept only when the attempt made several calls (tool steps): otherwise it is the input itself.
      ...(lastCallInputTokens !== undefined && lastCallInputTokens !== part.totalUsage.inputTokens
        ? { lastCallInputTokens }
        : {}),
    };
  } else if (part.type === "error") {
    streamed.error = part.error;
  } else if (part.type === "abort") {
    // Our stop, or one of the provider timeouts (they abort the call the same way).
    if (stopSignal?.aborted) streamed.stopped = true;
    else streamed.error = new ProviderTimeoutError(part.reason);
  }
}

/** Who ran a tool whose result or error streams, and what the provider attached to it. */
function toolResultSource(
  part: { providerExecuted?: boolean; providerMetadata?: ToolResultSource["providerMetadata"] },
  model: ModelDescriptor,
): ToolResultSource {
  return {
    providerMetadata: part.providerMetadata,
    providerExecuted: part.providerExecuted,
    provider: model.provider,
  };
}
