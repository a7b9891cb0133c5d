// Exact request capture: a fetch wrapper given to the provider package, so every HTTP attempt (the
// SDK's own retries included) is recorded with the exact body bytes, the full URL it went to and the status.
// Headers are never recorded, so API keys (which the providers send as headers) cannot leak into storage.

import "server-only";

export interface CapturedRequest {
  /**
   * The full URL the request went to (scheme, host, port, path, query) as `recordedUrl` gives it: credentials a
   * base URL may embed are removed. Attempts recorded before URLs were full hold the path and query only.
   */
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

/** Query parameters that carry a credential when a base URL is configured with one. */
const CREDENTIAL_PARAMETER = /key|token|secret|password|signature|^sig$|^auth/i;
const REDACTED = "REDACTED";

/**
 * The URL a request went to, safe to store: a user name and password in the authority are dropped, and a query
 * parameter named like a credential keeps its name but not its value.
 */
export function recordedUrl(input: RequestInfo | URL): string {
  const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
  url.username = "";
  url.password = "";
  for (const name of [...url.searchParams.keys()]) {
    if (CREDENTIAL_PARAMETER.test(name)) url.searchParams.set(name, REDACTED);
  }
  return url.href;
}

export function createRequestCapture(baseFetch: typeof fetch = globalThis.fetch): RequestCapture {
  const requests: CapturedRequest[] = [];
  const capturingFetch: typeof fetch = async (input, init) => {
    const record: CapturedRequest = {
      url: recordedUrl(input),
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
