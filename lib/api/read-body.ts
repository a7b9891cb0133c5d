// Reads a request body with a cap that holds while the body streams in: a missing or false content-length
// (a chunked body) cannot push more than the cap into memory. The one body reader for JSON and multipart.
//
// Past the cap nothing more is kept, but the rest is read and dropped for a short while (up to LINGER_MS and
// LINGER_BYTES) before the stream is cancelled: cancelling closes the connection with the client's data unread,
// which makes the kernel answer with a reset that can destroy the 413 before the client reads it (HTTP's
// "lingering close"). A client that stops sending once it has the answer ends the drain at once.

import "server-only";
import type { AppError } from "@/lib/domain/errors";

const LINGER_MS = 2_000;
export const LINGER_BYTES = 32 * 1024 * 1024;

export async function readBodyUpTo(
  request: Request,
  maxBytes: number,
  tooLarge: () => AppError,
): Promise<Uint8Array<ArrayBuffer>> {
  const declaredLength = Number(request.headers.get("content-length") ?? "0");
  if (declaredLength > maxBytes) {
    if (request.body) void discardRest(request.body.getReader());
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        // What was buffered so far is dropped with `chunks`; the rest is read and dropped for a short while.
        void discardRest(reader);
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/** Reads and drops what is left, until the body ends, the client goes, or the linger budget is spent. */
async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  // A client that sends nothing more must not hold the drain open: the deadline cancels a pending read too.
  const deadline = setTimeout(() => reader.cancel().catch(() => {}), LINGER_MS);
  let discarded = 0;
  try {
    while (discarded < LINGER_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      discarded += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // the client closed the connection: nothing left to drain
  } finally {
    clearTimeout(deadline);
  }
}
