// Resumable replies. A page reloaded while its reply streams knows the reply is being written, with Redis (the
// stream is resumed) or without (the stored copy says `streaming` and grows by live events): Stop is shown and
// stops it on the server, Regenerate, Edit and Send wait, and the server refuses a new turn until the reply is
// stored. Across instances: two app servers on two ports share one Postgres and one Redis; a reply starts
// streaming from A, the client goes away, B resumes the same reply from its start and follows it to the end, and
// the reply is stored complete. The two-server tests need the e2e Postgres (E2E_DATABASE_URL: PGlite cannot be
// shared by two servers) and Redis (REDIS_URL, default the local one).
import type { ChildProcess } from "node:child_process";
import { expect, type Page, test } from "@playwright/test";
import { newAccountCookie } from "./cluster-client";
import { fakeProviderClient } from "./fake-providers/client";
import { type ChatPage, signUp, uniqueEmail } from "./pages/chat-page";
import { FAKE_PROVIDERS_URL, startExtraServer } from "./pages/extra-server";
import { readSse } from "./pages/ui-message-stream";

const APP_PORT = Number(process.env.E2E_APP_PORT ?? 3100);
const fake = fakeProviderClient(FAKE_PROVIDERS_URL);
const REPLY = "Lisbon in May: trams at dawn, fado at night, and pastries in between, one chunk at a time.";
/** "s1 s2 … s80", 250 ms apart: a reply still being written long after the reload. */
const SLOW_REPLY = Array.from({ length: 80 }, (_, index) => `s${index + 1}`).join(" ");
const twoServers = !process.env.E2E_DATABASE_URL;
const twoServersWhy = "two servers need one shared Postgres (E2E_DATABASE_URL)";

const servers: ChildProcess[] = [];

async function startServer(port: number, env: Record<string, string> = {}): Promise<string> {
  const { origin, process: server } = await startExtraServer(port, env);
  servers.push(server);
  return origin;
}

test.afterAll(() => {
  for (const server of servers) server.kill("SIGTERM");
});

