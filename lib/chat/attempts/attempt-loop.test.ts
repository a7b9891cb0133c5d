// A provider's refusal is one sentence for the user: the status once with its reason phrase, and the provider's own
// message when it gave one (never "provider_error 500 500:").
import { APICallError } from "ai";
import { describe, expect, test } from "vitest";
import { describeAttemptError } from "./attempt-loop";

function refusal(statusCode: number | undefined, message: string, responseBody?: string): APICallError {
  return new APICallError({
    message,
    url: "https://provider.test/v1",
    requestBodyValues: {},
    statusCode,
    responseBody,
  });
}

describe("describeAttemptError", () => {
  test("an empty 500", () => {
    expect(describeAttemptError(refusal(500, "", ""))).toEqual({
      code: "provider_error",
      status: 500,
      message: "The provider answered 500 (Internal Server Error) with no message.",
    });
  });

  test("a 500 whose message is only its reason phrase has no message", () => {
    expect(describeAttemptError(refusal(500, "Internal Server Error", "")).message).toBe(
      "The provider answered 500 (Internal Server Error) with no message.",
    );
  });

  test("a JSON error body with a message, as the SDK maps it", () => {
    const body = JSON.stringify({ error: { message: "upstream exploded", type: "server_error" } });
    expect(describeAttemptError(refusal(500, "upstream exploded", body))).toEqual({
      code: "provider_error",
      status: 500,
      message: "The provider answered 500 (Internal Server Error): upstream exploded.",
    });
  });

  test("a JSON error body the SDK did not map: its message is read from the body", () => {
    const body = JSON.stringify({ message: "The model is overloaded. Please try again later." });
    expect(describeAttemptError(refusal(503, "", body)).message).toBe(
      "The provider answered 503 (Service Unavailable): The model is overloaded. Please try again later.",
    );
  });

  test("a 429", () => {
    const body = JSON.stringify({ error: { message: "Rate limit reached for gpt-4.1-mini" } });
    expect(describeAttemptError(refusal(429, "Rate limit reached for gpt-4.1-mini", body))).toEqual({
      code: "rate_limited",
      status: 429,
      message: "The provider answered 429 (Too Many Requests): Rate limit reached for gpt-4.1-mini.",
    });
  });

  test("no answer at all", () => {
    expect(describeAttemptError(refusal(undefined, "Cannot connect to API: fetch failed"))).toEqual({
      code: "provider_error",
      status: undefined,
      message: "The provider could not be reached: Cannot connect to API: fetch failed.",
    });
  });

  test("an HTML error page is no message", () => {
    expect(describeAttemptError(refusal(502, "", "<html><body>Bad gateway</body></html>")).message).toBe(
      "The provider answered 502 (Bad Gateway) with no message.",
    );
  });
});
