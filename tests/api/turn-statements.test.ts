// The statements one chat turn sends (docs/features.md, "The turn's own cost"), each named by the tables it
// reads and writes, with every statement drizzle sends logged: the exact list for a new message's turn and for a
// regenerate, so a change that adds a round trip to every turn shows up here, named. The reply is short (the
// offline model), so no write happens while it streams: each flush adds one statement (the write and its live
// event), tested in reply-live-events.test.ts.
import { afterAll, beforeAll, expect, test } from "vitest";
import { createDatabase, type DatabaseHandle } from "@/db/client";
import { settleTitleGenerations } from "@/lib/chat/generated/title";
import { storedEventChannel } from "@/lib/live/bus";
import { signUp, type TestUser } from "../api-client";
import { settleBackgroundWork } from "../background-work";
import { createConversation } from "../fixtures/personas";
import { runTurn } from "../fixtures/turns";
import { regenerate } from "./reply-helpers";

const globals = globalThis as { glassboxDatabase?: DatabaseHandle; glassboxAuth?: unknown };
const logged: string[] = [];
let capturing = false;
let ada: TestUser;

beforeAll(async () => {
  // The app's own handle, made here with a query log (db/client.ts makes it on first use otherwise); the auth
  // instance is built again on it.
  await globals.glassboxDatabase?.close().catch(() => {});
  globals.glassboxAuth = undefined;
  globals.glassboxDatabase = createDatabase({
    url: process.env.DATABASE_URL,
    logQuery: (query) => {
      if (capturing) logged.push(query);
    },
  });
  await globals.glassboxDatabase.ready;
  ada = await signUp("Ada");
});

afterAll(async () => {
  await globals.glassboxDatabase?.close().catch(() => {});
  globals.glassboxDatabase = undefined;
  globals.glassboxAuth = undefined;
});

/** A statement as the tables it touches, in the order they appear: "read session, read user". */
function tablesOf(query: string): string {
  const verbs: Record<string, string> = {
    "insert into": "insert",
    update: "update",
    "delete from": "delete",
    from: "read",
    join: "read",
  };
  const touched: string[] = [];
  for (const [, verb, table] of query.matchAll(/\b(insert into|update|delete from|from|join)\s+"(\w+)"/g)) {
    const entry = `${verbs[verb]} ${table}`;
    if (!touched.includes(entry)) touched.push(entry);
  }
  if (query.includes("pg_notify(")) touched.push("notify");
  return touched.join(", ");
}

/** The statements `action` sends until its turn's live events and title work are done, sorted by name. */
async function statementsOf(action: () => Promise<unknown>): Promise<string[]> {
  logged.length = 0;
  capturing = true;
  await action();
  await settleBackgroundWork();
  capturing = false;
  return logged.map(tablesOf).sort();
}

/**
 * What every turn reads: the session, then one snapshot of all the turn is refused on or built from (the
 * conversation, its persona, the models, the policy, the summary, the members, memories and blocks, a reply being
 * written, the message's client id), and once the message is stored, the window of history with its media.
 */
const TURN_READS = [
  "read session, read user",
  "read settings_versions, read summaries, read participants, read user, read memories, read persona_user_blocks, read models, read turns, read messages, read conversations, read personas",
  "read messages, read history_window, read attachments, read artifacts",
];

/**
 * One live event: the cursor, the event, the superseded and expired ones, and with the Postgres bus its NOTIFY (on
 * embedded PGlite the process's bus signals it, with no statement).
 */
const LIVE_EVENT = `insert live_event_cursors, read live_events, insert live_events, delete live_events${
  storedEventChannel() ? ", notify" : ""
}`;

/**
 * What every turn writes once its reply is done: the attempt (with the prices it is costed with, read from its
 * model's row in the same statement), then the reply's last state with the turn's status and its live event.
 */
const TURN_WRITES = ["insert attempts, read models", `update turns, update messages, ${LIVE_EVENT}`];

test("a new message's turn in a titled conversation: each statement, once", async () => {
  const conversationId = await createConversation(ada);
  await runTurn(ada, conversationId, "First question: trams or taxis?");
  await settleTitleGenerations();

  const statements = await statementsOf(() => runTurn(ada, conversationId, "And after midnight?"));
  expect(statements).toEqual(
    [
      ...TURN_READS,
      // The message, its seq from the conversation's counter and its parent (the shown message before it).
      "update conversations, insert messages, read counter, read messages",
      // The reply's row and the turn's, in one statement.
      "update conversations, insert messages, read counter, insert turns, read reply",
      ...TURN_WRITES,
      // The other live events: the message and the reply as inserted, each from the row in hand.
      LIVE_EVENT,
      LIVE_EVENT,
    ].sort(),
  );
});

test("a regenerate: the new variant's row in a transaction that un-chooses the earlier one; no message stored", async () => {
  const conversationId = await createConversation(ada);
  await runTurn(ada, conversationId, "First question: trams or taxis?");
  await settleTitleGenerations();
  const { chunks } = await runTurn(ada, conversationId, "And after midnight?");
  const start = chunks.find((chunk) => chunk.type === "start") as { messageId: string };

  const statements = await statementsOf(() => regenerate(ada, conversationId, start.messageId));
  expect(statements).toEqual(
    [
      ...TURN_READS,
      // The reply to regenerate, the message it answers, and that this is the latest exchange.
      "read messages",
      "read messages",
      "read messages",
      // The transaction: the counter, the earlier variants un-chosen, the new one inserted; then the turn.
      "update conversations",
      "update messages",
      "insert messages",
      "insert turns",
      ...TURN_WRITES,
      // The other live event: the new variant as inserted (the message it answers is unchanged).
      LIVE_EVENT,
    ].sort(),
  );
});
