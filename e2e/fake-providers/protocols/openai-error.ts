// OpenAI's error body, shared by chat completions and Responses: { error: { message, type, param, code } }.
import type { ErrorDetails } from "./protocol";

interface OpenAIErrorKind {
  type: string;
  code: string | null;
  message: string;
}

function errorKind(status: number): OpenAIErrorKind {
  if (status === 401)
    return { type: "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key provided." };
  if (status === 404)
    return {
      type: "invalid_request_error",
      code: "model_not_found",
      message: "The model does not exist or you do not have access to it.",
    };
  if (status === 429)
    return {
      type: "requests",
      code: "rate_limit_exceeded",
      message: "Rate limit reached for requests. Please try again later.",
    };
  if (status >= 500)
    return {
      type: "server_error",
      code: null,
      message: "The server had an error while processing your request. Sorry about that!",
    };
  return { type: "invalid_request_error", code: null, message: "Invalid request." };
}

export function openAIErrorBody({ status, message }: ErrorDetails): unknown {
  const kind = errorKind(status);
  return { error: { message: message ?? kind.message, type: kind.type, param: null, code: kind.code } };
}
