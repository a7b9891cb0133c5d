// Settings → API keys, through the real server: Ada creates a key and copies its secret (shown once), a client
// with no cookie and no origin calls /v1 with it and gets the default persona's reply, recorded as a turn of a
// conversation of hers whose attempt holds the very bytes the provider received, and the page shows the key's usage
// (one call, its tokens and cost); once she revokes the key, the next call is refused.
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { signUp } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

test("a key made on the settings page talks to a persona through /v1 until it is revoked", async ({
  page,
  playwright,
  baseURL,
}) => {
  await signUp(page, "Ada", "ada-api-keys");
  await page.getByTestId("api-keys-link").click();
  await expect(page.getByTestId("no-api-keys")).toBeVisible();
  await page.getByTestId("api-key-name-input").fill("my script");
  await page.getByTestId("create-api-key-submit").click();
  const secret = (await page.getByTestId("new-api-key-secret").textContent()) ?? "";
  expect(secret).toMatch(/^gbx_/);
  await expect(page.getByTestId("api-key-name")).toHaveText(["my script"]);
  await expect(page.getByTestId("api-key-scope")).toHaveText(["Every persona"]);
  await page.getByTestId("dismiss-api-key").click();
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);

  // A client that is no browser: a bearer secret, no cookie, no origin.
  const client = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${secret}` },
  });
  const models = (await (await client.get("/v1/models")).json()) as { data: { id: string }[] };
  expect(models.data.map((model) => model.id)).toContain("glassbox-guide");
  const response = await client.post("/v1/chat/completions", {
    data: { model: "glassbox-guide", messages: [{ role: "user", content: "Hello from a script" }] },
  });
  expect(response.status()).toBe(200);
  const completion = (await response.json()) as {
    choices: { message: { content: string } }[];
    usage: { prompt_tokens: number; completion_tokens: number };
  };
  expect(completion.choices[0].message.content).toContain("Hello from a script");

  // The call is a conversation of Ada's, and its attempt recorded the bytes the provider received.
  const conversationId = response.headers()["x-glassbox-conversation-id"];
  const attemptId = response.headers()["x-glassbox-attempt-id"];
  const attempt = (await (await page.request.get(`/api/attempts/${attemptId}`)).json()) as {
    attempt: { request: { body: string }; cost: { totalUsd: number } | null };
  };
  expect(attempt.attempt.request.body).toBe((await fake.requests("openai-chat")).at(-1)?.body);
  await page.goto(`/chat/${conversationId}`);
  await expect(page.getByText("Hello from a script").first()).toBeVisible();

  // The key's usage on the page: one call, the tokens the completion reported, and their cost (the attempt's).
  await page.goto("/settings/api-keys");
  await expect(page.getByTestId("api-key-calls")).toHaveText(["1 call"]);
  const { prompt_tokens: input, completion_tokens: output } = completion.usage;
  await expect(page.getByTestId("api-key-tokens")).toHaveText([
    `${input.toLocaleString("en-US")} tokens in, ${output.toLocaleString("en-US")} out`,
  ]);
  await expect(page.getByTestId("api-key-cost")).toHaveText([/^\$0\.\d+$/]);
  const listed = (await (await page.request.get("/api/keys")).json()) as {
    keys: { usage: { calls: number; inputTokens: number; outputTokens: number; costUsd: number } }[];
  };
  expect(listed.keys[0].usage).toMatchObject({ calls: 1, inputTokens: input, outputTokens: output });
  expect(listed.keys[0].usage.costUsd).toBeCloseTo(attempt.attempt.cost?.totalUsd ?? Number.NaN, 12);

  // A streaming call from a client that accepts gzip (as fetch-based clients do): the events come as they are, not
  // through a compressor flushed on every one.
  const streamed = await client.post("/v1/chat/completions", {
    headers: { "accept-encoding": "gzip, deflate, br" },
    data: { model: "glassbox-guide", stream: true, messages: [{ role: "user", content: "Stream it" }] },
  });
  expect(streamed.status()).toBe(200);
  expect(streamed.headers()["content-type"]).toBe("text/event-stream; charset=utf-8");
  expect(streamed.headers()["cache-control"]).toBe("no-cache, no-transform");
  expect(streamed.headers()["content-encoding"]).toBeUndefined();
  const events = await streamed.text();
  expect(events).toContain('"object":"chat.completion.chunk"');
  expect(events.trimEnd().endsWith("data: [DONE]")).toBe(true);

  // Revoked on the page: the next call is refused at once.
  await page.getByTestId("revoke-api-key").click();
  await expect(page.getByTestId("no-api-keys")).toBeVisible();
  const refused = await client.get("/v1/models");
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("invalid_api_key");
  await client.dispose();
});
