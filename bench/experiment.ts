// The lab's dry experiment (docs/lab.md) on Postgres: CONVERSATIONS conversations of MESSAGES generated messages
// each (media and tool artifacts included), one dataset of them all, and the experiment's whole job timed from the
// POST to its last row stored, with a candidate that adds a context note. Key `experiment.dry_1000_s`.
// One conversation is stored from the generator; the others are copied from it by a few INSERT … SELECT
// statements (new ids for every row), so seeding takes seconds.
// Alone: `npx tsx bench/experiment.ts` (needs DATABASE_URL); `npm run bench` runs it unless BENCH_SKIP_EXPERIMENT=1.

import { type AppBench, setUpAppBench } from "./app-setup";
import { forkedBench } from "./forked-bench";
import { round } from "./stats";

export interface ExperimentBenchResult {
  skipped: string | null;
  conversations: number;
  messages: number;
  seconds: number | null;
  seedSeconds: number | null;
  rows: number | null;
  failedRows: number | null;
}

const CONVERSATIONS = Number(process.env.BENCH_EXPERIMENT_CONVERSATIONS ?? 1_000);
const MESSAGES = 200;

export function experimentSkipped(reason: string): ExperimentBenchResult {
  return {
    skipped: reason,
    conversations: CONVERSATIONS,
    messages: MESSAGES,
    seconds: null,
    seedSeconds: null,
    rows: null,
    failedRows: null,
  };
}

/** `copies` more conversations like `templateId`: its messages, attachments and artifacts under new ids. */
async function copyConversation(bench: AppBench, templateId: string, copies: number): Promise<string[]> {
  const { sql } = await import("drizzle-orm");
  const { queryRows } = await import("@/db/raw-sql");
  return bench.db.transaction(async (tx) => {
    // 200 000 messages in one statement (their search index included) take longer than the app's statement limit.
    await queryRows(tx, sql`set local statement_timeout = 0`);
    const created = await queryRows<{ id: string }>(
      tx,
      sql`insert into conversations (id, "ownerId", "personaId", title, "lastSeq")
          select gen_random_uuid(), t."ownerId", t."personaId", t.title, t."lastSeq"
          from conversations t, generate_series(1, ${copies}) where t.id = ${templateId} returning id`,
    );
    await queryRows(
      tx,
      sql`create temp table message_copies on commit drop as
          select c.id as "conversationId", m.id as "oldId", gen_random_uuid() as "newId"
          from conversations c cross join messages m
          where m."conversationId" = ${templateId} and c.id <> ${templateId} and c."ownerId" =
            (select "ownerId" from conversations where id = ${templateId})
            and not exists (select 1 from messages x where x."conversationId" = c.id)`,
    );
    await queryRows(tx, sql`create index on message_copies ("conversationId", "oldId")`);
    await queryRows(tx, sql`analyze message_copies`);
    await queryRows(
      tx,
      sql`insert into messages (id, "conversationId", seq, "authorType", "authorUserId", "authorPersonaId",
            "authorName", parts, "replyToMessageId", "parentMessageId", "chosenAmongSiblings", status, chosen,
            "tokenCounts", "segmentTokenCounts", "createdAt", "updatedAt")
          select k."newId", k."conversationId", m.seq, m."authorType", m."authorUserId", m."authorPersonaId",
            m."authorName", m.parts, r."newId", p."newId", m."chosenAmongSiblings", m.status, m.chosen,
            m."tokenCounts", m."segmentTokenCounts", m."createdAt", m."updatedAt"
          from message_copies k join messages m on m.id = k."oldId"
          left join message_copies r on r."conversationId" = k."conversationId" and r."oldId" = m."replyToMessageId"
          left join message_copies p on p."conversationId" = k."conversationId" and p."oldId" = m."parentMessageId"`,
    );
    await queryRows(
      tx,
      sql`insert into attachments (id, "conversationId", "messageId", kind, mime, filename, "sizeBytes", sha256,
            width, height, "isEmoji", "isSticker", "storageKey")
          select gen_random_uuid(), k."conversationId", k."newId", a.kind, a.mime, a.filename, a."sizeBytes",
            a.sha256, a.width, a.height, a."isEmoji", a."isSticker", a."storageKey"
          from message_copies k join attachments a on a."messageId" = k."oldId"`,
    );
    await queryRows(
      tx,
      sql`insert into artifacts (id, "conversationId", "messageId", type, payload, "tokenCounts", "createdAt")
          select a.id || '-' || substr(k."conversationId"::text, 1, 8) || substr(k."newId"::text, 1, 8),
            k."conversationId", k."newId", a.type, a.payload, a."tokenCounts", a."createdAt"
          from message_copies k join artifacts a on a."messageId" = k."oldId"`,
    );
    return created.map((row) => row.id);
  });
}

