// Exact request capture: a fetch wrapper given to the provider package, so every HTTP attempt (the
// SDK's own retries included) is recorded with the exact body bytes, the URL path and the status. Headers are
// never recorded, so API keys cannot leak into storage.

import "server-only";

export interface CapturedRequest {
  /** Path and query only: the host is configuration, and may embed credentials. */
  url: string;
  method: string;
  body: string;
  status: number | null;
  startedAt: number;
  /** Milliseconds from the request start to the response headers. */
  firstByteMs: number | null;
  error: string | null;
}

export interface RequestCapture {
  fetch: typeof fetch;
  requests: CapturedRequest[];
}

function bodyAsText(body: BodyInit | null | undefined): string {
  if (body == null) return "";
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  if (body instanceof ArrayBuffer) return new TextDecoder().decode(new Uint8Array(body));
  if (body instanceof URLSearchParams) return body.toString();
  // Streams and forms are not sent by the providers we use; record that rather than consume them.
  return `[unrecorded ${Object.prototype.toString.call(body)}]`;
}

function pathOf(input: RequestInfo | URL): string {
  const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
  return `${url.pathname}${url.search}`;
}

export function createRequestCapture(baseFetch: typeof fetch = globalThis.fetch): RequestCapture {
  const requests: CapturedRequest[] = [];
  const capturingFetch: typeof fetch = async (input, init) => {
    const record: CapturedRequest = {
      url: pathOf(input),
      method: init?.method ?? (input instanceof Request ? input.method : "GET"),
      body: bodyAsText(init?.body),
      status: null,
      startedAt: Date.now(),
      firstByteMs: null,
      error: null,
    };
    requests.push(record);
    try {
      const response = await baseFetch(input, init);
      record.status = response.status;
      record.firstByteMs = Date.now() - record.startedAt;
      return response;
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
      throw error;
    }
  };
  return { fetch: capturingFetch, requests };
}
