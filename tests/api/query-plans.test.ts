// The indexes the hot queries need (docs/deploy.md#postgres-under-load). A fresh database is filled with a million
// messages across 10 000 conversations of 1 000 people (and their turns and attempts) by `generate_series`,
// analysed, and then a real turn runs in one of those conversations with every statement drizzle sends logged,
// along with what a page load (the conversation list, the transcript), a resume and the recovery sweep send. Each statement is EXPLAINed with its own parameters, and each
// prepared one also with a generic plan: a sequential scan of any big table fails the test, naming the statement.
import postgres from "postgres";
import { afterAll, beforeAll, expect, test } from "vitest";
import * as resumeRoute from "@/app/api/chat/[id]/stream/route";
import * as messagesRoute from "@/app/api/conversations/[id]/messages/route";
import * as turnsRoute from "@/app/api/conversations/[id]/turns/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { createDatabase, getDb } from "@/db/client";
import { preparedStatementTexts } from "@/db/prepared-statements";
import { sweepAbandonedTurns } from "@/lib/chat/turn-control/turn-recovery";
import { call, signUp } from "../api-client";
import { settleBackgroundWork } from "../background-work";
import { createFreshDatabase, dropDatabase } from "../database";
import { runTurn } from "../fixtures/turns";

const CONVERSATIONS = 10_000;
const MESSAGES_PER_CONVERSATION = 100;
/** Conversations belong to this many people, Ada among them: a user's list is a small part of the table. */
const OWNERS = 1_000;
/** A table with at least this many rows is big: reading all of it for one request is the bug this test finds. */
const BIG_TABLE_ROWS = 10_000;

const baseUrl = process.env.GLASSBOX_BASE_DATABASE_URL;
const globals = globalThis as { glassboxDatabase?: { close(): Promise<void> }; glassboxAuth?: unknown };

interface LoggedStatement {
  query: string;
  params: unknown[];
}
const logged: LoggedStatement[] = [];
let capturing = false;
let fresh: { url: string; name: string } | null = null;
let previousUrl: string | undefined;
let sql: postgres.Sql | null = null;

beforeAll(async () => {
  if (!baseUrl) return;
  fresh = await createFreshDatabase(baseUrl, "query_plans");
  previousUrl = process.env.DATABASE_URL;
  process.env.DATABASE_URL = fresh.url;
  await globals.glassboxDatabase?.close().catch(() => {});
  globals.glassboxAuth = undefined;
  globals.glassboxDatabase = createDatabase({
    url: fresh.url,
    logQuery: (query, params) => {
      if (capturing) logged.push({ query, params });
    },
  });
  await getDb();
  sql = postgres(fresh.url, { max: 2, onnotice: () => {} });

  const ada = await signUp("Ada");
  const created = await call(conversationsRoute.POST, "/api/conversations", { user: ada, body: {} });
  const { id: firstId } = (await created.json()) as { id: string };
  const [{ personaId }] = await sql<{ personaId: string }[]>`
    select "personaId" from conversations where id = ${firstId}`;
  await fill(sql, ada.id, personaId);

  // One filled conversation: its next turn loads its window, stores its rows, records its attempt.
  const [{ id: conversationId }] = await sql<{ id: string }[]>`
    select id from conversations where title = 'Conversation 1'`;
  capturing = true;
  const page = { user: ada, params: { id: conversationId } };
  await call(conversationsRoute.GET, "/api/conversations", { user: ada });
  await call(messagesRoute.GET, `/api/conversations/${conversationId}/messages`, page);
  await runTurn(ada, conversationId, "One more question about the trams.");
  await call(resumeRoute.GET, `/api/chat/${conversationId}/stream`, page);
  await call(turnsRoute.GET, `/api/conversations/${conversationId}/turns`, page);
  await sweepAbandonedTurns(await getDb());
  // The title and the live events are written after the stream ends.
  await settleBackgroundWork();
  capturing = false;
}, 300_000);

afterAll(async () => {
  await sql?.end();
  await globals.glassboxDatabase?.close().catch(() => {});
  globals.glassboxDatabase = undefined;
  globals.glassboxAuth = undefined;
  if (previousUrl !== undefined) process.env.DATABASE_URL = previousUrl;
  if (baseUrl && fresh) await dropDatabase(baseUrl, fresh.name);
});

/**
 * Ids in insertion order (conversation, then row), so the primary keys are appended to rather than written all
 * over: `kind` keeps the tables' ids apart, `row` is the SQL expression of the row's number.
 */
