// A streaming reply's live events (docs/features.md, "Live rooms"), with every statement drizzle sends logged:
// a flush is one statement (the reply's update, returning the row, with the event made from the state it stores,
// and the Postgres bus's NOTIFY), a reader following the conversation receives exactly the stored state, and two
// writes in flight publish their states in write order.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as eventsRoute from "@/app/api/conversations/[id]/events/route";
import { createDatabase, type DatabaseHandle, getDb } from "@/db/client";
import { findMessageInConversation } from "@/db/query-parts";
import { type Message, messages } from "@/db/schema";
import { FLUSH_INTERVAL_MS, ReplyPersistence } from "@/lib/chat/turn/reply-persistence";
import { toUIMessage } from "@/lib/chat/views/ui-messages";
import { connectPostgresBus, type LiveBus, type LiveSignal } from "@/lib/live/bus";
import { publishingSettled } from "@/lib/live/publish";
import { call } from "../api-client";
import { createConversation, insertPersona } from "../fixtures/personas";
import { storePersonaReply } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";
import { followSse, type SseEvent } from "../live/sse";

const ada = signedUpForFile("Ada");

interface LoggedStatement {
  query: string;
  params: unknown[];
}
const logged: LoggedStatement[] = [];
let loggedDatabase: DatabaseHandle;
let listener: LiveBus;
const heard: LiveSignal[] = [];
const streams: { cancel: () => Promise<unknown> }[] = [];

beforeAll(async () => {
  if (!process.env.DATABASE_URL) return;
  // The reply's own handle, on the test database, with a query log (as the bench counts a turn's statements).
  loggedDatabase = createDatabase({
    url: process.env.DATABASE_URL,
    logQuery: (query, params) => logged.push({ query, params }),
  });
  await loggedDatabase.ready;
  // Another instance's LISTEN: each stored event must reach it exactly once.
  listener = await connectPostgresBus(process.env.DATABASE_URL as string);
  listener.subscribe((signal) => heard.push(signal));
});

afterAll(async () => {
  await Promise.all(streams.map((stream) => stream.cancel()));
  await listener?.close();
  await loggedDatabase?.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await pause(10);
  }
}

/** What kind of statement each logged one is: the reply's write (with its event or not), a read of it, or an event. */
function kindOf({ query }: LoggedStatement): string {
  const event = query.includes('insert into "live_event_cursors"');
  const notify = query.includes("pg_notify(") ? " with its notify" : "";
  if (query.includes('update "messages"') && query.includes("returning"))
    return event ? `reply update, returning it, and its live event${notify}` : "reply update, returning it";
  if (query.startsWith("select") && query.includes('from "messages"')) return "reply read";
  if (event) return `live event${notify}`;
  return query.slice(0, 60);
}

/** The payloads of the live events the logged statements stored, in order. */
function appendedPayloads(statements: LoggedStatement[]): unknown[] {
  return statements.flatMap(({ query, params }) =>
    query.includes('insert into "live_event_cursors"')
      ? params.flatMap((param) =>
          typeof param === "string" && param.startsWith('{"message"') ? [JSON.parse(param)] : [],
        )
      : [],
  );
}

/** A reader's event for the message in this state (as JSON carries it: no undefined fields). */
function eventFor(message: Message) {
  return JSON.parse(
    JSON.stringify({
      type: "message",
      message: toUIMessage(message, { media: new Map() }),
      clientMessageId: message.clientMessageId,
    }),
  );
}

async function storedReply(conversationId: string, messageId: string): Promise<Message> {
  const message = await findMessageInConversation({ db: await getDb(), conversationId, messageId });
  if (!message) throw new Error("the reply is gone");
  return message;
}

const textOfEvent = (event: SseEvent) =>
  (event.data.message as { parts: { type: string; text?: string }[] }).parts
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("");

/** A conversation with a reply just inserted as streaming, and a reader following the conversation's events. */
async function followedStreamingReply() {
  const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini", name: "Aria" });
  const conversationId = await createConversation(ada, persona);
  const reply = await storePersonaReply(persona, conversationId, "", { parts: [], status: "streaming" });
  const response = await call(eventsRoute.GET, `/api/conversations/${conversationId}/events`, {
    user: ada,
    params: { id: conversationId },
  });
  expect(response.status).toBe(200);
  const follower = followSse(response);
  streams.push(follower);
  return { conversationId, reply, follower };
}

