// Handles one provider call: find the protocol by path, record the raw request, pick the scripted (or default)
// reply and write it in that protocol's wire format.
import type { IncomingMessage, ServerResponse } from "node:http";
import { headersWithoutSecrets, readRawBody, sendJson } from "./http-utils";
import type { PromptCache } from "./prompt-cache";
import { anthropic } from "./protocols/anthropic";
import { gemini } from "./protocols/gemini";
import { openAIChat } from "./protocols/openai-chat";
import { openAIResponses } from "./protocols/openai-responses";
import type { ProtocolAdapter, RouteMatch } from "./protocols/protocol";
import type { RequestRecorder } from "./recorder";
import { planReply } from "./reply-plan";
import { writeReply } from "./reply-writer";
import type { ScriptQueue } from "./script-queue";

const ADAPTERS: readonly ProtocolAdapter[] = [openAIChat, openAIResponses, gemini, anthropic];

export interface ProviderState {
  recorder: RequestRecorder;
  scripts: ScriptQueue;
  promptCache: PromptCache;
}

function findAdapter(
  method: string | undefined,
  pathname: string,
): { adapter: ProtocolAdapter; route: RouteMatch } | null {
  if (method !== "POST") return null;
  for (const adapter of ADAPTERS) {
    const route = adapter.matchPath(pathname);
    if (route !== null) return { adapter, route };
  }
  return null;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export async function handleProviderRequest(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  state: ProviderState,
  signal: AbortSignal,
): Promise<void> {
  const rawBody = await readRawBody(request);
  const body = rawBody.toString("utf8");
  const path = `${url.pathname}${url.search}`;
  const { headers, stripped } = headersWithoutSecrets(request);
  const found = findAdapter(request.method, url.pathname);
  const parsed = parseJson(body);
  const model = found && parsed.ok ? found.adapter.requestModel(parsed.value, found.route) : null;
  const recorded = state.recorder.record({
    protocol: found?.adapter.protocol ?? "unknown",
    method: request.method ?? "",
    path,
    headers,
    strippedHeaders: stripped,
    body,
    model,
    media: found && parsed.ok ? (found.adapter.mediaParts?.(parsed.value) ?? []) : [],
    receivedAt: epochNow(),
    closedByClientAt: null,
  });
  // The client went away before the reply was complete: a stopped or timed-out call shows here.
  response.on("close", () => {
    if (!response.writableFinished) recorded.closedByClientAt = epochNow();
  });

  if (found === null) {
    return sendJson(response, 404, {
      error: { message: `no fake provider serves ${request.method} ${url.pathname}` },
    });
  }
  const { adapter, route } = found;
  if (!parsed.ok) {
    return sendJson(
      response,
      400,
      adapter.errorBody({ status: 400, message: "request body is not valid JSON" }),
    );
  }

  const reply = state.scripts.take({ protocol: adapter.protocol, path, model });
  const plan = planReply(reply, {
    protocol: adapter.protocol,
    requestId: recorded.id,
    lastUserText: adapter.lastUserText(parsed.value),
    requestBodyBytes: rawBody.length,
  });
  if (plan.kind === "answer" && adapter.cachesPromptPrefixes && !plan.cacheUsageScripted) {
    const cache = state.promptCache.use(parsed.value);
    const cached = cache.cachedInputTokens + cache.cacheWriteTokens;
    plan.usage = { ...plan.usage, ...cache, inputTokens: Math.max(plan.usage.inputTokens, cached + 1) };
  }
  await writeReply(plan, {
    response,
    adapter,
    context: {
      requestId: recorded.id,
      model: model ?? "fake-model",
      createdAt: Math.floor(recorded.receivedAt / 1000),
      requestBody: parsed.value,
    },
    streaming: adapter.isStreaming(parsed.value, route),
    signal,
  });
}

/** Epoch milliseconds with a fraction: sub-millisecond, and comparable with another process's on this machine. */
function epochNow(): number {
  return performance.timeOrigin + performance.now();
}
