// Reads a request body with a cap that holds while the body streams in: a missing or false content-length
// (a chunked body) cannot push more than the cap into memory. The one body reader for JSON and multipart.

import "server-only";
import type { AppError } from "@/lib/errors";

export async function readBodyUpTo(
  request: Request,
  maxBytes: number,
  tooLarge: () => AppError,
): Promise<Uint8Array<ArrayBuffer>> {
  const declaredLength = Number(request.headers.get("content-length") ?? "0");
  if (declaredLength > maxBytes) {
    await request.body?.cancel().catch(() => {});
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
        // Stop reading at once; what was buffered so far is dropped with `chunks`.
        await reader.cancel().catch(() => {});
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
