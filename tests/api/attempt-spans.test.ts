// OpenTelemetry: with OTEL_EXPORTER_OTLP_ENDPOINT set, every attempt reaches an OTLP/HTTP receiver as one span
// with the GenAI attributes (provider, model, input, output and cached tokens, finish reason) and the exact body
// the provider received as its input. A failed attempt is a span with an error status. The receiver here is a
// real HTTP server reading the exporter's JSON.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { flushAttemptSpans } from "@/lib/telemetry/attempt-spans";
import { signUp, type TestUser } from "../api-client";
import { type FakeProviderEnv, startFakeProviderEnv } from "../fixtures/fake-provider-env";
import { conversationWithPersona } from "../fixtures/personas";
import { fetchTurns, runTurn } from "../fixtures/turns";

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  arrayValue?: { values: OtlpValue[] };
}
interface OtlpSpan {
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  status?: { code?: number; message?: string };
  attributes: { key: string; value: OtlpValue }[];
}

let env: FakeProviderEnv;
let ada: TestUser;
let receiver: http.Server;
const exports: { path: string; contentType: string; spans: OtlpSpan[] }[] = [];
const previousEndpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;

function plain(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.arrayValue) return value.arrayValue.values.map(plain);
  return value;
}

function attributesOf(span: OtlpSpan): Record<string, unknown> {
  return Object.fromEntries(span.attributes.map((attribute) => [attribute.key, plain(attribute.value)]));
}

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      exports.push({
        path: request.url ?? "",
        contentType: request.headers["content-type"] ?? "",
        spans: body.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans)),
      });
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  env = await startFakeProviderEnv();
  ada = await signUp("Ada");
});

afterAll(async () => {
  await flushAttemptSpans();
  if (previousEndpoint === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = previousEndpoint;
  await env.close();
  await new Promise((resolve) => receiver.close(resolve));
});

async function receivedSpans(): Promise<OtlpSpan[]> {
  await flushAttemptSpans();
  return exports.flatMap((received) => received.spans);
}

describe("attempts as OpenTelemetry spans", () => {
  test("a 429 then a reply with cached tokens: two spans, GenAI attributes, the exact body as input", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    env.providers.script(
      { kind: "error", status: 429, retryAfterMs: 50, message: "Rate limit reached" },
      {
        kind: "text",
        text: "Traced.",
        usage: { inputTokens: 120, outputTokens: 3, cachedInputTokens: 100 },
      },
    );
    await runTurn(ada, conversationId, "Are you traced?");
    const { turns } = await fetchTurns(ada, conversationId);
    const attemptIds = turns[0].attempts.map((attempt) => attempt.id);

    const spans = (await receivedSpans()).filter((span) =>
      attemptIds.includes(attributesOf(span)["glassbox.attempt.id"] as string),
    );
    expect(exports[0]).toMatchObject({ path: "/v1/traces", contentType: expect.stringContaining("json") });
    expect(spans).toHaveLength(2);
    const [failed, answered] = attemptIds.map((id) =>
      spans.find((span) => attributesOf(span)["glassbox.attempt.id"] === id),
    ) as OtlpSpan[];

    expect(answered.name).toBe("chat gpt-4.1-mini");
    expect(attributesOf(answered)).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4.1-mini",
      "gen_ai.conversation.id": conversationId,
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 3,
      "gen_ai.usage.cache_read.input_tokens": 100,
      "gen_ai.response.finish_reasons": ["stop"],
      "glassbox.attempt.kind": "reply",
      "glassbox.turn.id": turns[0].id,
      "input.value": env.providers.requests[1].body,
      "output.value": "Traced.",
    });
    expect(BigInt(answered.endTimeUnixNano)).toBeGreaterThan(BigInt(answered.startTimeUnixNano));

    expect(failed.status?.code).toBe(2); // ERROR
    expect(failed.status?.message).toContain("Rate limit reached");
    expect(attributesOf(failed)).toMatchObject({
      "error.type": "rate_limited",
      "input.value": env.providers.requests[0].body,
    });
  });
});
