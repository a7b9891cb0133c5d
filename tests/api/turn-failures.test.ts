// A turn's attempts against the fake providers: retries on 429 honouring retry-after-ms, fallback to another
// provider after 5xx with its own wire format and media resolution, and a stream cut mid-way. Every attempt is
// recorded, failed ones included.
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { attempts as attemptsTable } from "@/db/schema";
import { splitIntoPieces } from "@/e2e/fake-providers/text-pieces";
import { readUIStream } from "../api-client";
import { insertImageMessage } from "../fixtures/attachments";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { insertModel } from "../fixtures/models";
import { conversationWithPersona, createConversation, insertPersona } from "../fixtures/personas";
import { fetchTurns, postChat, runTurn, storedMessages, textOf } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

describe("retries and fallbacks", () => {
  test("a 429 with retry-after-ms, then success on the same model: two attempts, one reply", async () => {
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini" });
    const conversationId = await createConversation(ada, persona);
    env.providers.script(
      {
        kind: "error",
        status: 429,
        retryAfterMs: 150,
        retryAfterSeconds: 3,
        message: "Rate limit reached for gpt-4.1-mini",
      },
      { kind: "text", text: "Second time lucky." },
    );

    const { chunks, text } = await runTurn(ada, conversationId, "Are you there?");
    expect(text).toBe("Second time lucky.");
    expect(chunks.filter((chunk) => chunk.type === "error")).toEqual([]);
    expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });

    const [first, second] = env.providers.requests;
    expect(env.providers.requests).toHaveLength(2);
    // retry-after-ms (150) is honoured: not the coarser retry-after (3 s), nor the 20 ms test backoff.
    const gap = second.receivedAt - first.receivedAt;
    expect(gap).toBeGreaterThanOrEqual(150);
    expect(gap).toBeLessThan(2_500);
    // The same payload is sent again.
    expect(second.body).toBe(first.body);

    const { turns } = await fetchTurns(ada, conversationId);
    expect(turns).toHaveLength(1);
    expect(turns[0].status).toBe("ok");
    expect(
      turns[0].attempts.map((attempt) => [attempt.attemptNumber, attempt.modelId, attempt.status]),
    ).toEqual([
      [1, "openai:gpt-4.1-mini", "error"],
      [2, "openai:gpt-4.1-mini", "ok"],
    ]);
    const [failed, succeeded] = turns[0].attempts;
    expect(failed.error).toMatchObject({ code: "rate_limited", status: 429 });
    expect(failed.error?.message).toContain("Rate limit reached for gpt-4.1-mini");
    const url = `${env.providers.url}/v1/chat/completions`;
    const sent = (requests: typeof failed.requests) =>
      requests.map(({ url, status, body }) => ({ url, status, body }));
    expect(sent(failed.requests)).toEqual([{ url, status: 429, body: first.body }]);
    expect(failed.response).toMatchObject({ text: "", finishReason: null });
    expect(sent(succeeded.requests)).toEqual([{ url, status: 200, body: second.body }]);
    expect(succeeded.response?.text).toBe("Second time lucky.");

    const messages = await storedMessages(conversationId);
    expect(messages.map((message) => [message.authorType, message.status, textOf(message)])).toEqual([
      ["user", "complete", "Are you there?"],
      ["persona", "complete", "Second time lucky."],
    ]);
  });

  test("5xx on a blind OpenAI model until its retries run out, then a vision-capable Gemini fallback", async () => {
    const blind = await insertModel({ provider: "openai", capabilities: { vision: false } });
    const conversationId = await conversationWithPersona(ada, {
      modelId: blind.id,
      fallbackModelIds: ["google:gemini-2.5-flash"],
    });
    const image = await insertImageMessage({ conversationId, user: ada, text: "Here is my picture." });
    env.providers.script(
      {
        kind: "error",
        status: 500,
        message: "The server had an error",
        match: { model: blind.providerModelName },
        times: 3,
      },
      { kind: "text", text: "I see a colourful square.", protocol: "gemini" },
    );

    const { text } = await runTurn(ada, conversationId, "What is in the picture?");
    expect(text).toBe("I see a colourful square.");

    const received = env.providers.requests;
    expect(received.map((request) => [request.protocol, request.model])).toEqual([
      ["openai-chat", blind.providerModelName],
      ["openai-chat", blind.providerModelName],
      ["openai-chat", blind.providerModelName],
      ["gemini", "gemini-2.5-flash"],
    ]);

    const { turns } = await fetchTurns(ada, conversationId);
    const attempts = turns[0].attempts;
    expect(turns[0].status).toBe("ok");
    expect(
      attempts.map((attempt) => [
        attempt.attemptNumber,
        attempt.modelId,
        attempt.status,
        attempt.error?.code ?? null,
      ]),
    ).toEqual([
      [1, blind.id, "error", "provider_error"],
      [2, blind.id, "error", "provider_error"],
      [3, blind.id, "error", "provider_error"],
      [4, "google:gemini-2.5-flash", "ok", null],
    ]);
    for (const attempt of attempts.slice(0, 3)) expect(attempt.error?.status).toBe(500);

    // The blind model got a notice that keeps the media handle, in its items and on the wire; no image bytes.
    const blindNotice =
      "[System: This message (ID: media_1) contains an image. Current model cannot see images";
    const blindItem = attempts[0].items.find((item) => item.sourceMessageIds.includes(image.message.id));
    // (Where the notice sits relative to the text is the pipeline's business, tested there.)
    expect(blindItem?.parts).toHaveLength(2);
    expect(blindItem?.parts).toEqual(
      expect.arrayContaining([
        { type: "text", text: "Here is my picture." },
        { type: "text", text: expect.stringContaining(blindNotice) },
      ]),
    );
    const blindBody = JSON.parse(received[0].body) as { messages: Array<{ role: string; content: unknown }> };
    expect(received[0].body).toContain(blindNotice);
    expect(received[0].body).not.toContain(image.base64);
    expect(blindBody.messages.map((message) => message.role)).toEqual(["system", "user", "user"]);

    // The fallback has its own wire format (Gemini `contents`) and its own resolution: the image itself.
    const fallbackBody = JSON.parse(received[3].body) as {
      contents: Array<{ role: string; parts: Array<Record<string, unknown>> }>;
      systemInstruction: unknown;
    };
    expect(fallbackBody).not.toHaveProperty("messages");
    expect(fallbackBody.systemInstruction).toBeDefined();
    expect(received[3].body).not.toContain(blindNotice);
    const imageParts = fallbackBody.contents
      .flatMap((content) => content.parts)
      .filter((part) => "inlineData" in part);
    expect(imageParts).toEqual([{ inlineData: { mimeType: "image/png", data: image.base64 } }]);
    const fallbackItem = attempts[3].items.find((item) => item.sourceMessageIds.includes(image.message.id));
    expect(fallbackItem?.parts.map((part) => part.type).sort()).toEqual(["image", "text"]);

    // Stored, the image bytes are elided to a marker naming their sha256 and size…
    const db = await getDb();
    const [storedFallback] = await db
      .select()
      .from(attemptsTable)
      .where(eq(attemptsTable.id, attempts[3].id));
    const marker = `[elided-media sha256=${image.attachment.sha256} bytes=${image.png.length}]`;
    expect(storedFallback.requests[0].elidedMedia).toEqual([
      { sha256: image.attachment.sha256, mime: "image/png", bytes: image.png.length },
    ]);
    expect(storedFallback.requests[0].body).toBe(received[3].body.replace(image.base64, marker));
    expect(JSON.stringify(storedFallback)).not.toContain(image.base64);
    // …and the API puts them back: each body is the body that provider received, byte for byte.
    expect(attempts.map((attempt) => attempt.request?.body)).toEqual(received.map((request) => request.body));
    expect(attempts.map((attempt) => attempt.request?.url)).toEqual(
      [
        "/v1/chat/completions",
        "/v1/chat/completions",
        "/v1/chat/completions",
        "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
      ].map((path) => `${env.providers.url}${path}`),
    );
  });
});

