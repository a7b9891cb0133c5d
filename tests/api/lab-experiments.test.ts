// The lab on the API (docs/lab.md): datasets of readable conversations, and experiments that build each one's next
// turn as today and with a candidate. Dry over 50 conversations: the totals are the sums of the rows, a row's
// candidate payload is what the preview route gives for the same what-if, and no provider is called. Live: both
// replies are replay attempts whose recorded bodies are the bytes the provider received. Someone else's dataset
// or experiment is not found; a conversation the caller may not read is refused by name, and nothing is stored.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import * as experimentsRoute from "@/app/api/datasets/[id]/experiments/route";
import * as datasetRoute from "@/app/api/datasets/[id]/route";
import * as datasetsRoute from "@/app/api/datasets/route";
import * as resultRoute from "@/app/api/experiments/[id]/results/[position]/route";
import * as experimentRoute from "@/app/api/experiments/[id]/route";
import { getDb } from "@/db/client";
import { attempts, experiments } from "@/db/schema";
import type {
  ExperimentPayloads,
  ExperimentRowSummary,
  ExperimentTotals,
} from "@/lib/lab/experiment-figures";
import { INTERRUPTED_MESSAGE } from "@/lib/lab/experiment-view";
import { settleExperiments } from "@/lib/lab/run-experiment";
import { call, expectError, okText, type TestUser } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { createConversation, insertPersona } from "../fixtures/personas";
import { runTurn, storeAlternatingMessages } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";
import { preview } from "./preview-helpers";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");
const bob = signedUpForFile("Bob");

const NOTE = { contextNote: { text: "Remember the fox.", depth: 0 } };
const TEXT = "What would you say next?";

interface ExperimentBody {
  id: string;
  datasetId: string;
  status: string;
  error: string | null;
  progress: { done: number; total: number };
  totals: ExperimentTotals;
  results: ExperimentRowSummary[];
}

async function createDataset(user: TestUser, body: unknown) {
  return call(datasetsRoute.POST, "/api/datasets", { user, body });
}

async function datasetOf(user: TestUser, name: string, conversationIds: string[]) {
  const text = await okText(await createDataset(user, { name, conversationIds }), "create dataset", 201);
  return (JSON.parse(text) as { dataset: { id: string; name: string; conversationIds: string[] } }).dataset;
}

function startExperiment(user: TestUser, datasetId: string, body: unknown) {
  return call(experimentsRoute.POST, `/api/datasets/${datasetId}/experiments`, {
    user,
    body,
    params: { id: datasetId },
  });
}

function getExperiment(user: TestUser, experimentId: string, query = "") {
  return call(experimentRoute.GET, `/api/experiments/${experimentId}${query}`, {
    user,
    params: { id: experimentId },
  });
}

/** Starts the experiment, waits for its job, and returns the experiment as GET shows it. */
async function runExperiment(datasetId: string, body: unknown): Promise<ExperimentBody> {
  const started = await okText(await startExperiment(ada, datasetId, body), "start experiment", 202);
  const { experiment } = JSON.parse(started) as { experiment: ExperimentBody };
  expect(experiment.status).toBe("queued");
  expect(experiment.progress).toEqual({ done: 0, total: expect.any(Number) });
  await settleExperiments();
  const text = await okText(await getExperiment(ada, experiment.id), "get experiment");
  return (JSON.parse(text) as { experiment: ExperimentBody }).experiment;
}

async function payloadsOf(experimentId: string, position: number): Promise<ExperimentPayloads> {
  const response = await call(resultRoute.GET, `/api/experiments/${experimentId}/results/${position}`, {
    user: ada,
    params: { id: experimentId, position: String(position) },
  });
  return (JSON.parse(await okText(response, "row payloads")) as { payloads: ExperimentPayloads }).payloads;
}

function sum(rows: ExperimentRowSummary[], pick: (row: ExperimentRowSummary) => number): number {
  return rows.reduce((total, row) => total + pick(row), 0);
}

