// Resumable replies across instances: two app servers on two ports share one Postgres and one Redis. A
// reply starts streaming from A; the client goes away; B resumes the same reply from its start and follows it to
// the end, and the reply is stored complete. Needs the e2e Postgres (E2E_DATABASE_URL: PGlite cannot be shared by
// two servers) and Redis (REDIS_URL, default the local one).
import type { ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import { newAccountCookie } from "./cluster-client";
import { fakeProviderClient } from "./fake-providers/client";
import { uniqueEmail } from "./pages/chat-page";
import { FAKE_PROVIDERS_URL, startExtraServer } from "./pages/extra-server";
import { readSse } from "./pages/ui-message-stream";

const APP_PORT = Number(process.env.E2E_APP_PORT ?? 3100);
const fake = fakeProviderClient(FAKE_PROVIDERS_URL);
const REPLY = "Lisbon in May: trams at dawn, fado at night, and pastries in between, one chunk at a time.";

test.skip(!process.env.E2E_DATABASE_URL, "two servers need one shared Postgres (E2E_DATABASE_URL)");

const servers: ChildProcess[] = [];

async function startServer(port: number): Promise<string> {
  const { origin, process: server } = await startExtraServer(port);
  servers.push(server);
  return origin;
}

test.afterAll(() => {
  for (const server of servers) server.kill("SIGTERM");
});

test("a reply started on server A is resumed on server B from its start to its end", async () => {
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

  // A slow reply: 24 chunks, 120 ms apart (about 3 s).
  await fake.script({ kind: "text", text: REPLY, chunks: 24, chunkDelayMs: 120 });
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
