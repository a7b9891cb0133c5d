// Errors as OpenAI's API gives them, `{ error: { message, type, param, code } }`, which its clients turn into
// their typed errors (AuthenticationError, NotFoundError, BadRequestError, RateLimitError…).

import "server-only";
import type { AppError } from "@/lib/domain/errors";

export type GatewayErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "not_found_error"
  | "rate_limit_error"
  | "server_error";

export class GatewayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: {
      type?: GatewayErrorType;
      param?: string | null;
      code?: string | null;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = "GatewayError";
  }

  toResponse(headers: Record<string, string> = {}): Response {
    const { type = "invalid_request_error", param = null, code = null } = this.details;
    return Response.json(
      { error: { message: this.message, type, param, code } },
      { status: this.status, headers: { ...headers, ...this.details.headers } },
    );
  }
}

/** A 400 naming the request field at fault, as OpenAI's `param`. */
export function invalidField(param: string, message: string): GatewayError {
  return new GatewayError(400, `${param}: ${message}`, { param, code: "invalid_value" });
}

export function modelNotFound(model: string): GatewayError {
  return new GatewayError(404, `The model \`${model}\` does not exist or you do not have access to it.`, {
    param: "model",
    code: "model_not_found",
  });
}

const TYPE_BY_STATUS: Record<number, GatewayErrorType> = {
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  429: "rate_limit_error",
};

/** The app's own refusals (a rate limit, a muted persona, an unusable model…) in OpenAI's shape. */
export function fromAppError(error: AppError): GatewayError {
  return new GatewayError(error.status, error.message, {
    type: TYPE_BY_STATUS[error.status] ?? (error.status >= 500 ? "server_error" : "invalid_request_error"),
    code: error.code,
    headers: error.headers,
  });
}
