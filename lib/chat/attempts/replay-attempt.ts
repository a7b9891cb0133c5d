// Replay and A/B: one recorded attempt run again, never touching the conversation. Unchanged, the recorded body
// (media put back) goes to the same model byte for byte; with another model or what-if settings, the reply's
// turn is rebuilt as a preview is, up to the turn's user message, and sent. The call is recorded as an attempt of
// kind "replay" (no turn, `replayOf` = the source). See docs/features.md#replay.

import "server-only";
import type { ToolSet } from "ai";
import { loadConversationMediaBySha256 } from "@/db/attachment-queries";
import { getAttemptWithConversation, getTurnUserMessage } from "@/db/attempt-queries";
import type { Database } from "@/db/client";
import type { Attempt } from "@/db/schema";
import type { SessionUser } from "@/lib/api/route";
import { toModelDescriptor } from "@/lib/chat/turn/stored-rows";
import { personaToolSet } from "@/lib/chat/turn/tools";
import {
  loadAndBuild,
  openConversation,
  requireCallableModel,
  resolveOrRefuse,
} from "@/lib/chat/turn/turn-setup";
import { toAttemptViews } from "@/lib/chat/views/attempt-view";
import { AppError, notFound } from "@/lib/domain/errors";
import type { SettingsOverride } from "@/lib/domain/settings";
import type { BaseContext, ModelDescriptor } from "@/lib/domain/types";
import { restoreMedia } from "@/lib/providers/media-elision";
import { type CapturedRequest, createRequestCapture } from "@/lib/providers/request-capture";
import { warningText } from "@/lib/providers/wire-reconciliation";
import { describeAttemptError, ProviderTimeoutError } from "./attempt-loop";
import { type GenerateRequest, generateModelCall, offlineRequest, streamModelCall } from "./model-call";
import { privateMemoriesInPayload, privateMemoriesOfSource } from "./private-memories";
import { type AttemptUsage, attemptUsage, recordAttempt } from "./record-attempt";

/** How long a replay may take, start to end: it is one call the user waits for. */
const REPLAY_TIMEOUT_MS = 120_000;

export interface ReplayOptions {
  /** Another model to send to; the source's model when absent. */
  modelId?: string;
  /** What-if settings, applied as a preview applies them. */
  settings?: SettingsOverride;
  /** What-if persona prompt. */
  systemPrompt?: string;
}

/** The attempt and its conversation, when `userId` may read it; anyone else is told it does not exist (404). */
export async function openReadableAttempt({
  db,
  attemptId,
  userId,
}: {
  db: Database;
  attemptId: string;
  userId: string;
}) {
  const { attempt, conversationId } = await getAttemptWithConversation({ db, attemptId });
  const { conversation, persona } = await openConversation({ db, conversationId, userId }).catch(() => {
    throw notFound("Attempt");
  });
  return { source: attempt, conversation, persona };
}

export type ReadableAttempt = Awaited<ReturnType<typeof openReadableAttempt>>;

export async function replayAttempt({
  db,
  user,
  readable: { source, conversation, persona },
  options,
}: {
  db: Database;
  user: SessionUser;
  readable: ReadableAttempt;
  options: ReplayOptions;
}) {
  const conversationId = conversation.id;
  if (source.kind === "replay") {
    throw new AppError("bad_request", "A replay cannot be replayed: replay the attempt it replays.");
  }
  const modelRow = await requireCallableModel(db, options.modelId ?? source.modelId);
  const model = toModelDescriptor(modelRow);
  const unchanged =
    model.id === source.modelId && options.settings === undefined && options.systemPrompt === undefined;
  if (!unchanged && source.kind !== "reply") {
    throw new AppError(
      "bad_request",
      `Only a reply's attempt can be rebuilt with another model or what-if settings; this one is a ${source.kind}.`,
    );
  }

  const queuedAt = new Date();
  // A reply is streamed, as its turn streamed it (the same body asks for a stream); the other kinds are whole.
  const streamed = source.kind === "reply";
  let base: Pick<BaseContext, "items" | "trace" | "settings" | "stageTimings"> = {
    items: source.items as BaseContext["items"],
    trace: source.trace as BaseContext["trace"],
    settings: source.settings,
  };
  let settingsVersion = source.settingsVersion;
  let request: GenerateRequest = { instructions: "", prompt: "" };
  let tools: ToolSet | undefined;
  // The offline model has no HTTP body to resend: it is always given the rebuilt call.
  const resend = unchanged && model.provider !== "offline" ? await recordedBody(db, source) : null;

  if (streamed) {
    if (source.turnId === null) throw new Error("a reply's attempt has a turn");
    const userMessage = await getTurnUserMessage({ db, turnId: source.turnId });
    if (!userMessage) {
      throw new AppError("bad_request", "The message this reply answered was deleted: it cannot be rebuilt.");
    }
    const replayPersona =
      options.systemPrompt === undefined ? persona : { ...persona, systemPrompt: options.systemPrompt };
    const built = await loadAndBuild({
      db,
      conversation,
      persona: replayPersona,
      currentMessage: userMessage,
      requesterId: user.id,
      settingsOverride: options.settings,
      now: queuedAt,
      models: [modelRow],
    });
    // A resent body records the source's items and settings: they are what that body was built from.
    if (resend === null) {
      base = built.base;
      settingsVersion = built.turnInput.settingsVersion;
    }
    const resolved = resolveOrRefuse(built.base, model, persona.toolNames);
    request = { resolved };
    tools = withoutExecution(personaToolSet(persona, { db, userId: user.id, conversationId }));
  } else if (resend === null) {
    throw new AppError("bad_request", `A ${source.kind} by the offline model has no request to send again.`);
  }

  // Worked out before the call, so a memory edited while the model answers changes nothing: a resent body carries
  // the source's memories and is redacted as the source is (docs/features.md#private-memories); a rebuilt one
  // carries what the build loaded now.
  const privateMemories =
    resend === null
      ? await privateMemoriesInPayload({ db, conversationId, turnId: null, items: base.items })
      : await privateMemoriesOfSource({ db, source });
  const called = await callOnce({ model, request, tools, streamed, resend, queuedAt });
  const replayId = await recordAttempt(db, {
    conversationId,
    turnId: null,
    kind: "replay",
    replayOf: source.id,
    attemptNumber: 1,
    modelId: model.id,
    status: called.error === null ? "ok" : "error",
    error: called.error === null ? null : describeAttemptError(called.error),
    resolved: resend === null && "resolved" in request ? request.resolved : null,
    base,
    settingsVersion,
    requests: called.requests,
    steps: [{ addedItems: [], warnings: called.warnings }],
    response: called.error === null ? called.response : null,
    timings: {
      queuedAt: queuedAt.toISOString(),
      firstByteMs: called.requests[0]?.firstByteMs ?? undefined,
      doneMs: called.doneMs,
    },
    privateMemories,
  });
  const { attempt: replayRow } = await getAttemptWithConversation({ db, attemptId: replayId });
  const [view] = await toAttemptViews({ db, conversationId, attemptRows: [replayRow], readerId: user.id });
  return view;
}