const forked = forkedBench(import.meta.url, "BENCH_EXPERIMENT_CHILD", "the experiment bench");

/** In a child node of its own (the app keeps one database handle per process); skipped without Postgres. */
export async function measureExperiment(): Promise<ExperimentBenchResult> {
  if (!process.env.DATABASE_URL)
    return experimentSkipped("DATABASE_URL is not set: measured on Postgres only");
  return forked.measure<ExperimentBenchResult>("1");
}

export function experimentJson(result: ExperimentBenchResult) {
  return {
    dry_1000_s: result.seconds,
    detail: {
      skipped: result.skipped,
      conversations: result.conversations,
      messages: result.messages,
      seed_s: result.seedSeconds,
      rows: result.rows,
      failed_rows: result.failedRows,
    },
  };
}

/** The table's rows: label, value, range, note. */
export function experimentRows(result: ExperimentBenchResult): [string, string, string, string][] {
  if (result.skipped !== null) return [["lab: dry experiment", "—", "", result.skipped]];
  return [
    [
      `lab: dry experiment, ${result.conversations} conversations (s)`,
      String(result.seconds),
      "",
      `${result.messages} messages each; ${result.rows} rows, ${result.failedRows} failed; seeded in ${result.seedSeconds} s`,
    ],
  ];
}

async function runExperimentBench(baseUrl: string): Promise<ExperimentBenchResult> {
  const bench = await setUpAppBench(baseUrl, { providersIn: "in-process" });
  try {
    const seedStarted = performance.now();
    const owner = await bench.signUp("Lab bench");
    const persona = await bench.createPersona();
    const templateId = await bench.storeConversation({ persona, owner, messages: MESSAGES });
    const copies = await copyConversation(bench, templateId, CONVERSATIONS - 1);
    const conversationIds = [templateId, ...copies];
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const { createDataset } = await import("@/db/dataset-queries");
    const { insertExperiment } = await import("@/db/experiment-queries");
    const { runExperiment } = await import("@/lib/lab/run-experiment");
    const { experimentView } = await import("@/lib/lab/experiment-view");
    const { getExperiment } = await import("@/db/experiment-queries");
    const dataset = await createDataset({ db: bench.db, userId: owner.id, name: "Bench", conversationIds });
    const user = { id: owner.id, name: owner.name, email: owner.email, role: "user" as const };
    const started = performance.now();
    const experiment = await insertExperiment({
      db: bench.db,
      userId: owner.id,
      datasetId: dataset.id,
      candidate: {},
      live: false,
      text: "What would you say next?",
      total: conversationIds.length,
    });
    await runExperiment({
      db: bench.db,
      user,
      experiment,
      conversationIds,
      candidate: { settings: { contextNote: { text: "Mind the budget.", depth: 2 } } },
    });
    const seconds = (performance.now() - started) / 1000;
    const view = await experimentView({
      db: bench.db,
      experiment: await getExperiment({ db: bench.db, userId: owner.id, experimentId: experiment.id }),
    });
    if (view.status !== "done") throw new Error(`the experiment ended ${view.status}: ${view.error}`);
    return {
      skipped: null,
      conversations: conversationIds.length,
      messages: MESSAGES,
      seconds: round(seconds, 2),
      seedSeconds: round(seedSeconds, 1),
      rows: view.results.length,
      failedRows: view.totals.failedRows,
    };
  } finally {
    await bench.close();
  }
}

const baseUrl = process.env.DATABASE_URL ?? "";
if (forked.childRequest) {
  forked.answer(runExperimentBench(baseUrl));
} else if (process.argv[1]?.endsWith("bench/experiment.ts")) {
  if (!baseUrl) throw new Error("bench/experiment.ts needs DATABASE_URL (Postgres)");
  runExperimentBench(baseUrl).then(
    (result) => {
      console.log(JSON.stringify({ "experiment.dry_1000_s": result.seconds, ...result }, null, 2));
      process.exit(0);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
