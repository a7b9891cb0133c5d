// Scale-out on real parts (docs/deploy.md): three `next start` instances sharing one Postgres and one Redis behind
// nginx (deploy/nginx.conf, e2e/cluster.ts). Turns, live events and uploads work through nginx and across
// instances; an instance killed while it relays a reply lets the client resume the whole reply from another; an
// instance killed while it writes a reply leaves it `interrupted`, stored once; and a rolling restart (SIGTERM one
// instance at a time, start it again) during a 50-turn burst loses no reply. The database is checked, not only
// what the client saw. Needs the e2e Postgres (E2E_DATABASE_URL), Redis and nginx.
import { expect, test } from "@playwright/test";
import type postgres from "postgres";
import { TEST_IMAGES } from "../tests/fixtures/images";
import type { Cluster, Instance } from "./cluster";
import {
  chatRequest,
  newConversation,
  runningTurnInstanceId,
  signUp,
  storedMessages,
} from "./cluster-client";
import { burstSetUp, clusterForFile, clusterFake as fake } from "./cluster-fixture";
import { readSse } from "./pages/ui-message-stream";

// The ports 50–53 above the app's (3550–3553 with E2E_APP_PORT=3500): nginx, then the instances.
const BASE_PORT = Number(process.env.E2E_APP_PORT ?? 3100) + 50;
const BURST = 50;

let cluster: Cluster;
let sql: postgres.Sql;
clusterForFile({
  basePort: BASE_PORT,
  instances: 3,
  sharers: "the instances",
  started: (handles) => ({ cluster, sql } = handles),
});