const CONVERSATION_ID = "(lpad(to_hex(c), 8, '0') || '-0000-7000-8000-000000000000')::uuid";
const rowId = (kind: number, row: string) =>
  `(lpad(to_hex(c), 8, '0') || '-000${kind}-7000-8000-' || lpad(to_hex(${row}), 12, '0'))::uuid`;
const AGE = "now() - c * interval '1 minute' + s * interval '1 second'";

/**
 * Conversations, their messages (alternating user and persona, each reply naming its message), a turn and an
 * attempt per reply. The messages' secondary indexes are dropped for the insert and built again after it (from
 * their own definitions): much faster than keeping them up to date row by row. $1 is the owner, $2 the persona.
 */
async function fill(sql: postgres.Sql, ownerId: string, personaId: string) {
  const started = Date.now();
  // A test database filled with rows consistent by construction: the foreign-key triggers (a lookup per row)
  // are off for this session, losing the last commits in a crash costs nothing, and the index builds get memory.
  await sql`set session_replication_role = replica`;
  await sql`set synchronous_commit = off`;
  await sql`set maintenance_work_mem = '256MB'`;
  const indexes = await sql<{ name: string; definition: string }[]>`
    select indexname as name, indexdef as definition from pg_indexes
    where tablename = 'messages' and indexname <> 'messages_pkey'`;
  for (const index of indexes) await sql.unsafe(`drop index "${index.name}"`);
  const conversations = `generate_series(1, ${CONVERSATIONS}) c`;
  // Ada owns every OWNERS-th conversation (the first among them), a thousand other people the rest.
  const owner = `case when c % ${OWNERS} = 1 then $1 else 'filler-' || (c % ${OWNERS}) end`;
  const statements = [
    `insert into "user" (id, name, email)
     select 'filler-' || u, 'Filler ' || u, 'filler-' || u || '@example.test' from generate_series(0, ${OWNERS - 1}) u`,
    `insert into conversations (id, "ownerId", "personaId", title, "lastSeq", "createdAt", "updatedAt")
     select ${CONVERSATION_ID}, ${owner}, $2::uuid, 'Conversation ' || c, ${MESSAGES_PER_CONVERSATION},
       now() - c * interval '1 minute', now() - c * interval '1 minute'
     from ${conversations}`,
    `insert into participants ("conversationId", "userId", role)
     select ${CONVERSATION_ID}, ${owner}, 'owner' from ${conversations}`,
    `insert into messages (id, "conversationId", seq, "authorType", "authorUserId", "authorPersonaId", "authorName",
       parts, "replyToMessageId", status, chosen, "tokenCounts", "createdAt", "updatedAt")
     select ${rowId(1, "s")}, ${CONVERSATION_ID}, s,
       case when s % 2 = 1 then 'user' else 'persona' end,
       case when s % 2 = 1 then ${owner} end,
       case when s % 2 = 0 then $2::uuid end,
       case when s % 2 = 1 then 'Ada' else 'Persona' end,
       '[{"type": "text", "text": "What about the trams at dawn?"}]'::jsonb,
       case when s % 2 = 0 then ${rowId(1, "s - 1")} end,
       'complete', true, '{"o200k_base": 9, "estimate": 10}'::jsonb, ${AGE}, ${AGE}
     from ${conversations}, generate_series(1, ${MESSAGES_PER_CONVERSATION}) s`,
    ...indexes.map((index) => index.definition),
    `insert into turns (id, "conversationId", "userMessageId", "assistantMessageId", status, "settingsVersion",
       "instanceId", "createdAt")
     select ${rowId(2, "s")}, ${CONVERSATION_ID}, ${rowId(1, "s - 1")}, ${rowId(1, "s")}, 'ok', 1, 'filled', ${AGE}
     from ${conversations}, generate_series(2, ${MESSAGES_PER_CONVERSATION}, 2) s`,
    `insert into attempts (id, "conversationId", "turnId", kind, "attemptNumber", "modelId", status, items, trace,
       settings, "settingsVersion", timings, "createdAt")
     select ${rowId(3, "s")}, ${CONVERSATION_ID}, ${rowId(2, "s")}, 'reply', 1, 'offline:echo', 'ok', '[]'::jsonb,
       '[]'::jsonb, (select settings from settings_versions order by version desc limit 1), 1, '{"queuedAt": "2026-01-01T00:00:00Z"}'::jsonb, ${AGE}
     from ${conversations}, generate_series(2, ${MESSAGES_PER_CONVERSATION}, 2) s`,
    "analyze",
  ];
  for (const statement of statements) {
    const stepStarted = Date.now();
    const params = [ownerId, personaId].filter((_, index) => statement.includes(`$${index + 1}`));
    await sql.unsafe(statement, params);
    console.log(
      `query plans: ${statement.trim().split("\n")[0].slice(0, 40)}… ${Date.now() - stepStarted} ms`,
    );
  }
  console.log(`query plans: filled and analysed in ${Math.round((Date.now() - started) / 1000)} s`);
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

function seqScans(node: PlanNode, found: string[] = []): string[] {
  if (node["Node Type"] === "Seq Scan" && node["Relation Name"]) found.push(node["Relation Name"]);
  for (const child of node.Plans ?? []) seqScans(child, found);
  return found;
}

test.skipIf(!baseUrl)(
  "no statement of a turn, a page load, a resume or the recovery sweep reads a whole big table",
  async () => {
    const client = sql;
    if (!client) throw new Error("no database");
    const sizes = await client<{ table: string; rows: number }[]>`
      select relname as table, reltuples::bigint as rows from pg_class
      where relkind = 'r' and relnamespace = 'public'::regnamespace`;
    const bigTables = new Set(sizes.filter((size) => size.rows >= BIG_TABLE_ROWS).map((size) => size.table));
    expect([...bigTables].sort()).toEqual(["attempts", "conversations", "messages", "participants", "turns"]);

    const distinct = new Map<string, LoggedStatement>();
    for (const statement of logged)
      if (!distinct.has(statement.query)) distinct.set(statement.query, statement);
    // The turn's own statements are all there: its load, its rows, its attempt.
    const queries = [...distinct.keys()].join("\n");
    for (const table of ["messages", "turns", "attempts", "conversations"]) {
      expect(queries).toMatch(new RegExp(`insert into "${table}"|from "${table}"|update "${table}"`));
    }

    // The check itself finds a whole-table read when there is one.
    const explain = async (query: string, params: unknown[]) => {
      const [row] = await client.unsafe(
        `explain (format json) ${query}`,
        params as postgres.ParameterOrJSON<never>[],
      );
      return (row["QUERY PLAN"] as { Plan: PlanNode }[])[0].Plan;
    };
    expect(seqScans(await explain('select id from messages where "authorName" = $1', ["Nobody"]))).toEqual([
      "messages",
    ]);

    const offenders: string[] = [];
    for (const { query, params } of distinct.values()) {
      const scanned = seqScans(await explain(query, params)).filter((table) => bigTables.has(table));
      if (scanned.length > 0) offenders.push(`${scanned.join(", ")}: ${query}`);
    }
    console.log(
      `query plans: ${distinct.size} distinct statements explained, ${offenders.length} scan a big table`,
    );
    expect(offenders).toEqual([]);

    // A prepared statement (db/prepared-statements.ts) may be run with a generic plan, made without its
    // parameters' values: each of those again, prepared and planned so (an EXPLAIN with values is never generic).
    const prepared = [...distinct.values()].filter(({ query }) => preparedStatementTexts().has(query));
    // At least the turn's session read, its snapshot, its window and its writes.
    expect(prepared.length).toBeGreaterThanOrEqual(6);
    const genericOffenders = await client.begin(async (transaction) => {
      await transaction`set local plan_cache_mode = force_generic_plan`;
      const found: string[] = [];
      for (const { query, params } of prepared) {
        await transaction.unsafe(`prepare generic_plan as ${query}`);
        const noValues = params.length > 0 ? `(${params.map(() => "null").join(", ")})` : "";
        const [row] = await transaction.unsafe(`explain (format json) execute generic_plan${noValues}`);
        await transaction`deallocate generic_plan`;
        const plan = (row["QUERY PLAN"] as { Plan: PlanNode }[])[0].Plan;
        const scanned = seqScans(plan).filter((table) => bigTables.has(table));
        if (scanned.length > 0) found.push(`${scanned.join(", ")}: ${query}`);
      }
      return found;
    });
    console.log(
      `query plans: ${prepared.length} prepared statements, ${genericOffenders.length} generic plans scan a big table`,
    );
    expect(genericOffenders).toEqual([]);
  },
  60_000,
);
