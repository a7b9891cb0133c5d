// Graceful shutdown (docs/deploy.md#graceful-shutdown), in-process: once shutdown begins, a new turn is refused
// with 503 and retry-after and readiness is 503; a reply that finishes within SHUTDOWN_GRACE_MS is stored complete;
// one still streaming when the grace period ends is stopped and stored `interrupted` with the text it had, its turn
// too, and its stream tells the client. Shutdown closes the app's database handle, so this file checks the rows
// with a handle of its own (Postgres or the embedded PGlite, as the app's).
import { sql } from "drizzle-orm";
import { afterAll, expect, test } from "vitest";
import * as readyRoute from "@/app/api/ready/route";
import { createDatabase, getDb } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { shutDown } from "@/lib/shutdown";
import { signUp } from "../api-client";
import { createConversation } from "../fixtures/personas";
import { postChat, streamedText } from "../fixtures/turns";

const saved = {
  OFFLINE_MODEL_WORD_DELAY_MS: process.env.OFFLINE_MODEL_WORD_DELAY_MS,
  SHUTDOWN_GRACE_MS: process.env.SHUTDOWN_GRACE_MS,
};
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** Reads a UI message stream as it comes: its chunks so far, and a promise of all of them. */
function follow(response: Response) {
  const chunks: Array<Record<string, unknown>> = [];
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (!reader) throw new Error("no body");
  let buffered = "";
  const done = (async () => {
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) return chunks;
      buffered += value;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        if (line.startsWith("data: ") && line !== "data: [DONE]") chunks.push(JSON.parse(line.slice(6)));
      }
    }
  })();
  return { chunks, done };
}

async function until(check: () => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("SIGTERM's sequence: no new turns, running replies finish within the grace period, the rest are interrupted", async () => {
  await getDb();
  const ada = await signUp("Ada");
  const [quick, slow, late] = await Promise.all([
    createConversation(ada),
    createConversation(ada),
    createConversation(ada),
  ]);
  // The offline model streams word by word: about 30 words for a short message, over 100 for a long one.
  process.env.OFFLINE_MODEL_WORD_DELAY_MS = "80";
  process.env.SHUTDOWN_GRACE_MS = "4500";
  const slowReply = follow(await postChat(ada, slow, "a ".repeat(120).trim()));
  const quickReply = follow(await postChat(ada, quick, "Hi"));
  await until(() => slowReply.chunks.some((chunk) => chunk.type === "text-delta"));

  const shuttingDown = shutDown("SIGTERM");
  const refused = await postChat(ada, late, "Too late?");
  expect(refused.status).toBe(503);
  expect(refused.headers.get("retry-after")).toBe("1");
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("service_unavailable");
  const ready = await readyRoute.GET();
  expect(ready.status).toBe(503);
  expect(((await ready.json()) as { checks: { shutdown: { ok: boolean } } }).checks.shutdown.ok).toBe(false);
  await shuttingDown;

  const quickChunks = await quickReply.done;
  expect(quickChunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
  const slowChunks = await slowReply.done;
  expect(slowChunks.find((chunk) => chunk.type === "error")?.errorText).toMatch(/restarted/);
  expect(slowChunks.at(-1)).toMatchObject({ type: "finish", finishReason: "error" });

  // The app's handle is closed: the rows are read through one of this test's own.
  const own = createDatabase();
  try {
    await own.ready;
    const rows = await queryRows<{
      conversationId: string;
      status: string;
      text: string;
      turnStatus: string;
    }>(
      own.db,
      sql`select m."conversationId", m.status, coalesce(m.parts -> 0 ->> 'text', '') as text, t.status as "turnStatus"
      from messages m join turns t on t."assistantMessageId" = m.id
      where m."conversationId" in (${quick}, ${slow}, ${late})`,
    );
    const byConversation = new Map(rows.map((row) => [row.conversationId, row]));
    expect(byConversation.get(quick)).toMatchObject({ status: "complete", turnStatus: "ok" });
    expect(byConversation.get(quick)?.text).toBe(streamedText(quickChunks));
    expect(byConversation.get(slow)).toMatchObject({ status: "interrupted", turnStatus: "interrupted" });
    // What was stored is what the client was shown, cut where the grace period ended.
    expect(byConversation.get(slow)?.text).toBe(streamedText(slowChunks));
    expect(streamedText(slowChunks).length).toBeGreaterThan(0);
    expect(byConversation.has(late)).toBe(false);
    const [{ count }] = await queryRows<{ count: number }>(
      own.db,
      sql`select count(*)::int as count from messages where "conversationId" = ${late}`,
    );
    expect(count).toBe(0);
  } finally {
    await own.close();
  }
}, 60_000);