/** The source's last request body as the provider received it, media put back from the attachments. */
async function recordedBody(db: Database, source: Attempt): Promise<string> {
  const last = source.requests.at(-1);
  if (!last) throw new AppError("bad_request", "This attempt sent no request: there is nothing to replay.");
  const media = await loadConversationMediaBySha256({
    db,
    conversationId: source.conversationId,
    sha256s: last.elidedMedia.map((item) => item.sha256),
  });
  return restoreMedia(last.body, (sha256) => media.get(sha256));
}

/** The reply's tool definitions, so the body is the turn's, but a tool call the replay gets back never runs. */
function withoutExecution(tools: ToolSet | undefined): ToolSet | undefined {
  if (!tools) return undefined;
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => [name, { ...tool, execute: undefined }]),
  );
}

interface ReplayResult {
  requests: CapturedRequest[];
  /** The adapter's warnings for the call. */
  warnings: string[];
  response: { text: string; finishReason: string | null; usage: AttemptUsage | null };
  doneMs: number;
  /** Null when the call answered. */
  error: unknown;
}

/**
 * One call, no retries or fallbacks (the user named the model). With `resend`, the SDK builds its request as usual
 * and the fetch swaps in the recorded body, so the response is read by the same provider code as the original's.
 */
async function callOnce({
  model,
  request,
  tools,
  streamed,
  resend,
  queuedAt,
}: {
  model: ModelDescriptor;
  request: GenerateRequest;
  tools: ToolSet | undefined;
  streamed: boolean;
  resend: string | null;
  queuedAt: Date;
}): Promise<ReplayResult> {
  const started = performance.now();
  const capture = createRequestCapture();
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(new Error("timeout")), REPLAY_TIMEOUT_MS);
  // The swap comes before the capture, so what is recorded is what the provider received.
  const fetch: typeof globalThis.fetch | undefined =
    model.provider === "offline"
      ? undefined
      : resend === null
        ? capture.fetch
        : (input, init) => capture.fetch(input, { ...init, body: resend });
  try {
    const answer = await (streamed && "resolved" in request
      ? streamAnswer({ model, resolved: request.resolved, tools, fetch, abortSignal: timer.signal })
      : generateAnswer({ model, request, fetch, abortSignal: timer.signal }));
    const requests =
      capture.requests.length > 0
        ? capture.requests
        : [offlineRequest(model.providerModelName, answer.requestBody, queuedAt.getTime())];
    return {
      requests,
      warnings: answer.warnings,
      response: answer.response,
      doneMs: performance.now() - started,
      error: null,
    };
  } catch (error) {
    return {
      requests: capture.requests,
      warnings: [],
      response: { text: "", finishReason: null, usage: null },
      doneMs: performance.now() - started,
      error: timer.signal.aborted
        ? new ProviderTimeoutError(`no answer within ${REPLAY_TIMEOUT_MS} ms`)
        : error,
    };
  } finally {
    clearTimeout(timeout);
  }
}

type CallArguments = Parameters<typeof streamModelCall>[0];

async function streamAnswer(call: CallArguments) {
  const result = streamModelCall(call);
  let requestBody: unknown = null;
  let warnings: string[] = [];
  for await (const part of result.fullStream) {
    if (part.type === "error") throw part.error;
    if (part.type === "start-step" && requestBody === null) {
      requestBody = part.request.body;
      warnings = part.warnings.map(warningText);
    }
  }
  const usage = await result.totalUsage;
  return {
    requestBody,
    warnings,
    response: {
      text: await result.text,
      finishReason: (await result.finishReason) ?? null,
      usage: attemptUsage(usage),
    },
  };
}

async function generateAnswer(call: Parameters<typeof generateModelCall>[0]) {
  const result = await generateModelCall(call);
  return {
    requestBody: result.request.body,
    warnings: (result.warnings ?? []).map(warningText),
    response: {
      text: result.text,
      finishReason: result.finishReason,
      usage: attemptUsage(result.totalUsage),
    },
  };
}
