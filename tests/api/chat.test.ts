import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import * as chatRoute from "@/app/api/chat/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { getDb } from "@/db/client";
import { listMessages } from "@/db/message-queries";
import { attempts, turns } from "@/db/schema";
import { call, expectError, readUIStream, signUp, type TestUser } from "../api-client";

let ada: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ada = await signUp("Ada");
  bob = await signUp("Bob");
});

async function createConversation(user: TestUser) {
  const response = await call(conversationsRoute.POST, "/api/conversations", { user, body: {} });
  return ((await response.json()) as { id: string }).id;
}

function chatBody(conversationId: string, text: string) {
  return {
    id: conversationId,
    message: { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text }] },
    trigger: "submit-message",
  };
}

describe("POST /api/chat with the offline model", () => {
  test("persists the user message first, streams the reply and stores it complete", async () => {
    const conversationId = await createConversation(ada);
    const response = await call(chatRoute.POST, "/api/chat", {
      user: ada,
      body: chatBody(conversationId, "Hello offline world"),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    // Not compressed on the way: a compressor would hold each chunk back (and cost one per open stream).
    expect(response.headers.get("cache-control")).toBe("no-cache, no-transform");
    const chunks = await readUIStream(response);
    const streamed = chunks
      .filter((chunk) => chunk.type === "text-delta")
      .map((chunk) => chunk.delta)
      .join("");
    expect(streamed).toContain('Your last message: "Hello offline world"');
    // The finish says the reply is stored complete, so the page's copy never waits on a later live event for that.
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "stop",
      messageMetadata: { status: "complete" },
    });

    const db = await getDb();
    const stored = await listMessages({ db, conversationId });
    expect(stored.map((m) => [m.seq, m.authorType, m.status])).toEqual([
      [1, "user", "complete"],
      [2, "persona", "complete"],
    ]);
    expect(stored[0].parts).toEqual([{ type: "text", text: "Hello offline world" }]);
    expect(stored[1].parts).toEqual([{ type: "text", text: streamed }]);
    expect(chunks[0]).toMatchObject({ type: "start", messageId: stored[1].id });

    const [turn] = await db.select().from(turns).where(eq(turns.conversationId, conversationId));
    expect(turn.status).toBe("ok");
    const turnAttempts = await db.select().from(attempts).where(eq(attempts.turnId, turn.id));
    expect(turnAttempts).toHaveLength(1);
    expect(turnAttempts[0]).toMatchObject({ attemptNumber: 1, modelId: "offline:echo", status: "ok" });
    expect(turnAttempts[0].response?.text).toBe(streamed);
  });

  test("a second turn sees the first in its history", async () => {
    const conversationId = await createConversation(ada);
    await readUIStream(
      await call(chatRoute.POST, "/api/chat", { user: ada, body: chatBody(conversationId, "First") }),
    );
    const chunks = await readUIStream(
      await call(chatRoute.POST, "/api/chat", { user: ada, body: chatBody(conversationId, "Second") }),
    );
    const streamed = chunks
      .filter((chunk) => chunk.type === "text-delta")
      .map((chunk) => chunk.delta)
      .join("");
    expect(streamed).toContain('Your last message: "Second"');
    expect(streamed).toMatch(/I got 4 messages/);
    const db = await getDb();
    expect((await listMessages({ db, conversationId })).map((m) => m.seq)).toEqual([1, 2, 3, 4]);
  });
});

