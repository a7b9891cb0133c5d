// A server killed mid-reply (kill -9) and started again: the reply it was writing ends `interrupted` with the text
// stored so far, its turn too, the next turn works, and nothing is stored twice. Repeated CRASH_REPETITIONS times
// (default 20 in CI, where a round takes about 10 s; 5 elsewhere), each a real kill -9 mid-stream and a fresh
// start. Needs the e2e Postgres (E2E_DATABASE_URL): PGlite cannot be shared by two servers.
import type { ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import { newAccountCookie } from "./cluster-client";
import { fakeProviderClient } from "./fake-providers/client";
import { uniqueEmail } from "./pages/chat-page";
import { FAKE_PROVIDERS_URL, startExtraServer } from "./pages/extra-server";

const PORT = Number(process.env.E2E_APP_PORT ?? 3100) + 21;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const fake = fakeProviderClient(FAKE_PROVIDERS_URL);
const REPETITIONS = Number(process.env.CRASH_REPETITIONS || (process.env.CI ? 20 : 5));

test.skip(!process.env.E2E_DATABASE_URL, "a second server needs the shared Postgres (E2E_DATABASE_URL)");

let server: ChildProcess | null = null;

async function startServer(): Promise<void> {
  server = (
    await startExtraServer(PORT, {
      REDIS_URL: "",
      // The same name after every restart: its turns from an earlier life are recovered at once.
      INSTANCE_ID: "crash-recovery-e2e",
      // Titles from the offline model: a title request to the fake provider could take the reply scripted next.
      TITLE_MODEL_ID: "offline:echo",
    })
  ).process;
}

function killServer(): Promise<void> {
  const running = server;
  server = null;
  if (!running || running.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    running.once("exit", () => resolve());
    running.kill("SIGKILL");
  });
}

test.afterAll(async () => {
  await killServer();
});

interface StoredMessage {
  authorType: string;
  status: string;
  parts: { type: string; text?: string }[];
}

const textOf = (message: StoredMessage) =>
  message.parts.map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");

test("kill -9 mid-reply, restart: the reply ends interrupted, the next turn works, nothing is duplicated", async () => {
  test.setTimeout(60_000 + REPETITIONS * 30_000);
  await fake.reset();
  await startServer();
  const cookie = await newAccountCookie(ORIGIN, "Crash", uniqueEmail("crash"));
  const headers = { "content-type": "application/json", cookie, origin: ORIGIN };
  const created = await fetch(`${ORIGIN}/api/conversations`, { method: "POST", headers, body: "{}" });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const messages = async () => {
    const response = await fetch(`${ORIGIN}/api/conversations/${id}/messages`, { headers: { cookie } });
    return ((await response.json()) as { messages: StoredMessage[] }).messages;
  };
  const send = (text: string) =>
    fetch(`${ORIGIN}/api/chat`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        id,
        message: { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text }] },
      }),
    });

  const roundMs: number[] = [];
  for (let round = 1; round <= REPETITIONS; round++) {
    const roundStarted = Date.now();
    // A slow reply, killed mid-stream.
    await fake.script({
      kind: "text",
      text: "one two three four five six seven eight nine ten".repeat(4),
      chunks: 40,
      chunkDelayMs: 100,
    });
    const started = await send(`Crash me, round ${round}`);
    expect(started.status).toBe(200);
    const reader = started.body?.getReader();
    if (!reader) throw new Error("no body");
    let seen = "";
    // Eight words in: at least one of the 500 ms writes has stored some text.
    while ((seen.match(/"text-delta"/g) ?? []).length < 8) {
      const { value, done } = await reader.read();
      if (done)
        throw new Error(`round ${round}: the stream ended before the crash, after: ${seen.slice(-600)}`);
      seen += new TextDecoder().decode(value);
    }
    await killServer();
    await startServer();

    // Recovered soon after the start: the reply interrupted with what was stored, not `streaming` forever.
    await expect
      .poll(async () => (await messages()).at(-1)?.status, { timeout: 10_000, intervals: [250] })
      .toBe("interrupted");
    const cut = (await messages()).at(-1) as StoredMessage;
    expect(textOf(cut).length).toBeGreaterThan(0);

    // The next turn works and is stored once.
    await fake.script({ kind: "text", text: `Back in round ${round}.` });
    const next = await send(`Are you back? Round ${round}`);
    expect(next.status).toBe(200);
    await next.text();
    await expect.poll(async () => (await messages()).at(-1)?.status, { timeout: 10_000 }).toBe("complete");
    roundMs.push(Date.now() - roundStarted);
  }
  console.log(
    `${REPETITIONS} kill -9 rounds: ${roundMs.join(", ")} ms; mean ${Math.round(
      roundMs.reduce((sum, ms) => sum + ms, 0) / roundMs.length,
    )} ms`,
  );

  // Every user message once, each followed by its reply: interrupted, then complete, round after round.
  const stored = await messages();
  expect(stored.map((message) => [message.authorType, message.status])).toEqual(
    Array.from({ length: REPETITIONS }, () => [
      ["user", "complete"],
      ["persona", "interrupted"],
      ["user", "complete"],
      ["persona", "complete"],
    ]).flat(),
  );
  const userTexts = stored.filter((message) => message.authorType === "user").map(textOf);
  expect(new Set(userTexts).size).toBe(userTexts.length);
});
