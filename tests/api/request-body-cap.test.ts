// Every request body is read with a cap that holds while it streams in: a chunked body with no content-length
// stops being kept once it passes the cap, so it can never take the server's memory; the rest is read and dropped
// for a bounded while (so the client can read the 413 before the connection closes), then the stream is cancelled. NUL characters (which
// Postgres refuses) and bytes that are not UTF-8 are a 400 that names the problem, never a 500.
import { beforeAll, describe, expect, test } from "vitest";
import * as chatRoute from "@/app/api/chat/route";
import * as uploadRoute from "@/app/api/conversations/[id]/attachments/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { LINGER_BYTES } from "@/lib/api/read-body";
import { MAX_JSON_BYTES } from "@/lib/api/route";
import { maxUploadBytes } from "@/lib/media/upload-limits";
import { call, expectError, signUp, type TestUser } from "../api-client";

const CHUNK_BYTES = 64 * 1024;

let ada: TestUser;

beforeAll(async () => {
  ada = await signUp("Ada");
});

/** An endless chunked body that counts how many bytes the server pulled and whether it was cancelled. */
function endlessBody(prefix: string) {
  const counter = { pulled: 0, cancelled: false };
  const encoder = new TextEncoder();
  let first = true;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = first
        ? encoder.encode(prefix.padEnd(CHUNK_BYTES, "x"))
        : new Uint8Array(CHUNK_BYTES).fill(120);
      first = false;
      counter.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      counter.cancelled = true;
    },
  });
  return { stream, counter };
}

function streamingRequest(path: string, stream: ReadableStream<Uint8Array>, contentType: string): Request {
  return new Request(`http://localhost:3000${path}`, {
    method: "POST",
    headers: { origin: "http://localhost:3000", cookie: ada.cookie, "content-type": contentType },
    body: stream,
    duplex: "half",
  } as RequestInit);
}

/**
 * The stream is cancelled once the drain after the cap is spent: never more read than the cap (`keptUpTo`), the
 * drain's budget and the chunks in flight (the reader's and the stream's queue).
 */
async function expectDrainedAndCancelled(counter: { pulled: number; cancelled: boolean }, keptUpTo: number) {
  await expect.poll(() => counter.cancelled, { timeout: 5_000 }).toBe(true);
  expect(counter.pulled).toBeGreaterThan(keptUpTo);
  expect(counter.pulled).toBeLessThanOrEqual(keptUpTo + LINGER_BYTES + 3 * CHUNK_BYTES);
}

async function conversationCount(): Promise<number> {
  const list = await (await call(conversationsRoute.GET, "/api/conversations", { user: ada })).json();
  return list.conversations.length;
}

describe("request bodies are capped while they stream", () => {
  test("an endless chunked JSON body: 413 after reading just past the cap, the stream cancelled, nothing stored", async () => {
    const before = await conversationCount();
    const { stream, counter } = endlessBody('{"title":"');
    const response = await conversationsRoute.POST(
      streamingRequest("/api/conversations", stream, "application/json"),
      { params: Promise.resolve({}) as Promise<never> },
    );
    const message = await expectError(response, 413, "payload_too_large");
    expect(message).toMatch(/larger than 256 KB/);
    await expectDrainedAndCancelled(counter, MAX_JSON_BYTES);
    expect(await conversationCount()).toBe(before);
  });

  test("the chat route too", async () => {
    const { stream, counter } = endlessBody('{"id":"');
    const response = await chatRoute.POST(streamingRequest("/api/chat", stream, "application/json"), {
      params: Promise.resolve({}) as Promise<never>,
    });
    await expectError(response, 413, "payload_too_large");
    await expectDrainedAndCancelled(counter, 4 * 1024 * 1024);
  });

  test("an endless multipart upload: 413 just past the upload limit", async () => {
    const created = await call(conversationsRoute.POST, "/api/conversations", { user: ada, body: {} });
    const { id } = (await created.json()) as { id: string };
    const { stream, counter } = endlessBody("--boundary\r\n");
    const response = await uploadRoute.POST(
      streamingRequest(
        `/api/conversations/${id}/attachments`,
        stream,
        "multipart/form-data; boundary=boundary",
      ),
      { params: Promise.resolve({ id }) as Promise<never> },
    );
    await expectError(response, 413, "payload_too_large");
    await expectDrainedAndCancelled(counter, maxUploadBytes() + CHUNK_BYTES);
  });

  test("a declared content-length over the cap is refused before the body is read", async () => {
    const { stream, counter } = endlessBody("{");
    const request = streamingRequest("/api/conversations", stream, "application/json");
    request.headers.set("content-length", String(MAX_JSON_BYTES + 1));
    const response = await conversationsRoute.POST(request, {
      params: Promise.resolve({}) as Promise<never>,
    });
    await expectError(response, 413, "payload_too_large");
    await expectDrainedAndCancelled(counter, 0);
  });
});

describe("text the database cannot store is a 400 that says so", () => {
  const cases: { name: string; body: string; message: RegExp }[] = [
    { name: "NUL in a field", body: JSON.stringify({ title: "a\u0000b" }), message: /^title: .*NUL/ },
    {
      name: "NUL in a nested value",
      body: JSON.stringify({ title: "ok", extra: { list: ["fine", "bad\u0000"] } }),
      message: /^extra\.list\.1: .*NUL/,
    },
    { name: "NUL in a key", body: '{"ti\\u0000tle":"x"}', message: /NUL/ },
  ];
  test.each(cases)("POST /api/conversations: $name", async ({ body, message }) => {
    const before = await conversationCount();
    const response = await call(conversationsRoute.POST, "/api/conversations", { user: ada, body });
    expect(await expectError(response, 400, "bad_request")).toMatch(message);
    expect(await conversationCount()).toBe(before);
  });

  test("bytes that are not UTF-8", async () => {
    const request = new Request("http://localhost:3000/api/conversations", {
      method: "POST",
      headers: { origin: "http://localhost:3000", cookie: ada.cookie, "content-type": "application/json" },
      body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    const response = await conversationsRoute.POST(request, {
      params: Promise.resolve({}) as Promise<never>,
    });
    expect(await expectError(response, 400, "invalid_json")).toMatch(/UTF-8/);
  });
});
