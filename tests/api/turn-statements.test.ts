// The statements one chat turn sends (docs/features.md, "The turn's own cost"), each named by the tables it
// reads and writes, with every statement drizzle sends logged: the exact list for a new message's turn and for a
// regenerate, so a change that adds a round trip to every turn shows up here, named. The reply is short (the
// offline model), so no write happens while it streams: each flush adds one statement (the write and its live
// event), tested in reply-live-events.test.ts.
import type OpenAI from "openai";
import { beforeAll, expect, test } from "vitest";
import { settleTitleGenerations } from "@/lib/chat/generated/title";
import { storedEventChannel } from "@/lib/live/bus";
import { signUp, type TestUser } from "../api-client";
import { settleBackgroundWork } from "../background-work";
import { createConversation } from "../fixtures/personas";
import { runTurn } from "../fixtures/turns";
import { createKey, gatewayClient, gatewayPersona } from "./gateway-fixtures";
import { regenerate } from "./reply-helpers";
import { statementLogForFile } from "./statement-log";

const { statementsOf } = statementLogForFile();
let ada: TestUser;

beforeAll(async () => {
  ada = await signUp("Ada");
});

/**
 * What every turn reads: the session, and beside it one snapshot of all the turn is refused on or built from (the
 * conversation, its persona, the models, the policy, the summary, the members, memories and blocks, a reply being
 * written, the message's client id), read as the user of the session; once the message is stored, the window of
 * history with its media.
 */
const TURN_READS = [
  "read session, read user",
  "read settings_versions, read summaries, read participants, read user, read memories, read session, read persona_user_blocks, read models, read turns, read messages, read conversations, read personas",
  "read messages, read history_window, read attachments, read artifacts",
];

/** What storing one live event writes: the cursor, the event, the superseded and expired ones. */
const EVENT_WRITES = "insert live_event_cursors, read live_events, insert live_events, delete live_events";

/** With the Postgres bus, the event's NOTIFY (on embedded PGlite the process's bus signals it, with no statement). */
const NOTIFY = storedEventChannel() ? ", notify" : "";

/** One live event: its writes, then its id read from the cursor's row (and its NOTIFY). */
const LIVE_EVENT = `${EVENT_WRITES}, read cursor${NOTIFY}`;

/**
 * What every turn writes once its reply is done: the attempt (with the prices it is costed with, read from its
 * model's row in the same statement), then the reply's last state with the turn's status and its live event.
 */
const TURN_WRITES = [
  "insert attempts, read models",
  `update turns, update messages, ${EVENT_WRITES}, read stored, read cursor${NOTIFY}`,
];

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

/**
 * A gateway call finds the conversation its history continues by the hash of that history, and reads it as a turn
 * does (the snapshot above) in the same statement: with the key's own read, its persona's and, once the message
 * is stored, the history window, its reads before the model call are two round trips.
 */
test("a gateway call that continues its conversation: the conversation is read in the statement that finds it", async () => {
  const tutor = await gatewayPersona("Statements", { modelId: "offline:echo" });
  const { secret } = await createKey(ada, { name: "statements" });
  const client = gatewayClient(secret);
  const history: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: "user", content: "hello" }];
  const first = await client.chat.completions.create({ model: tutor.slug as string, messages: history });
  history.push({ role: "assistant", content: first.choices[0].message.content ?? "" });
  history.push({ role: "user", content: "again" });
  await settleBackgroundWork();

  const statements = await statementsOf(() =>
    client.chat.completions.create({ model: tutor.slug as string, messages: history }),
  );
  expect(statements).toEqual(
    [
      // The key, by its secret's hash, with its owner; the persona the model id names. Both beside the next.
      "read api_keys, read user",
      "read personas",
      // The snapshot of the conversation whose transcript the history is, as the key's owner reads it.
      "read settings_versions, read summaries, read participants, read user, read memories, read api_keys, read persona_user_blocks, read models, read turns, read messages, read conversations, read personas, read api_key_conversations",
      TURN_READS[2],
      "update conversations, insert messages, read counter, read messages",
      "update conversations, insert messages, read counter, insert turns, read reply",
      ...TURN_WRITES,
      LIVE_EVENT,
      LIVE_EVENT,
      // The transcript the call leaves behind, which the next call's history is looked up by.
      "insert api_key_conversations, insert api_key_transcript_points",
    ].sort(),
  );
});