// The reply writes through a logged handle of its own beside the app's: two clients of one database, which embedded
// PGlite (one process's single connection) cannot be. Without DATABASE_URL, tests/api/live-events.test.ts and
// the rooms end-to-end spec cover live events.
describe.skipIf(!process.env.DATABASE_URL)("a streaming reply's live events", () => {
  test("a flush is one statement with its event; the reader gets the stored state; writes in flight publish in order", async () => {
    const { conversationId, reply, follower } = await followedStreamingReply();
    const replyEvent = (text: string, status: string) => (event: SseEvent) =>
      event.data.type === "message" &&
      (event.data.message as { id: string }).id === reply.id &&
      (event.data.message as { metadata: { status: string } }).metadata.status === status &&
      textOfEvent(event) === text;

    // The row as inserted, handed over by its inserter: its event, with no read.
    logged.length = 0;
    const persistence = new ReplyPersistence(
      loggedDatabase.db,
      conversationId,
      reply.id,
      Promise.resolve(reply),
    );
    await until(() => logged.some((statement) => kindOf(statement) === "live event with its notify"));
    await publishingSettled();
    expect(logged.map(kindOf)).toEqual(["live event with its notify"]);
    const inserted = await follower.next(replyEvent("", "streaming"));
    expect(inserted.data).toEqual(eventFor(await storedReply(conversationId, reply.id)));

    // One flush: the write stores the row and the event made from the state it stores. Nothing is read again.
    const flushWithEvent = "reply update, returning it, and its live event with its notify";
    await pause(FLUSH_INTERVAL_MS);
    logged.length = 0;
    persistence.append("Hello, ");
    await until(() => logged.some((statement) => kindOf(statement) === flushWithEvent));
    await publishingSettled();
    expect(logged.map(kindOf)).toEqual([flushWithEvent]);
    const streamed = await follower.next(replyEvent("Hello, ", "streaming"));
    const storedWhileStreaming = await storedReply(conversationId, reply.id);
    expect(storedWhileStreaming.status).toBe("streaming");
    expect(streamed.data).toEqual(eventFor(storedWhileStreaming));

    // Two writes in flight (a flush, then the final state at once): their events in write order, each the state
    // that write stored, the last one the reply as it is stored now.
    await pause(FLUSH_INTERVAL_MS);
    logged.length = 0;
    persistence.append("world.");
    const finished = persistence.finish("complete");
    await finished;
    await publishingSettled();
    expect(logged.map(kindOf)).toEqual([flushWithEvent, flushWithEvent]);
    const final = await storedReply(conversationId, reply.id);
    expect(final.status).toBe("complete");
    const { type: _type, ...finalPayload } = eventFor(final);
    expect(
      appendedPayloads(logged).map((payload) => {
        const { message } = payload as {
          message: { parts: { text: string }[]; metadata: { status: string } };
        };
        return [message.parts.map((part) => part.text).join(""), message.metadata.status];
      }),
    ).toEqual([
      ["Hello, world.", "streaming"],
      ["Hello, world.", "complete"],
    ]);
    expect(appendedPayloads(logged).at(-1)).toEqual(finalPayload);
    const last = await follower.next(replyEvent("Hello, world.", "complete"));
    expect(last.data).toEqual(eventFor(final));

    // Each of the four events was signalled once, by its own statement (a separate NOTIFY would be heard twice).
    await pause(200);
    const signals = heard.filter((signal) => signal.conversationId === conversationId);
    expect(signals).toHaveLength(4);
    expect(signals.map((signal) => "eventId" in signal && signal.eventId)).toEqual([1, 2, 3, 4]);
    await follower.cancel();
  });

  test("a write whose row another writer changed meanwhile: its event, then the row as stored", async () => {
    const { conversationId, reply, follower } = await followedStreamingReply();
    const persistence = new ReplyPersistence(
      loggedDatabase.db,
      conversationId,
      reply.id,
      Promise.resolve(reply),
    );
    await publishingSettled();
    await until(() => logged.some((statement) => kindOf(statement) === "live event with its notify"));

    // Behind the writer's back, the reply is marked edited: the write's own event cannot know it.
    await (await getDb()).update(messages).set({ editedAt: new Date() }).where(eq(messages.id, reply.id));
    logged.length = 0;
    persistence.append("Hello.");
    await persistence.finish("complete");
    await publishingSettled();
    expect(logged.map(kindOf)).toEqual([
      "reply update, returning it, and its live event with its notify",
      "live event with its notify",
    ]);
    const stored = await storedReply(conversationId, reply.id);
    expect(stored.editedAt).not.toBeNull();
    const [fromWrite, fromRow] = appendedPayloads(logged) as { message: { metadata: { edited?: true } } }[];
    expect(fromWrite?.message.metadata.edited).toBeUndefined();
    expect(fromRow?.message.metadata.edited).toBe(true);
    const { type: _type, ...storedPayload } = eventFor(stored);
    expect(fromRow).toEqual(storedPayload);
    const last = await follower.next(
      (event) =>
        event.data.type === "message" &&
        (event.data.message as { metadata: { edited?: boolean } }).metadata.edited === true,
    );
    expect(last.data).toEqual(eventFor(stored));
    await follower.cancel();
  });
});