describe("POST /api/chat refuses bad input and stores nothing", () => {
  const cases: Array<{
    name: string;
    body: (id: string) => unknown;
    status: number;
    code: string;
    message?: RegExp;
  }> = [
    { name: "malformed JSON", body: () => '{"id": ', status: 400, code: "invalid_json" },
    { name: "missing message", body: (id) => ({ id }), status: 400, code: "bad_request", message: /message/ },
    {
      name: "id that is not a UUID",
      body: () => chatBody("nope", "hi"),
      status: 400,
      code: "bad_request",
      message: /conversation id/,
    },
    {
      name: "message parts of the wrong type",
      body: (id) => ({ id, message: { role: "user", parts: "hi" } }),
      status: 400,
      code: "bad_request",
      message: /parts must be a list/,
    },
    {
      name: "assistant role",
      body: (id) => ({ id, message: { role: "assistant", parts: [{ type: "text", text: "x" }] } }),
      status: 400,
      code: "bad_request",
      message: /role must be user/,
    },
    {
      name: "empty text",
      body: (id) => chatBody(id, "   "),
      status: 400,
      code: "bad_request",
      message: /no text/,
    },
    {
      name: "text over the limit",
      body: (id) => chatBody(id, "x".repeat(20_001)),
      status: 400,
      code: "bad_request",
      message: /limit is 20000/,
    },
    {
      name: "a 1 MB message",
      body: (id) => chatBody(id, "x".repeat(1024 * 1024)),
      status: 413,
      code: "payload_too_large",
    },
    {
      name: "unknown conversation",
      body: () => chatBody("0190aaaa-0000-7000-8000-000000000000", "hi"),
      status: 404,
      code: "not_found",
    },
  ];

  test.each(cases)("$name", async ({ body, status, code, message }) => {
    const conversationId = await createConversation(ada);
    const response = await call(chatRoute.POST, "/api/chat", { user: ada, body: body(conversationId) });
    const text = await expectError(response, status, code);
    if (message) expect(text).toMatch(message);
    expect(await listMessages({ db: await getDb(), conversationId })).toEqual([]);
  });

  test("someone else's conversation is not found and gets no message", async () => {
    const conversationId = await createConversation(ada);
    await expectError(
      await call(chatRoute.POST, "/api/chat", { user: bob, body: chatBody(conversationId, "intrude") }),
      404,
      "not_found",
    );
    expect(await listMessages({ db: await getDb(), conversationId })).toEqual([]);
  });

  test("no session is a 401", async () => {
    const conversationId = await createConversation(ada);
    await expectError(
      await call(chatRoute.POST, "/api/chat", { body: chatBody(conversationId, "hi") }),
      401,
      "unauthorized",
    );
  });

  test("script in text is stored as text, never interpreted", async () => {
    const conversationId = await createConversation(ada);
    const payload = "<script>alert(1)</script><img src=x onerror=alert(2)>";
    await readUIStream(
      await call(chatRoute.POST, "/api/chat", { user: ada, body: chatBody(conversationId, payload) }),
    );
    const [stored] = await listMessages({ db: await getDb(), conversationId });
    expect(stored.parts).toEqual([{ type: "text", text: payload }]);
  });
});

describe("rate limits", () => {
  test("a user over the per-minute limit gets 429 with retry-after; other users are unaffected", async () => {
    const previous = process.env.CHAT_RATE_LIMIT_PER_MINUTE;
    process.env.CHAT_RATE_LIMIT_PER_MINUTE = "2";
    try {
      const carol = await signUp("Carol");
      const conversationId = await createConversation(carol);
      for (const text of ["one", "two"]) {
        const ok = await call(chatRoute.POST, "/api/chat", {
          user: carol,
          body: chatBody(conversationId, text),
        });
        expect(ok.status).toBe(200);
        await readUIStream(ok);
      }
      const refused = await call(chatRoute.POST, "/api/chat", {
        user: carol,
        body: chatBody(conversationId, "three"),
      });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await expectError(refused, 429, "rate_limited")).toMatch(/at most 2 per 60 seconds/);
      expect(
        (await listMessages({ db: await getDb(), conversationId })).map((m) => m.parts),
      ).not.toContainEqual([{ type: "text", text: "three" }]);

      const dave = await signUp("Dave");
      const daveConversation = await createConversation(dave);
      const daveResponse = await call(chatRoute.POST, "/api/chat", {
        user: dave,
        body: chatBody(daveConversation, "hi"),
      });
      expect(daveResponse.status).toBe(200);
      await readUIStream(daveResponse);
    } finally {
      if (previous === undefined) delete process.env.CHAT_RATE_LIMIT_PER_MINUTE;
      else process.env.CHAT_RATE_LIMIT_PER_MINUTE = previous;
    }
  });
});