describe("datasets and experiments", () => {
  let conversationIds: string[] = [];
  let answeredId = "";

  beforeAll(async () => {
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini", name: "Lab persona" });
    conversationIds = [];
    for (let index = 0; index < 50; index++) {
      const conversationId = await createConversation(ada, persona);
      await storeAlternatingMessages(ada, persona, conversationId, 2 + (index % 5) * 2);
      conversationIds.push(conversationId);
    }
    // One conversation with a real request behind it: its rows measure the prefix they share with it.
    answeredId = conversationIds[0];
  }, 120_000);

  test("a dry experiment over 50 conversations: totals are the rows' sums, rows are the preview's, nothing sent", async () => {
    env.providers.script({ kind: "text", text: "A real answer." });
    await runTurn(ada, answeredId, "Tell me about foxes.");
    env.providers.reset();

    // A repeated id is kept once.
    const dataset = await datasetOf(ada, "Fifty", [...conversationIds, conversationIds[3]]);
    expect(dataset.conversationIds).toEqual(conversationIds);

    const experiment = await runExperiment(dataset.id, { candidate: { settings: NOTE } });

    expect(env.providers.requests).toEqual([]);
    expect(experiment.status).toBe("done");
    expect(experiment.progress).toEqual({ done: 50, total: 50 });
    expect(experiment.results.map((row) => row.conversationId)).toEqual(conversationIds);
    expect(experiment.results.filter((row) => row.error !== null)).toEqual([]);
    // The note is the only change: one item added in every row, nothing else moved.
    for (const row of experiment.results) {
      expect(row.diff).toMatchObject({ added: 1, removed: 0, changed: 0, moved: 0 });
      expect(row.candidate?.items).toBe((row.baseline?.items ?? 0) + 1);
      expect(row.candidate?.inputTokens).toBeGreaterThan(row.baseline?.inputTokens ?? Infinity);
    }
    const rows = experiment.results;
    const { totals } = experiment;
    expect(totals.rows).toBe(50);
    expect(totals.failedRows).toBe(0);
    for (const side of ["baseline", "candidate"] as const) {
      expect(totals[side]).toEqual({
        inputTokens: sum(rows, (row) => row[side]?.inputTokens ?? 0),
        costUsd: expect.closeTo(
          sum(rows, (row) => row[side]?.costUsd ?? 0),
          12,
        ),
        items: sum(rows, (row) => row[side]?.items ?? 0),
        dropped: sum(rows, (row) => row[side]?.dropped ?? 0),
        prefixReuseBytes: sum(rows, (row) => row[side]?.prefixReuseBytes ?? 0),
      });
      expect(totals[side].costUsd).toBeGreaterThan(0);
    }
    expect(totals.diff).toEqual({
      added: 50,
      removed: 0,
      changed: 0,
      moved: 0,
      same: sum(rows, (row) => row.diff?.same ?? 0),
    });
    // Only the answered conversation has a last request to share a prefix with.
    expect(rows[0].baseline?.prefixReuseBytes).toBeGreaterThan(100);
    expect(rows.slice(1).map((row) => row.baseline?.prefixReuseBytes)).toEqual(new Array(49).fill(0));

    // A row's payloads are exactly the preview route's, with and without the same what-if.
    for (const position of [0, 17]) {
      const payloads = await payloadsOf(experiment.id, position);
      const conversationId = conversationIds[position];
      const [asToday, whatIf] = [
        await preview(ada, conversationId, TEXT),
        await preview(ada, conversationId, TEXT, NOTE),
      ];
      expect(payloads.candidate.request.body).toBe(whatIf.request.body);
      expect(payloads.candidate.items).toEqual(whatIf.items);
      expect(payloads.baseline.request.body).toBe(asToday.request.body);
      expect(payloads.baseline.items).toEqual(asToday.items);
      expect(payloads.candidate.request.body).toContain("Remember the fox.");
    }
    expect(env.providers.requests).toEqual([]);

    // The exports: one CSV line per row after the header, and the JSON of the same experiment.
    const csv = await okText(await getExperiment(ada, experiment.id, "?format=csv"), "csv export");
    const lines = csv.trimEnd().split("\r\n");
    expect(lines).toHaveLength(51);
    expect(lines[0].split(",").slice(0, 3)).toEqual([
      "conversationId",
      "baseline.inputTokens",
      "baseline.costUsd",
    ]);
    expect(lines[1].split(",")[0]).toBe(conversationIds[0]);
    expect(lines[1].split(",")[1]).toBe(String(rows[0].baseline?.inputTokens));
    const json = JSON.parse(
      await okText(await getExperiment(ada, experiment.id, "?format=json"), "json export"),
    );
    expect(json.experiment.totals).toEqual(totals);
  }, 120_000);

  test("live: both replies are replay attempts recorded with the exact bytes the provider received", async () => {
    env.providers.script({ kind: "text", text: "First answer." });
    await runTurn(ada, conversationIds[1], "Say something.");
    env.providers.reset();
    const dataset = await datasetOf(ada, "One live", [conversationIds[1]]);
    env.providers.script({ kind: "text", text: "As today." });
    env.providers.script({ kind: "text", text: "With the fox." });

    const experiment = await runExperiment(dataset.id, { candidate: { settings: NOTE }, live: true });

    expect(experiment.status).toBe("done");
    const live = experiment.results[0].live;
    expect(live?.baseline).toMatchObject({ status: "ok", text: "As today." });
    expect(live?.candidate).toMatchObject({ status: "ok", text: "With the fox." });
    const received = env.providers.requests.map((request) => request.body);
    expect(received).toHaveLength(2);
    expect(received[1]).toContain("Remember the fox.");
    expect(received[0]).not.toContain("Remember the fox.");
    const db = await getDb();
    for (const [index, attemptId] of [live?.baseline.attemptId, live?.candidate.attemptId].entries()) {
      const [row] = await db
        .select()
        .from(attempts)
        .where(eq(attempts.id, attemptId ?? ""));
      expect(row.kind).toBe("replay");
      expect(row.conversationId).toBe(conversationIds[1]);
      expect(row.requests.map((request) => request.body)).toEqual([received[index]]);
    }
  });

  test("datasets: listed, opened and deleted by their owner; anyone else gets 404 and nothing changes", async () => {
    const dataset = await datasetOf(ada, "Mine", conversationIds.slice(0, 3));
    const listed = JSON.parse(
      await okText(await call(datasetsRoute.GET, "/api/datasets", { user: ada }), "list"),
    );
    expect(listed.datasets.map((row: { id: string }) => row.id)).toContain(dataset.id);
    const bobs = JSON.parse(
      await okText(await call(datasetsRoute.GET, "/api/datasets", { user: bob }), "list"),
    );
    expect(bobs.datasets).toEqual([]);

    const path = `/api/datasets/${dataset.id}`;
    const params = { id: dataset.id };
    await expectError(await call(datasetRoute.GET, path, { user: bob, params }), 404, "not_found");
    await expectError(
      await call(datasetRoute.DELETE, path, { user: bob, params, method: "DELETE" }),
      404,
      "not_found",
    );
    await expectError(await startExperiment(bob, dataset.id, { candidate: {} }), 404, "not_found");

    const experiment = await runExperiment(dataset.id, { candidate: { settings: NOTE } });
    await expectError(await getExperiment(bob, experiment.id), 404, "not_found");
    await expectError(
      await call(resultRoute.GET, `/api/experiments/${experiment.id}/results/0`, {
        user: bob,
        params: { id: experiment.id, position: "0" },
      }),
      404,
      "not_found",
    );

    // Bad addresses are refused with what is wrong; a row past the end is not found.
    expect(
      await expectError(await getExperiment(ada, experiment.id, "?format=xml"), 400, "bad_request"),
    ).toBe("format must be csv or json");
    const row = (position: string) =>
      call(resultRoute.GET, `/api/experiments/${experiment.id}/results/${position}`, {
        user: ada,
        params: { id: experiment.id, position },
      });
    expect(await expectError(await row("first"), 400, "bad_request")).toMatch(
      /position must be a row number/,
    );
    expect(await expectError(await row("-1"), 400, "bad_request")).toMatch(/position must be a row number/);
    await expectError(await row("3"), 404, "not_found");

    const opened = JSON.parse(
      await okText(await call(datasetRoute.GET, path, { user: ada, params }), "open"),
    );
    expect(opened.dataset).toMatchObject({
      id: dataset.id,
      name: "Mine",
      conversationIds: conversationIds.slice(0, 3),
    });
    expect(opened.experiments.map((row: { id: string }) => row.id)).toEqual([experiment.id]);
    const deleted = await call(datasetRoute.DELETE, path, { user: ada, params, method: "DELETE" });
    expect(deleted.status).toBe(204);
    await expectError(await call(datasetRoute.GET, path, { user: ada, params }), 404, "not_found");
    await expectError(await getExperiment(ada, experiment.id), 404, "not_found");
  });

  test.each([
    [
      "a conversation of someone else's",
      async () => [conversationIds[0], await createConversation(bob)],
      404,
      /conversation [0-9a-f-]{36} not found/,
    ],
    [
      "an id that is not one",
      async () => [conversationIds[0], "not-an-id"],
      400,
      /conversationIds must hold conversation ids/,
    ],
    ["no conversation at all", async () => [], 400, /at least one conversation/],
  ] as const)("refused: %s, and no dataset is stored", async (_, ids, status, message) => {
    const before = JSON.parse(
      await okText(await call(datasetsRoute.GET, "/api/datasets", { user: ada }), "list"),
    );
    const response = await createDataset(ada, { name: "Refused", conversationIds: await ids() });
    const refusal = await expectError(response, status, status === 404 ? "not_found" : "bad_request");
    expect(refusal).toMatch(message);
    const after = JSON.parse(
      await okText(await call(datasetsRoute.GET, "/api/datasets", { user: ada }), "list"),
    );
    expect(after.datasets).toEqual(before.datasets);
  });

  test.each([
    ["a heartbeat three minutes old", 180_000, "failed"],
    ["a heartbeat a second old (another instance may be running it)", 1_000, "running"],
  ])("a running experiment no job of this process runs, with %s, reads %s", async (_, ageMs, status) => {
    const dataset = await datasetOf(ada, "Left running", [conversationIds[0]]);
    const db = await getDb();
    const [row] = await db
      .insert(experiments)
      .values({
        datasetId: dataset.id,
        userId: ada.id,
        status: "running",
        candidate: {},
        text: TEXT,
        total: 1,
        updatedAt: new Date(Date.now() - ageMs),
      })
      .returning();
    const read = JSON.parse(await okText(await getExperiment(ada, row.id), "get experiment"));
    expect(read.experiment).toMatchObject({
      status,
      error: status === "failed" ? INTERRUPTED_MESSAGE : null,
    });
    const [stored] = await db.select().from(experiments).where(eq(experiments.id, row.id));
    expect(stored.status).toBe(status);
  });

  test("a name over 200 characters and more than 1 000 conversations are refused with the field named", async () => {
    const long = await createDataset(ada, { name: "x".repeat(201), conversationIds: [conversationIds[0]] });
    expect(await expectError(long, 400, "bad_request")).toMatch(/name must be at most 200 characters/);
    const many = Array.from({ length: 1001 }, () => crypto.randomUUID());
    const tooMany = await createDataset(ada, { name: "Many", conversationIds: many });
    expect(await expectError(tooMany, 400, "bad_request")).toMatch(/at most 1000 conversations/);
  });
});
