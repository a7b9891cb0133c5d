// One typed error for everything a route refuses. Routes throw it; `toResponse` turns it into
// `{ error: { code, message } }` with the matching 4xx status. Anything else is a bug and becomes a logged 500.

export type ErrorCode =
  | "bad_request"
  | "invalid_json"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "range_not_satisfiable"
  | "rate_limited"
  | "muted"
  | "context_too_large"
  | "model_unavailable"
  | "service_unavailable"
  | "internal";

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  bad_request: 400,
  invalid_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  rate_limited: 429,
  muted: 403,
  context_too_large: 422,
  model_unavailable: 422,
  service_unavailable: 503,
  internal: 500,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = STATUS_BY_CODE[code];
    this.headers = options.headers ?? {};
  }

  toResponse(): Response {
    return Response.json(
      { error: { code: this.code, message: this.message } },
      { status: this.status, headers: this.headers },
    );
  }
}

export function notFound(what: string): AppError {
  return new AppError("not_found", `${what} not found`);
}

// Connection-level failures (postgres.js codes and Node socket errors) and the Postgres SQLSTATEs that mean "the
// server cannot take this now": an outage, not a bug, so the client is told to come back.
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
  "57014", // query_canceled: the statement timeout
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
]);

/** Seconds a client is told to wait before trying again during a database outage. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The error (or one of its causes, as drizzle wraps the driver's) says the database is unreachable or busy. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true;
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailable)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export function databaseUnavailable(cause?: unknown): AppError {
  return new AppError(
    "service_unavailable",
    `The database is not reachable right now. Try again in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`,
    { headers: { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) }, cause },
  );
}
