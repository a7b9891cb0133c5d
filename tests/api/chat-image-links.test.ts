// Image links in a message (docs/features.md#image-links): fetched by the server through the SSRF-safe
// fetcher and stored as the message's attachment with its origin; a refused link is a visible notice in the
// message and the payload. The refusal runs with MEDIA_FETCH_ALLOW_HOSTS unset; only the good-link tests name
// `localhost` there, so the local image server counts as public for them.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import * as chatRoute from "@/app/api/chat/route";
import { getDb } from "@/db/client";
import { attachments } from "@/db/schema";
import { TEST_IMAGES } from "@/tests/fixtures/images";
import { call, readUIStream } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { createConversation, insertPersona } from "../fixtures/personas";
import { fetchTurns, storedMessages } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

let server: Server;
let port: number;
const served: string[] = [];
let connections = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    served.push(request.url ?? "");
    response.writeHead(200, { "content-type": "image/png" });
    response.end(TEST_IMAGES.png);
  });
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  delete process.env.MEDIA_FETCH_ALLOW_HOSTS;
  served.length = 0;
  connections = 0;
});

async function send(conversationId: string, text: string) {
  env.providers.script({ kind: "text", text: "Seen." });
  const response = await call(chatRoute.POST, "/api/chat", {
    user: ada,
    body: { id: conversationId, message: { role: "user", parts: [{ type: "text", text }] } },
  });
  expect(response.status).toBe(200);
  await readUIStream(response);
}

async function conversation() {
  return createConversation(ada, await insertPersona({ modelId: "openai:gpt-4.1-mini" }));
}

const pngBase64 = TEST_IMAGES.png.toString("base64");

describe("an image link in a message", () => {
  test("to a loopback address: not fetched, and the message and the payload say why", async () => {
    expect(process.env.MEDIA_FETCH_ALLOW_HOSTS).toBeUndefined();
    const conversationId = await conversation();
    const url = `http://127.0.0.1:${port}/cat.png`;
    await send(conversationId, `Look at ${url}`);
    const notice = `[System: The image at ${url} was not fetched: it points to a loopback address.]`;
    const [question] = await storedMessages(conversationId);
    expect(question.parts).toEqual([
      { type: "text", text: `Look at ${url}` },
      { type: "text", text: notice },
    ]);
    expect(connections).toBe(0);
    expect(env.providers.requests[0].body).toContain(notice.replace(/"/g, '\\"'));
    const { turns } = await fetchTurns(ada, conversationId);
    const texts = turns[0].attempts[0].items.flatMap((item) => item.parts.map((part) => part.text ?? ""));
    expect(texts.join("\n")).toContain(notice);
  });

  test("to an allowed image server: fetched once, stored with its origin, sent to the model", async () => {
    process.env.MEDIA_FETCH_ALLOW_HOSTS = "localhost";
    const conversationId = await conversation();
    const url = `http://localhost:${port}/cat.png`;
    await send(conversationId, `Here: ${url}.`);
    const [question] = await storedMessages(conversationId);
    expect(question.parts).toEqual([
      { type: "text", text: `Here: ${url}.` },
      { type: "media", attachmentId: expect.any(String) },
    ]);
    const db = await getDb();
    const rows = await db.select().from(attachments).where(eq(attachments.conversationId, conversationId));
    expect(rows).toEqual([
      expect.objectContaining({
        originUrl: url,
        mime: "image/png",
        messageId: question.id,
        filename: "cat.png",
      }),
    ]);
    expect(env.providers.requests[0].media).toEqual([
      expect.objectContaining({ part: "image_url", mediaType: "image/png" }),
    ]);
    expect(env.providers.requests[0].body).toContain(pngBase64);
    expect(served).toEqual(["/cat.png"]);

    // The same link in a later message reuses the stored bytes: no second fetch.
    env.providers.reset();
    await send(conversationId, `Again ${url}`);
    expect(served).toEqual(["/cat.png"]);
    const [, , again] = await storedMessages(conversationId);
    expect(again.parts).toEqual([
      { type: "text", text: `Again ${url}` },
      { type: "media", attachmentId: expect.any(String) },
    ]);
    const copies = await db.select().from(attachments).where(eq(attachments.conversationId, conversationId));
    expect(copies.map((row) => row.originUrl)).toEqual([url, url]);
    expect(env.providers.requests[0].media.length).toBeGreaterThanOrEqual(1);
  });

  test("a link that does not end in an image extension is left alone", async () => {
    process.env.MEDIA_FETCH_ALLOW_HOSTS = "localhost";
    const conversationId = await conversation();
    await send(conversationId, `Read http://localhost:${port}/article about cats`);
    expect(served).toEqual([]);
    const [question] = await storedMessages(conversationId);
    expect(question.parts).toHaveLength(1);
  });
});
