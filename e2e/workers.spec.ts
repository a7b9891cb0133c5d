// One instance on all its cores (docs/deploy.md, "Workers"): scripts/serve.mjs with WEB_CONCURRENCY=2 runs two
// `next start` workers on one port. Bursts are served by both and every reply is stored once; a worker killed in the
// middle of a reply is started again under its number, which marks that reply interrupted at once, and the
// instance takes the next turn; SIGTERM drains both workers, whose replies finish, and the instance exits 0.
// Needs the e2e Postgres (E2E_DATABASE_URL) and Redis; e2e/cluster.ts also starts nginx, unused here.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import type postgres from "postgres";
import type { Cluster, Instance } from "./cluster";
import {
  chatRequest,
  newConversation,
  runningTurnInstanceId,
  type Session,
  signUp,
  storedMessages,
} from "./cluster-client";
import { burstSetUp, clusterForFile, clusterFake as fake } from "./cluster-fixture";
import { readSse } from "./pages/ui-message-stream";

// The ports 60–61 above the app's: nginx (unused), then the instance (scale-out.spec.ts takes 50–53).
const BASE_PORT = Number(process.env.E2E_APP_PORT ?? 3100) + 60;

let cluster: Cluster;
let instance: Instance;
let sql: postgres.Sql;
clusterForFile({
  basePort: BASE_PORT,
  instances: 1,
  workersPerInstance: 2,
  sharers: "the workers",
  started: (handles) => {
    ({ cluster, sql } = handles);
    [instance] = cluster.instances;
  },
});

/** One turn from `session` straight to the instance. */
function sendTurn(session: Session, conversationId: string, text: string) {
  return session.call(instance.origin, "/api/chat", chatRequest(conversationId, text));
}

/** The instance's worker processes by their number (INSTANCE_WORKER in each one's environment). */
function workerPids(): Map<string, number> {
  const primary = instance.process?.pid;
  if (primary === undefined) throw new Error("the instance is not running");
  const pids = readFileSync(`/proc/${primary}/task/${primary}/children`, "utf8")
    .trim()
    .split(" ")
    .map(Number);
  const byNumber = new Map<string, number>();
  for (const pid of pids) {
    let environment: string[];
    try {
      environment = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    } catch {
      continue; // a worker that has just exited
    }
    const number = environment.find((entry) => entry.startsWith("INSTANCE_WORKER="))?.slice(16);
    if (number !== undefined) byNumber.set(number, pid);
  }
  return byNumber;
}

/** A burst of 20 turns, each in a conversation of its own: every reply is whole and stored once. */
async function servedBurst(round: number): Promise<string[]> {
  const reply = "Two workers, one port, one reply each.";
  const script = { text: reply, chunks: 5, chunkDelayMs: 50, times: 20 };
  const { user: ada, ids } = await burstSetUp(instance.origin, `Workers${round}`, script);

  const results = await Promise.all(
    ids.map(async (id, index) => {
      const response = await sendTurn(ada, id, `Turn ${index}`);
      expect(response.status).toBe(200);
      return readSse(await response.text());
    }),
  );

  expect(results).toEqual(ids.map(() => ({ text: reply, finished: true })));
  for (const [index, id] of ids.entries())
    expect(await storedMessages(sql, id)).toEqual([
      { authorType: "user", status: "complete", text: `Turn ${index}` },
      { authorType: "persona", status: "complete", text: reply },
    ]);
  const servedBy = await sql<{ instanceId: string }[]>`
    select distinct "instanceId" from turns where "conversationId" in ${sql(ids)}`;
  return servedBy.map((row) => row.instanceId);
}

test("bursts of 20 turns are served by both workers, and every reply is stored once", async () => {
  test.setTimeout(120_000);
  // Each worker accepts on the shared socket itself (scripts/serve.mjs), so the kernel hands a new connection to
  // whichever worker accepts first, and one worker can take a whole burst's connections. Over three bursts a
  // worker that serves nothing is not serving.
  const servedBy = new Set<string>();
  for (let round = 1; round <= 3 && servedBy.size < 2; round++)
    for (const instanceId of await servedBurst(round)) servedBy.add(instanceId);
  expect([...servedBy].sort()).toEqual([`${instance.name}/worker-0`, `${instance.name}/worker-1`]);
});

test("a worker killed mid-reply is started again: the reply ends interrupted at once, and the next turn works", async () => {
  test.setTimeout(120_000);
  await fake.reset();
  const ada = await signUp(instance.origin, "Killed");
  const conversationId = await newConversation(ada, instance.origin);
  await fake.script({
    kind: "text",
    text: "One two three four five six seven eight.",
    chunks: 8,
    chunkDelayMs: 2_000,
  });
  const response = await sendTurn(ada, conversationId, "A long answer, please");
  expect(response.status).toBe(200);
  const reader = response.body?.getReader();
  await reader?.read();
  const number = (await runningTurnInstanceId(sql, conversationId)).split("/worker-")[1];
  const killed = workerPids().get(number);
  expect(killed, `worker ${number} among ${[...workerPids().keys()]}`).toBeDefined();
  process.kill(killed as number, "SIGKILL");
  await reader?.cancel().catch(() => {});

  // Started again under the same number, it sweeps its earlier life's turns without waiting for a heartbeat to age.
  await expect.poll(() => workerPids().get(number), { timeout: 30_000 }).not.toBe(killed);
  await expect
    .poll(async () => (await storedMessages(sql, conversationId)).map((message) => message.status), {
      timeout: 15_000,
    })
    .toEqual(["complete", "interrupted"]);

  await fake.script({ kind: "text", text: "Back on both workers." });
  const next = await sendTurn(ada, conversationId, "Still there?");
  expect(next.status).toBe(200);
  expect(readSse(await next.text())).toEqual({ text: "Back on both workers.", finished: true });
});

test("SIGTERM drains both workers: the replies they stream finish, and the instance exits 0", async () => {
  test.setTimeout(120_000);
  const reply = "Finished although the instance was told to stop.";
  const script = { text: reply, chunks: 10, chunkDelayMs: 300, times: 6 };
  const { user: ada, ids } = await burstSetUp(instance.origin, "Draining", script);
  const responses = await Promise.all(ids.map((id, index) => sendTurn(ada, id, `Turn ${index}`)));
  for (const response of responses) expect(response.status).toBe(200);
  const reading = Promise.all(responses.map(async (response) => readSse(await response.text())));

  expect(await cluster.stop(instance, "SIGTERM")).toBe(0);
  expect(await reading).toEqual(ids.map(() => ({ text: reply, finished: true })));
  for (const id of ids)
    expect((await storedMessages(sql, id)).map((message) => message.status)).toEqual([
      "complete",
      "complete",
    ]);
});