/** Reads a stream until `enough` says so; returns what was read and the reader (to cancel or read on). */
async function readUntil(response: Response, enough: (seen: string) => boolean) {
  const reader = response.body?.getReader();
  if (!reader) throw new Error("no body");
  const decoder = new TextDecoder();
  let seen = "";
  while (!enough(seen)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended first: ${seen.slice(-200)}`);
    seen += decoder.decode(value, { stream: true });
  }
  return { seen, reader };
}

const countTextDeltas = (seen: string) => (seen.match(/"text-delta"/g) ?? []).length;

async function runningInstance(conversationId: string): Promise<Instance> {
  return cluster.instanceNamed(await runningTurnInstanceId(sql, conversationId));
}

test("turns, uploads and live events work through nginx and across the instances", async () => {
  test.setTimeout(90_000);
  await fake.reset();
  const [a, b, c] = cluster.instances;
  const ada = await signUp(cluster.url, "Ada");
  const id = await newConversation(ada, cluster.url);

  // A reader on instance C follows the conversation's live events while the rest happens elsewhere.
  const events = await ada.call(c.origin, `/api/conversations/${id}/events`);
  expect(events.status).toBe(200);
  expect(events.headers.get("content-type")).toContain("text/event-stream");

  // The image goes up to instance A; the turn that sends it runs wherever nginx puts it.
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(TEST_IMAGES.png)], { type: "image/png" }), "pixel.png");
  const uploaded = await ada.call(a.origin, `/api/conversations/${id}/attachments`, {
    method: "POST",
    body: form,
  });
  expect(uploaded.status).toBe(201);
  const { attachment } = (await uploaded.json()) as { attachment: { id: string; url: string } };
  const image = await ada.call(cluster.url, attachment.url);
  expect(image.status).toBe(200);
  expect(Buffer.from(await image.arrayBuffer()).equals(TEST_IMAGES.png)).toBe(true);

  const reply = "Through the balancer: one pixel, seen.";
  await fake.script({ kind: "text", text: reply, chunks: 6, chunkDelayMs: 50 });
  const turn = await ada.call(
    cluster.url,
    "/api/chat",
    chatRequest(id, "What is in the picture?", undefined, [attachment.url]),
  );
  expect(turn.status).toBe(200);
  expect(readSse(await turn.text())).toEqual({ text: reply, finished: true });
  // The upload made on A belongs to the message the turn stored wherever it ran.
  const [linked] = await sql<{ authorType: string }[]>`
    select m."authorType" from attachments a join messages m on m.id = a."messageId" where a.id = ${attachment.id}`;
  expect(linked).toEqual({ authorType: "user" });

  // Instance C saw it all through Redis: the user's message and the reply, complete.
  const followed = await readUntil(events, (text) => text.includes(reply) && text.includes('"complete"'));
  expect(followed.seen).toContain("What is in the picture?");

  // Instance B reads the same transcript.
  const messages = await ada.call(b.origin, `/api/conversations/${id}/messages`);
  const { messages: listed } = (await messages.json()) as {
    messages: { authorType: string; status: string }[];
  };
  expect(listed.map((message) => [message.authorType, message.status])).toEqual([
    ["user", "complete"],
    ["persona", "complete"],
  ]);
  await followed.reader.cancel();
});

test("the instance relaying a reply is killed: the client resumes the whole reply from another", async () => {
  test.setTimeout(90_000);
  await fake.reset();
  const ada = await signUp(cluster.url, "Grace");
  const id = await newConversation(ada, cluster.url);
  const reply = "Trams at dawn, fado at night, and pastries in between: one chunk at a time, never twice.";
  await fake.script({ kind: "text", text: reply, chunks: 30, chunkDelayMs: 150 });
  const started = await ada.call(cluster.url, "/api/chat", chatRequest(id, "Tell me about Lisbon."));
  expect(started.status).toBe(200);
  const first = await readUntil(started, (seen) => countTextDeltas(seen) >= 2);
  await first.reader.cancel(); // the client goes away (a reload)

  // It comes back through another instance than the one writing the reply, which then dies mid-stream.
  const writer = await runningInstance(id);
  const relay = cluster.instances.find((instance) => instance !== writer) as Instance;
  const relayed = await ada.call(relay.origin, `/api/chat/${id}/stream`);
  expect(relayed.status).toBe(200);
  const partial = await readUntil(relayed, (seen) => countTextDeltas(seen) >= 4);
  expect(await cluster.stop(relay, "SIGKILL")).toBe(null);
  await partial.reader.cancel().catch(() => {});

  // Resumed through nginx (which skips the dead instance): the whole reply from its start to its end.
  const resumed = await ada.call(cluster.url, `/api/chat/${id}/stream`);
  expect(resumed.status).toBe(200);
  expect(readSse(await resumed.text())).toEqual({ text: reply, finished: true });
  await expect.poll(async () => (await storedMessages(sql, id)).at(-1)?.status).toBe("complete");
  expect(await storedMessages(sql, id)).toEqual([
    { authorType: "user", status: "complete", text: "Tell me about Lisbon." },
    { authorType: "persona", status: "complete", text: reply },
  ]);
  await cluster.start(relay);
});

test("the instance writing a reply is killed: the reply ends interrupted, stored once, and the next turn works", async () => {
  test.setTimeout(90_000);
  await fake.reset();
  const ada = await signUp(cluster.url, "Hedy");
  const id = await newConversation(ada, cluster.url);
  const reply = "one two three four five six seven eight nine ten ".repeat(4).trim();
  await fake.script({ kind: "text", text: reply, chunks: 40, chunkDelayMs: 100 });
  const started = await ada.call(cluster.url, "/api/chat", chatRequest(id, "Count slowly."));
  expect(started.status).toBe(200);
  // Eight words in: at least one of the 500 ms writes has stored some text.
  const partial = await readUntil(started, (seen) => countTextDeltas(seen) >= 8);
  const writer = await runningInstance(id);
  await cluster.stop(writer, "SIGKILL");
  await partial.reader.cancel().catch(() => {});

  // Nothing is left to resume (the stream lived in the dead process): another instance says so at once.
  const resumed = await ada.call(cluster.url, `/api/chat/${id}/stream`);
  expect(resumed.status).toBe(204);
  // Started again under its name, the instance marks its own earlier turn interrupted.
  await cluster.start(writer);
  await expect
    .poll(async () => (await storedMessages(sql, id)).at(-1)?.status, { timeout: 15_000 })
    .toBe("interrupted");
  const [user, cut] = await storedMessages(sql, id);
  expect(user).toEqual({ authorType: "user", status: "complete", text: "Count slowly." });
  expect(cut.text.length).toBeGreaterThan(0);
  expect(reply.startsWith(cut.text)).toBe(true);

  await fake.script({ kind: "text", text: "Back again." });
  const next = await ada.call(cluster.url, "/api/chat", chatRequest(id, "Are you back?"));
  expect(next.status).toBe(200);
  expect(readSse(await next.text())).toEqual({ text: "Back again.", finished: true });
  expect((await storedMessages(sql, id)).map((row) => [row.authorType, row.status])).toEqual([
    ["user", "complete"],
    ["persona", "interrupted"],
    ["user", "complete"],
    ["persona", "complete"],
  ]);
});

test("a rolling restart during a 50-turn burst loses no reply", async () => {
  test.setTimeout(180_000);
  const reply = "A reply that survives a rolling restart, word by word, to its very last word.";
  const script = { text: reply, chunks: 20, chunkDelayMs: 100, times: BURST };
  const { user: ada, ids } = await burstSetUp(cluster.url, "Rolling", script);

  // Each client sends once, and again with the same message id when a draining instance refuses it (503 with
  // retry-after): the same id is never a second message.
  let refusals = 0;
  const send = async (id: string, index: number) => {
    await new Promise((resolve) => setTimeout(resolve, index * 400));
    const messageId = crypto.randomUUID();
    for (let attempt = 0; attempt < 20; attempt++) {
      const response = await ada.call(cluster.url, "/api/chat", chatRequest(id, `Turn ${index}`, messageId));
      if (response.status === 503) {
        refusals++;
        await response.body?.cancel();
        await new Promise((resolve) =>
          setTimeout(resolve, Number(response.headers.get("retry-after") ?? 1) * 1000),
        );
        continue;
      }
      expect(response.status, await response.clone().text()).toBe(200);
      return readSse(await response.text());
    }
    throw new Error(`turn ${index} was refused 20 times`);
  };
  const burst = Promise.all(ids.map(send));

  // One instance at a time: SIGTERM (it drains and exits by itself), start it again, wait until it is ready.
  // The restarts begin once the burst is under way: replies are streaming from the provider.
  const restarts: string[] = [];
  await expect
    .poll(async () => (await fake.requests()).length, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(3);
  for (const instance of cluster.instances) {
    expect(await cluster.stop(instance, "SIGTERM")).toBe(0);
    await cluster.start(instance);
    restarts.push(instance.name);
  }
  const results = await burst;
  console.log(
    `rolling restart of ${restarts.join(", ")} during ${BURST} turns: ${refusals} refusals retried`,
  );

  expect(results).toEqual(ids.map(() => ({ text: reply, finished: true })));
  for (const [index, id] of ids.entries()) {
    expect(await storedMessages(sql, id)).toEqual([
      { authorType: "user", status: "complete", text: `Turn ${index}` },
      { authorType: "persona", status: "complete", text: reply },
    ]);
  }
  const turns = await sql<{ status: string; count: number }[]>`
    select status, count(*)::int as count from turns where "conversationId" in ${sql(ids)} group by status`;
  expect(turns).toEqual([{ status: "ok", count: BURST }]);
});
