// The live rooms' bus between instances (docs/features.md, "Live rooms"): two connections stand for two
// instances, on real Redis (REDIS_URL, or the local server) and on real Postgres LISTEN/NOTIFY (DATABASE_URL).
// A signal published on one reaches both, in the order published; a signal near NOTIFY's size limit still goes.
import { afterAll, describe, expect, test } from "vitest";
import {
  connectPostgresBus,
  connectRedisBus,
  type LiveBus,
  type LiveSignal,
  processBus,
} from "@/lib/live/bus";
import { redisReachable, TEST_REDIS_URL } from "../fixtures/redis";

const opened: LiveBus[] = [];
afterAll(async () => {
  await Promise.all(opened.map((bus) => bus.close()));
});

async function until(check: () => boolean, timeoutMs = 3_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Two instances' buses: what one publishes, both hear, in order; other conversations' signals are theirs. */
async function checkBetweenInstances(connect: () => Promise<LiveBus>) {
  const [first, second] = await Promise.all([connect(), connect()]);
  opened.push(first, second);
  const conversationId = crypto.randomUUID();
  const heardByFirst: LiveSignal[] = [];
  const heardBySecond: LiveSignal[] = [];
  first.subscribe((signal) => signal.conversationId === conversationId && heardByFirst.push(signal));
  const unsubscribe = second.subscribe(
    (signal) => signal.conversationId === conversationId && heardBySecond.push(signal),
  );
  const sent: LiveSignal[] = [
    { conversationId, eventId: 1 },
    { conversationId, eventId: 2 },
    { conversationId, typing: { userId: "user-1", name: "Bob" } },
    // A long name: the signal stays far below NOTIFY's 8 000 bytes only because events travel as ids.
    { conversationId, typing: { userId: "user-2", name: "B".repeat(4_000) } },
  ];
  for (const signal of sent) await first.publish(signal);
  await until(() => heardBySecond.length === sent.length && heardByFirst.length === sent.length);
  expect(heardBySecond).toEqual(sent);
  expect(heardByFirst).toEqual(sent);
  unsubscribe();
  await second.publish({ conversationId, eventId: 3 });
  await until(() => heardByFirst.length === sent.length + 1);
  expect(heardBySecond).toHaveLength(sent.length);
}

describe("the live bus", () => {
  test("Redis pub/sub carries signals between instances", async (context) => {
    if (!(await redisReachable())) context.skip();
    await checkBetweenInstances(() => connectRedisBus(TEST_REDIS_URL));
  });

  test("Postgres LISTEN/NOTIFY carries signals between instances", async (context) => {
    const url = process.env.DATABASE_URL;
    if (!url) context.skip();
    await checkBetweenInstances(() => connectPostgresBus(url as string));
  });

  test("within one process (embedded PGlite), delivery is later, never inside publish", async () => {
    const bus = processBus();
    const heard: LiveSignal[] = [];
    bus.subscribe((signal) => heard.push(signal));
    const signal = { conversationId: crypto.randomUUID(), eventId: 7 };
    await bus.publish(signal);
    expect(heard).toEqual([]);
    await until(() => heard.length === 1);
    expect(heard).toEqual([signal]);
  });
});
