// The URL recorded for an attempt is the one the request went to, minus any credential a base URL embeds.
import { describe, expect, test } from "vitest";
import { createRequestCapture, recordedUrl } from "./request-capture";

describe("recordedUrl", () => {
  test.each([
    {
      name: "scheme, host, port, path and query are kept",
      input: "http://127.0.0.1:4010/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
      recorded: "http://127.0.0.1:4010/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    },
    {
      name: "a user name and password in the authority are dropped",
      input: "https://user:hunter2@proxy.example.test/openai/v1/chat/completions",
      recorded: "https://proxy.example.test/openai/v1/chat/completions",
    },
    {
      name: "a credential query parameter keeps its name, not its value",
      input: "https://gw.example.test/v1/messages?api-version=2024-06-01&key=AIzaSecret&access_token=t0k",
      recorded:
        "https://gw.example.test/v1/messages?api-version=2024-06-01&key=REDACTED&access_token=REDACTED",
    },
  ])("$name", ({ input, recorded }) => {
    expect(recordedUrl(input)).toBe(recorded);
    expect(recordedUrl(new URL(input))).toBe(recorded);
  });
});

test("the capturing fetch records the full URL of each request", async () => {
  const capture = createRequestCapture(async () => new Response("{}", { status: 201 }));
  await capture.fetch("http://127.0.0.1:4010/v1/chat/completions", { method: "POST", body: "{}" });
  await capture.fetch(new Request("https://gw.example.test/v1/responses?token=t0k"), {
    method: "POST",
    body: "{}",
  });
  expect(capture.requests.map((request) => [request.url, request.status])).toEqual([
    ["http://127.0.0.1:4010/v1/chat/completions", 201],
    ["https://gw.example.test/v1/responses?token=REDACTED", 201],
  ]);
});
