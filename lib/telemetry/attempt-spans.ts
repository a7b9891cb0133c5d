// Every model call as an OpenTelemetry span, sent over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set, so
// Langfuse, Phoenix, Jaeger or any collector receives what the inspector shows (docs/features.md,
// "Telemetry"). Attributes follow the GenAI semantic conventions (model, provider, token usage with cached input
// tokens, finish reason); the exact request body is the span's input (`input.value`, which Phoenix and Langfuse
// read) and the reply its output. Without the variable nothing is created and nothing is sent.

import "server-only";
import { type Attributes, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
} from "@opentelemetry/semantic-conventions/incubating";
import { env } from "@/lib/config/env";
import { logger } from "@/lib/logger";
import type { TokenUsage } from "@/lib/pricing";

/** What a span is made of: one recorded attempt. */
export interface AttemptSpan {
  attemptId: string;
  turnId: string | null;
  conversationId?: string | null;
  /** What the call was for: a reply, a summary, a title, … */
  kind: string;
  /** The registry's id, "provider:model". */
  modelId: string;
  status: "ok" | "error" | "stopped";
  error: { code: string; message: string } | null;
  /** The exact body of the attempt's last HTTP request, media included. */
  requestBody: string | null;
  response: {
    text: string;
    finishReason: string | null;
    usage: TokenUsage | null;
  } | null;
  /** When the attempt was queued, and how long it took to finish (ms). */
  queuedAt: string;
  doneMs?: number;
}

interface Telemetry {
  endpoint: string;
  provider: TracerProvider;
}

const globalForTelemetry = globalThis as unknown as { glassboxTelemetry?: Telemetry | null };

/** The process's tracer provider for the configured endpoint, or null when none is configured. */
function telemetry(): Telemetry | null {
  const endpoint = env().OTEL_EXPORTER_OTLP_ENDPOINT;
  const current = globalForTelemetry.glassboxTelemetry;
  if (!endpoint) return null;
  if (current?.endpoint === endpoint) return current;
  void current?.provider.shutdown().catch(() => {});
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: env().OTEL_SERVICE_NAME }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, "")}/v1/traces` }),
        scheduledDelayMillis: 1_000,
      }),
    ],
  });
  globalForTelemetry.glassboxTelemetry = { endpoint, provider };
  return globalForTelemetry.glassboxTelemetry;
}

/** Records one attempt as a finished span (queued → done); never throws into the turn. */
export function recordAttemptSpan(attempt: AttemptSpan): void {
  try {
    const configured = telemetry();
    if (!configured) return;
    const [providerName, ...modelParts] = attempt.modelId.split(":");
    const model = modelParts.join(":") || attempt.modelId;
    const startTime = Date.parse(attempt.queuedAt);
    const span = configured.provider.getTracer("glassbox").startSpan(`chat ${model}`, {
      kind: SpanKind.CLIENT,
      startTime,
      attributes: spanAttributes(attempt, providerName, model),
    });
    if (attempt.status === "error")
      span.setStatus({ code: SpanStatusCode.ERROR, message: attempt.error?.message ?? "the attempt failed" });
    span.end(attempt.doneMs !== undefined ? startTime + attempt.doneMs : undefined);
  } catch (error) {
    logger.warn({ err: error, attemptId: attempt.attemptId }, "could not record the attempt's span");
  }
}

function spanAttributes(attempt: AttemptSpan, providerName: string, model: string): Attributes {
  const usage = attempt.response?.usage;
  const attributes: Attributes = {
    [ATTR_GEN_AI_OPERATION_NAME]: "chat",
    [ATTR_GEN_AI_PROVIDER_NAME]: providerName,
    [ATTR_GEN_AI_REQUEST_MODEL]: model,
    "glassbox.attempt.id": attempt.attemptId,
    "glassbox.attempt.kind": attempt.kind,
    "glassbox.attempt.status": attempt.status,
    "glassbox.model_id": attempt.modelId,
  };
  if (attempt.turnId) attributes["glassbox.turn.id"] = attempt.turnId;
  if (attempt.conversationId) attributes[ATTR_GEN_AI_CONVERSATION_ID] = attempt.conversationId;
  if (usage?.inputTokens !== undefined) attributes[ATTR_GEN_AI_USAGE_INPUT_TOKENS] = usage.inputTokens;
  if (usage?.outputTokens !== undefined) attributes[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS] = usage.outputTokens;
  if (usage?.cachedInputTokens !== undefined)
    attributes[ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS] = usage.cachedInputTokens;
  if (usage?.cacheWriteTokens !== undefined)
    attributes[ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS] = usage.cacheWriteTokens;
  if (attempt.response?.finishReason)
    attributes[ATTR_GEN_AI_RESPONSE_FINISH_REASONS] = [attempt.response.finishReason];
  if (attempt.requestBody !== null) {
    attributes["input.value"] = attempt.requestBody;
    attributes["input.mime_type"] = "application/json";
  }
  if (attempt.response) {
    attributes["output.value"] = attempt.response.text;
    attributes["output.mime_type"] = "text/plain";
  }
  if (attempt.error) attributes["error.type"] = attempt.error.code;
  return attributes;
}

/** Sends what is buffered now (tests, and a clean shutdown). */
export async function flushAttemptSpans(): Promise<void> {
  await globalForTelemetry.glassboxTelemetry?.provider.forceFlush();
}