describe("a stream cut mid-way", () => {
  test("keeps the partial reply as interrupted and records why the attempt failed", async () => {
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini" });
    const conversationId = await createConversation(ada, persona);
    const fullText = "One two three four five six";
    const partial = splitIntoPieces(fullText, 6).slice(0, 2).join("");
    env.providers.script({ kind: "cut", afterChunks: 2, text: fullText, chunks: 6 });

    const response = await postChat(ada, conversationId, "Count for me");
    expect(response.status).toBe(200);
    const chunks = await readUIStream(response);
    const streamed = chunks
      .filter((chunk) => chunk.type === "text-delta")
      .map((chunk) => chunk.delta)
      .join("");
    expect(streamed).toBe(partial);
    expect(partial.length).toBeGreaterThan(0);
    expect(chunks.filter((chunk) => chunk.type === "error")).toEqual([
      { type: "error", errorText: expect.any(String) },
    ]);
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "error",
      messageMetadata: { status: "interrupted" },
    });
    // Text already reached the user, so the turn does not retry behind their back.
    expect(env.providers.requests).toHaveLength(1);

    const messages = await storedMessages(conversationId);
    expect(messages.map((message) => [message.authorType, message.status, textOf(message)])).toEqual([
      ["user", "complete", "Count for me"],
      ["persona", "interrupted", partial],
    ]);
    const { turns } = await fetchTurns(ada, conversationId);
    expect(turns[0].status).toBe("interrupted");
    const [attempt] = turns[0].attempts;
    expect(turns[0].attempts).toHaveLength(1);
    expect(attempt.status).toBe("error");
    expect(attempt.error).toEqual({
      code: "stream_interrupted",
      message: expect.stringMatching(
        /^The provider's stream broke off before the reply was finished \(terminated.*\)\.$/,
      ),
    });
    expect(attempt.response).toMatchObject({ text: partial, finishReason: null });
    expect(attempt.request?.body).toBe(env.providers.requests[0].body);
  });

  test("a cut before any text is retried like a 5xx, and the reply completes", async () => {
    const persona = await insertPersona({ modelId: "google:gemini-2.5-flash" });
    const conversationId = await createConversation(ada, persona);
    env.providers.script({ kind: "cut", afterChunks: 0 }, { kind: "text", text: "Back again, in full." });

    const { text } = await runTurn(ada, conversationId, "Hello?");
    expect(text).toBe("Back again, in full.");
    expect(env.providers.requests).toHaveLength(2);

    const { turns } = await fetchTurns(ada, conversationId);
    expect(
      turns[0].attempts.map((attempt) => [
        attempt.attemptNumber,
        attempt.status,
        attempt.error?.code ?? null,
      ]),
    ).toEqual([
      [1, "error", "stream_interrupted"],
      [2, "ok", null],
    ]);
    expect(turns[0].attempts[0].response).toMatchObject({ text: "" });
    const messages = await storedMessages(conversationId);
    expect(messages.map((message) => [message.authorType, message.status, textOf(message)])).toEqual([
      ["user", "complete", "Hello?"],
      ["persona", "complete", "Back again, in full."],
    ]);
  });
});
