// Hostile JSON bodies through the real route handlers: the body of issue 25 (60 nested objects around an array of
// zeros) at 240 KB, 2 MB and 12 MB is answered with a 4xx quickly, with bounded memory and CPU, on the archive
// import (the route that takes the largest bodies) and on an ordinary route. Text the database cannot store (a
// lone surrogate) is a 400 on every route that takes text, never a 500.
import { describe, expect, test } from "vitest";
import * as replayRoute from "@/app/api/attempts/[id]/replay/route";
import * as chatRoute from "@/app/api/chat/route";
import * as uploadRoute from "@/app/api/conversations/[id]/attachments/route";
import * as messageRoute from "@/app/api/conversations/[id]/messages/[messageId]/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import * as importRoute from "@/app/api/conversations/import/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import * as searchRoute from "@/app/api/search/route";
import { call, expectError } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { nestedZerosBody } from "../fixtures/nested-zeros";
import { measureCost } from "../fixtures/peak-memory";
import { conversationWithPersona } from "../fixtures/personas";
import { fetchTurns, runTurn, storedMessages } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

const KB = 1024;
const MB = 1024 * 1024;

/** Each size, with the most its reading may cost. The same bodies cost 100 MB to 4 GB (a crash) unbounded. */
const HOSTILE = [
  { label: "240 KB", bytes: 240 * KB, maxRssGrowthMb: 32, maxCpuMs: 400 },
  { label: "2 MB", bytes: 2 * MB, maxRssGrowthMb: 48, maxCpuMs: 1_000 },
  { label: "12 MB", bytes: 12 * MB, maxRssGrowthMb: 64, maxCpuMs: 1_500 },
];

async function postRaw(handler: typeof importRoute.POST, path: string, body: string) {
  const { result: response, cost } = await measureCost(() =>
    call(handler, path, { user: ada, body, headers: { "content-type": "application/json" } }),
  );
  return {
    status: response.status,
    payload: (await response.json()) as { error: { code: string; message: string } },
    cost,
  };
}

describe("the nested-zeros body", () => {
  test.each(HOSTILE)(
    "$label to the archive import: 4xx with bounded memory and CPU",
    async ({ bytes, maxRssGrowthMb, maxCpuMs }) => {
      const body = nestedZerosBody(bytes);
      const { status, payload, cost } = await postRaw(importRoute.POST, "/api/conversations/import", body);
      // The two smaller bodies fit the import's value cap: parsed, they fail the archive's schema (400); the 12 MB
      // one holds six million values and is refused before it is parsed (413).
      if (bytes >= 12 * MB) {
        expect(status).toBe(413);
        expect(payload.error.code).toBe("payload_too_large");
        expect(payload.error.message).toMatch(/more than 4194304 JSON values/);
      } else {
        expect(status).toBe(400);
      }
      expect(cost.rssGrowthMb).toBeLessThan(maxRssGrowthMb);
      expect(cost.cpuMs).toBeLessThan(maxCpuMs);
    },
  );

  test.each(HOSTILE)(
    "$label to an ordinary route: 413 with bounded memory and CPU",
    async ({ bytes, maxRssGrowthMb, maxCpuMs }) => {
      const body = nestedZerosBody(bytes);
      const { status, payload, cost } = await postRaw(conversationsRoute.POST, "/api/conversations", body);
      expect(status).toBe(413);
      expect(payload.error.code).toBe("payload_too_large");
      // Within the byte cap the value cap refuses it; past it, the byte cap does.
      expect(payload.error.message).toMatch(
        bytes < 256 * KB ? /more than 10000 JSON values/ : /larger than 256 KB/,
      );
      expect(cost.rssGrowthMb).toBeLessThan(maxRssGrowthMb);
      expect(cost.cpuMs).toBeLessThan(maxCpuMs);
    },
  );

  test("the largest body of bare numbers the import parses (just under its value cap) still costs a bounded amount", async () => {
    const body = nestedZerosBody(8 * MB - 2 * KB);
    const { status, cost } = await postRaw(importRoute.POST, "/api/conversations/import", body);
    expect(status).toBe(400);
    expect(cost.rssGrowthMb).toBeLessThan(256);
  });
});

