// Carries out a reply plan on an HTTP response in a protocol's wire format: error JSON, one JSON body,
// or an SSE stream with delays, optionally cut mid-way by destroying the socket.
import type { ServerResponse } from "node:http";
import { sendJson, sleep, writeFlushed } from "./http-utils";
import type { EncodeContext, ProtocolAdapter } from "./protocols/protocol";
import type { AnswerPlan, ErrorPlan, RecordedPlan, ReplyPlan } from "./reply-plan";
import { sseData } from "./sse";
import { splitIntoPieces } from "./text-pieces";

/** Gives the client a moment to read the last bytes before the connection drops. */
const CUT_GRACE_MS = 10;

export interface ReplyTarget {
  response: ServerResponse;
  adapter: ProtocolAdapter;
  context: EncodeContext;
  streaming: boolean;
  /** Aborted when the client goes away or the server closes. */
  signal: AbortSignal;
}

export async function writeReply(plan: ReplyPlan, target: ReplyTarget): Promise<void> {
  if (plan.kind === "hang") return hang(target.signal);
  if (plan.kind === "error") return writeError(plan, target);
  if (plan.kind === "recorded") return writeRecorded(plan, target);
  if (target.streaming) return writeStream(plan, target);
  return writeJson(plan, target);
}

function retryHeaders(plan: ErrorPlan): Record<string, string> {
  const headers: Record<string, string> = {};
  if (plan.retryAfterMs !== undefined) headers["retry-after-ms"] = String(plan.retryAfterMs);
  const seconds =
    plan.retryAfterSeconds ??
    (plan.retryAfterMs === undefined ? undefined : Math.ceil(plan.retryAfterMs / 1000));
  if (seconds !== undefined) headers["retry-after"] = String(seconds);
  return headers;
}

function writeError(plan: ErrorPlan, { response, adapter }: ReplyTarget): void {
  const retryAfterMs =
    plan.retryAfterMs ?? (plan.retryAfterSeconds === undefined ? undefined : plan.retryAfterSeconds * 1000);
  sendJson(
    response,
    plan.status,
    adapter.errorBody({ status: plan.status, message: plan.message, retryAfterMs }),
    retryHeaders(plan),
  );
}

function contentPieces(plan: AnswerPlan): string[] {
  const content = plan.answer.kind === "text" ? plan.answer.text : JSON.stringify(plan.answer.input);
  return splitIntoPieces(content, plan.chunkCount);
}

async function writeJson(
  plan: AnswerPlan,
  { response, adapter, context, signal }: ReplyTarget,
): Promise<void> {
  if (!(await sleep(plan.firstTokenDelayMs, signal))) return;
  const payload = adapter.jsonResponse(plan.answer, plan.usage, context);
  if (plan.cutAfterChunks === undefined) {
    sendJson(response, 200, payload);
    return;
  }
  const body = JSON.stringify(payload);
  // A cut non-streaming reply: announce the full length, send a part, drop the connection.
  response.writeHead(200, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  });
  await writeFlushed(response, body.slice(0, Math.floor(body.length / 2)));
  await cut(response, signal);
}

async function writeStream(
  plan: AnswerPlan,
  { response, adapter, context, signal }: ReplyTarget,
): Promise<void> {
  const stream = adapter.streamPlan(plan.answer, contentPieces(plan), plan.usage, context);
  response.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  response.flushHeaders();
  if (!(await writeFlushed(response, stream.head))) return;
  if (stream.thinking) {
    const pause = Math.floor(stream.thinking.durationMs / Math.max(1, stream.thinking.chunks.length));
    for (const chunk of stream.thinking.chunks) {
      if (!(await sleep(pause, signal))) return;
      if (!(await writeFlushed(response, chunk))) return;
    }
  }

  const chunksToSend =
    plan.cutAfterChunks === undefined ? stream.chunks : stream.chunks.slice(0, plan.cutAfterChunks);
  for (const [index, chunk] of chunksToSend.entries()) {
    if (!(await sleep(index === 0 ? plan.firstTokenDelayMs : plan.chunkDelayMs, signal))) return;
    if (!(await writeFlushed(response, chunk))) return;
  }
  if (plan.cutAfterChunks !== undefined) {
    // Cut before any content: hang for the first-token delay, then drop, like an upstream that gave up.
    if (chunksToSend.length === 0 && !(await sleep(plan.firstTokenDelayMs, signal))) return;
    await cut(response, signal);
    return;
  }
  const tailDelay = chunksToSend.length === 0 ? plan.firstTokenDelayMs : plan.chunkDelayMs;
  if (!(await sleep(tailDelay, signal))) return;
  if (await writeFlushed(response, stream.tail)) response.end();
}

/** A recorded stream: every chunk as it was recorded, one `data:` event each, then the end of the response. */
async function writeRecorded(plan: RecordedPlan, { response }: ReplyTarget): Promise<void> {
  response.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  response.flushHeaders();
  for (const chunk of plan.chunks) if (!(await writeFlushed(response, sseData(chunk)))) return;
  response.end();
}

/** Holds the request open with nothing sent until the client (or the server's close) gives up. */
function hang(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** Ends the connection without a finish event, final chunk or [DONE], as a dropped upstream would. */
async function cut(response: ServerResponse, signal: AbortSignal): Promise<void> {
  await sleep(CUT_GRACE_MS, signal);
  response.destroy();
}
