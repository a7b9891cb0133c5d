// Small node:http helpers: raw body reading, JSON replies, secret-free header copies, abortable sleeps.
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as delay } from "node:timers/promises";

/** Headers that carry credentials: never recorded. */
const SECRET_HEADERS = new Set([
  "authorization",
  "proxy-authorization",
  "x-goog-api-key",
  "api-key",
  "x-api-key",
  "cookie",
]);

export async function readRawBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

export function sendJson(
  response: ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(payload);
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    ...headers,
  });
  response.end(body);
}

export function headersWithoutSecrets(request: IncomingMessage): {
  headers: Record<string, string>;
  stripped: string[];
} {
  const headers: Record<string, string> = {};
  const stripped: string[] = [];
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (SECRET_HEADERS.has(name)) {
      stripped.push(name);
      continue;
    }
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return { headers, stripped };
}

/** Resolves false instead of throwing when the signal aborts first. */
export async function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  if (ms <= 0) return true;
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Resolves once the data is handed to the socket, or false when the response is already gone. */
export function writeFlushed(response: ServerResponse, data: string): Promise<boolean> {
  if (response.destroyed || response.writableEnded) return Promise.resolve(false);
  if (data.length === 0) return Promise.resolve(true);
  return new Promise((resolve) => response.write(data, (error) => resolve(error == null)));
}