describe("a lone surrogate is a 400 on every route that stores text", () => {
  const LONE = "tulips \ud800 in spring";

  test("chat, edit, settings override, import and replay", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    env.providers.script({ kind: "text", text: "Plant them deep." });
    await runTurn(ada, conversationId, "How deep should tulips be planted?");
    const [userMessage] = await storedMessages(conversationId);
    const { turns } = await fetchTurns(ada, conversationId);
    const attemptId = turns[0].attempts[0].id;
    const refusals = [
      {
        name: "chat",
        response: await call(chatRoute.POST, "/api/chat", {
          user: ada,
          body: {
            id: conversationId,
            message: { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text: LONE }] },
            trigger: "submit-message",
          },
        }),
        path: /^message\.parts\.0\.text: /,
      },
      {
        name: "edit",
        response: await call(
          messageRoute.PATCH,
          `/api/conversations/${conversationId}/messages/${userMessage.id}`,
          {
            user: ada,
            method: "PATCH",
            body: { text: LONE },
            params: { id: conversationId, messageId: userMessage.id },
          },
        ),
        path: /^text: /,
      },
      {
        name: "settings override",
        response: await call(conversationRoute.PATCH, `/api/conversations/${conversationId}`, {
          user: ada,
          method: "PATCH",
          body: { settingsOverride: { keyContextReminder: LONE } },
          params: { id: conversationId },
        }),
        path: /^settingsOverride\.keyContextReminder: /,
      },
      {
        name: "import",
        response: await call(importRoute.POST, "/api/conversations/import", {
          user: ada,
          body: { format: "glassbox.conversation", version: 1, conversation: { title: LONE } },
        }),
        path: /^conversation\.title: /,
      },
      {
        name: "replay",
        response: await call(replayRoute.POST, `/api/attempts/${attemptId}/replay`, {
          user: ada,
          body: { systemPrompt: LONE },
          params: { id: attemptId },
        }),
        path: /^systemPrompt: /,
      },
      {
        name: "a key (a settings override's)",
        response: await call(conversationRoute.PATCH, `/api/conversations/${conversationId}`, {
          user: ada,
          method: "PATCH",
          body: `{"settingsOverride":{"\\udc00":1}}`,
          params: { id: conversationId },
        }),
        path: /^settingsOverride\.\\udc00: a key /,
      },
    ];
    for (const { name, response, path } of refusals) {
      const message = await expectError(response, 400, "bad_request").catch((error: Error) => {
        throw new Error(`${name}: ${error.message}`);
      });
      expect(message, name).toMatch(path);
      expect(message, name).toMatch(/lone surrogate/);
    }
    // Nothing of it was stored: the conversation still has its one turn.
    expect(await storedMessages(conversationId)).toHaveLength(2);
  });
});

describe("a lone surrogate from the address or an upload is a 400 too", () => {
  test("percent-encoded in the query or the path: no UTF-8, so malformed encoding", async () => {
    for (const path of ["/api/search?q=%ED%A0%80", "/api/search?q=tulips%ED%B0%80"]) {
      const message = await expectError(await call(searchRoute.GET, path, { user: ada }), 400, "bad_request");
      expect(message).toMatch(/malformed percent-encoding/);
    }
    const conversationPath = "/api/conversations/%ED%A0%80";
    const response = await call(conversationRoute.PATCH, conversationPath, {
      user: ada,
      method: "PATCH",
      body: { title: "x" },
      params: { id: "\ud800" },
    });
    expect(await expectError(response, 400, "bad_request")).toMatch(/malformed percent-encoding/);
    // A real pair, encoded, is just text.
    expect((await call(searchRoute.GET, "/api/search?q=%F0%9F%8C%B7", { user: ada })).status).toBe(200);
  });

  test("an upload's file name encoded as a lone surrogate is a 400, never a 500", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    const boundary = "glassbox-boundary";
    const body = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''%ED%A0%80.png\r\n` +
        `Content-Type: image/png\r\n\r\nnot really a png\r\n--${boundary}--\r\n`,
    );
    const response = await uploadRoute.POST(
      new Request(`http://localhost:3000/api/conversations/${conversationId}/attachments`, {
        method: "POST",
        headers: {
          origin: "http://localhost:3000",
          host: "localhost:3000",
          cookie: ada.cookie,
          "content-type": `multipart/form-data; boundary=${boundary}`,
        },
        body,
      }),
      { params: Promise.resolve({ id: conversationId }) as Promise<never> },
    );
    await expectError(response, 400, "bad_request");
  });
});
