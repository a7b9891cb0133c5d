// A chat request's error in words. The transport hands over the response body as the error's message; when that
// is the app's `{ error: { code, message } }`, the reader sees its message, once, and only the actions that can
// work (no Retry for a muted user or a refused message).

export interface ChatErrorView {
  title: string;
  message: string;
  /** The app's error code when the server refused the request; null for a failure while the reply streamed. */
  code: string | null;
  retryable: boolean;
}

const NOT_RETRYABLE = new Set(["muted", "forbidden", "bad_request", "not_found", "conflict", "unauthorized"]);

export function describeChatError(error: Error): ChatErrorView {
  const refused = parseAppError(error.message);
  if (refused) {
    return {
      title: refused.code === "rate_limited" ? "Too many messages for now." : "The message was not sent.",
      message: refused.message,
      code: refused.code,
      retryable: !NOT_RETRYABLE.has(refused.code),
    };
  }
  return {
    title: "The reply did not come through.",
    message: error.message || "The connection to the server was lost.",
    code: null,
    retryable: true,
  };
}

function parseAppError(text: string): { code: string; message: string } | null {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body?.error?.code === "string" && typeof body.error.message === "string") {
      return { code: body.error.code, message: body.error.message };
    }
  } catch {
    // Not JSON: a stream error's own text.
  }
  return null;
}