test("a reply started on server A is resumed on server B from its start to its end", async () => {
  test.skip(twoServers, twoServersWhy);
  test.setTimeout(120_000);
  const [a, b] = await Promise.all([startServer(APP_PORT + 11), startServer(APP_PORT + 12)]);
  await fake.reset();

  // Sign up on A; the session cookie works on B (same database, same secret).
  const cookie = await newAccountCookie(a, "Ada", uniqueEmail("ada-resume"));
  const created = await fetch(`${a}/api/conversations`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: a },
    body: JSON.stringify({ title: "Resume me" }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };

  // A slow reply: 24 chunks, 300 ms apart (about 7 s), so that it is still being written when B is asked for it,
  // even on a loaded machine (B answers 204 once the reply is stored: nothing left to resume).
  await fake.script({ kind: "text", text: REPLY, chunks: 24, chunkDelayMs: 300 });
  const started = await fetch(`${a}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: a },
    body: JSON.stringify({
      id,
      message: { role: "user", parts: [{ type: "text", text: "Tell me about Lisbon." }] },
    }),
  });
  expect(started.status).toBe(200);
  // Read until the reply has begun, then go away from A.
  const reader = started.body?.getReader();
  if (!reader) throw new Error("no body");
  let seen = "";
  while (!seen.includes('"text-delta"')) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the stream ended before any text");
    seen += new TextDecoder().decode(value);
  }
  await reader.cancel();

  // B resumes it: the whole reply from its start, to its finish.
  const resumed = await fetch(`${b}/api/chat/${id}/stream`, { headers: { cookie } });
  expect(resumed.status).toBe(200);
  const { text, finished } = readSse(await resumed.text());
  expect(text).toBe(REPLY);
  expect(finished).toBe(true);

  // Stored complete; nothing left to resume.
  await expect
    .poll(async () => {
      const response = await fetch(`${b}/api/conversations/${id}/messages`, { headers: { cookie } });
      const { messages } = (await response.json()) as { messages: { authorType: string; status: string }[] };
      return messages.at(-1)?.status;
    })
    .toBe("complete");
  expect((await fetch(`${b}/api/chat/${id}/stream`, { headers: { cookie } })).status).toBe(204);
});

/**
 * On the chat page at `origin`: sends a question whose reply is slow, reloads once some of it is shown, then
 * checks that the page knows the reply is being written, that the server refuses a new turn meanwhile, and that
 * Stop stops it where the page showed it and gives the controls back.
 */
async function reloadMidStreamThenStop(page: Page, chat: ChatPage, origin: string, conversationId: string) {
  await fake.script({ kind: "text", text: SLOW_REPLY, chunks: 80, chunkDelayMs: 250 });
  // Typed once the page is live (hydrated): text typed before would not reach the composer's state.
  await expect(page.getByTestId("chat-view")).toHaveAttribute("data-live", "connected");
  await page.getByTestId("composer-input").fill("Count to eighty.");
  await page.getByTestId("composer-input").press("Enter");
  const reply = chat.messages("assistant");
  await expect(reply.getByTestId("message-text")).toContainText("s10");
  await page.reload();

  // The reply is still being written: Stop, and nothing that would start another turn.
  await expect(page.getByTestId("stop-button")).toBeVisible();
  await expect(reply).toHaveAttribute("data-status", "streaming");
  await expect(page.getByTestId("send-button")).toHaveCount(0);
  await expect(page.getByTestId("write-as-me")).toBeDisabled();
  await expect(reply.getByTestId("regenerate-button")).toHaveCount(0);
  await expect(page.getByTestId("edit-message")).toHaveCount(0);
  // The page follows the reply as it grows.
  await expect(reply.getByTestId("message-text")).toContainText("s20");
  // The preview is built, and says the reply in it is not whole yet.
  const preview = await chat.openPreview();
  await expect(preview.root.getByTestId("preview-reply-in-progress")).toContainText(
    "A reply is still being written",
  );
  await preview.close();

  // The server refuses a new turn meanwhile, in the app's error format.
  const refused = await page.request.post(`${origin}/api/chat`, {
    headers: { origin },
    data: {
      id: conversationId,
      message: { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text: "Done yet?" }] },
      trigger: "submit-message",
    },
  });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toEqual({
    error: {
      code: "conflict",
      message:
        "A reply is still being written in this conversation: wait for it or stop it, then send your message.",
    },
  });

  await page.getByTestId("stop-button").click();
  await expect(reply.getByTestId("stopped-chip")).toBeVisible();
  await expect(page.getByTestId("send-button")).toBeVisible();
  await expect(page.getByTestId("write-as-me")).toBeEnabled();
  await expect(reply.getByTestId("regenerate-button")).toBeVisible();
  await expect(chat.messages("user").getByTestId("edit-message")).toBeVisible();
  const shown = ((await reply.getByTestId("message-text").textContent()) ?? "").trim();
  expect(shown).toMatch(/^s1 s2 s3 .* s2\d/);
  expect(shown).not.toContain("s80");

  // Stored stopped with the text shown; the provider's request was closed.
  const response = await page.request.get(`${origin}/api/conversations/${conversationId}/messages`);
  const { messages } = (await response.json()) as {
    messages: { authorType: string; status: string; parts: { type: string; text?: string }[] }[];
  };
  expect(messages.map((message) => [message.authorType, message.status])).toEqual([
    ["user", "complete"],
    ["persona", "stopped"],
  ]);
  expect(messages[1].parts[0]?.text?.trim()).toBe(shown);
  const [request] = await fake.requests("openai-chat");
  expect(request.closedByClientAt).not.toBeNull();

  // The next turn is accepted and sends the stopped text, the same as the transcript shows.
  await fake.script({ kind: "text", text: "Stopped at your word." });
  await page.getByTestId("composer-input").fill("Why stop there?");
  await page.getByTestId("composer-input").press("Enter");
  await expect(reply.nth(1).getByTestId("message-text")).toHaveText("Stopped at your word.");
  const [, next] = await fake.requests("openai-chat");
  const sent = JSON.parse(next.body).messages as { role: string; content: string }[];
  expect(
    sent.filter((message) => message.role === "assistant").map((message) => message.content.trim()),
  ).toEqual([shown]);
}

test("a reload mid-stream keeps Stop; Regenerate, Edit and Send wait; Stop stops it on the server", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await fake.reset();
  const { chat } = await signUp(page, "Reloader");
  const conversationId = await chat.newConversation();
  await reloadMidStreamThenStop(page, chat, `http://127.0.0.1:${APP_PORT}`, conversationId);
});

test("with Redis, the reloaded page resumes the stream and keeps the same controls", async ({ browser }) => {
  test.skip(twoServers, twoServersWhy);
  test.setTimeout(120_000);
  // Titles from the offline model, as on the run's server: the fake provider sees only the replies.
  const origin = await startServer(APP_PORT + 13, { TITLE_MODEL_ID: "offline:echo" });
  await fake.reset();
  const context = await browser.newContext({ baseURL: origin, extraHTTPHeaders: { origin } });
  try {
    const page = await context.newPage();
    const { chat } = await signUp(page, "Resumer");
    const conversationId = await chat.newConversation();
    await reloadMidStreamThenStop(page, chat, origin, conversationId);
  } finally {
    await context.close();
  }
});
