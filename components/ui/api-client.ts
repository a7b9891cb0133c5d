// The browser's one way to call this app's API: a JSON (or multipart) request, and a refusal turned into an
// ApiError carrying the server's `{ error: { code, message } }`. Every fetcher of the chat, the inspector, the
// admin pages and the invitations goes through apiFetch, its type argument the route's body as lib/api/responses.ts
// describes it (`apiFetch<ApiOutput<"GET /api/…">>`), never a shape written here.

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /**
   * The field a validation message is about ("settings.history.maxItems: …"), with the body's wrapper
   * (settings., settingsOverride., draft.) removed; null when the message names no field.
   */
  get fieldKey(): string | null {
    const match = /^([\w.[\]]+): /.exec(this.message);
    if (!match) return null;
    return match[1].replace(/^(draft\.)?(settings|settingsOverride)\./, "").replace(/^draft\./, "");
  }
}

export interface ApiRequest {
  /** GET without a body, POST with one, unless given. */
  method?: string;
  /** Sent as JSON; a FormData is sent as multipart (an upload). */
  body?: unknown;
}

export async function apiFetch<T>(url: string, request: ApiRequest = {}): Promise<T> {
  const { method, body } = request;
  const multipart = body instanceof FormData;
  const response = await fetch(url, {
    method: method ?? (body === undefined ? "GET" : "POST"),
    headers: body === undefined || multipart ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
  });
  if (!response.ok) throw await apiErrorOf(response);
  return response.status === 204 ? (undefined as T) : ((await response.json()) as T);
}

/** The server's refusal (`{ error: { code, message } }`) as an ApiError; a body of another shape, by its status. */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  const refusal = (await response.json().catch(() => null)) as {
    error?: { code?: string; message?: string };
  } | null;
  return new ApiError(
    refusal?.error?.message ?? `Request failed with status ${response.status}`,
    response.status,
    refusal?.error?.code ?? null,
  );
}
