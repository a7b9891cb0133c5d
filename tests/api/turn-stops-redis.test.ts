// Stop reaches the instance that runs the turn: a stop for a turn this process does not run goes out on Redis,
// and a stop arriving on Redis stops the turn this process runs. Real Redis (REDIS_URL, or the local server).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { oneTryRedisClient, TEST_REDIS_URL } from "../fixtures/redis";

const CHANNEL = "glassbox:turn-stops";

let redisUp = false;
let listener: ReturnType<typeof oneTryRedisClient>;
let publisher: ReturnType<typeof oneTryRedisClient>;
const heard: string[] = [];

beforeAll(async () => {
  listener = oneTryRedisClient();
  try {
    await listener.connect();
    redisUp = true;
  } catch {
    return;
  }
  publisher = listener.duplicate();
  await publisher.connect();
  await listener.subscribe(CHANNEL, (message) => heard.push(message));
  // The module under test reads REDIS_URL when it first connects.
  process.env.REDIS_URL = TEST_REDIS_URL;
});

afterAll(async () => {
  if (!redisUp) return;
  await listener.quit();
  await publisher.quit();
});

async function until(check: () => boolean, timeoutMs = 3_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("stops across instances, through Redis", () => {
  test("a stop for a turn another instance runs is published with what the user saw", async (context) => {
    if (!redisUp) context.skip();
    const { requestStop } = await import("@/lib/chat/turn-control/turn-stops");
    const turnId = crypto.randomUUID();
    await expect(requestStop({ turnId, shownChars: 42 })).resolves.toBe(false);
    await until(() => heard.some((message) => message.includes(turnId)));
    expect(JSON.parse(heard.find((message) => message.includes(turnId)) ?? "{}")).toEqual({
      turnId,
      shownChars: 42,
    });
  });

  test("a stop heard on Redis stops the turn this instance runs, with the characters shown", async (context) => {
    if (!redisUp) context.skip();
    const { registerRunningTurn } = await import("@/lib/chat/turn-control/turn-stops");
    const turnId = crypto.randomUUID();
    const stops: { turnId: string; shownChars?: number }[] = [];
    const settle = registerRunningTurn(turnId, crypto.randomUUID(), (request) => stops.push(request));
    // This instance subscribes when it first needs the channel: wait until Redis counts its subscription beside
    // this file's listener.
    await expect.poll(async () => (await publisher.pubSubNumSub(CHANNEL))[CHANNEL]).toBeGreaterThanOrEqual(2);
    await publisher.publish(CHANNEL, JSON.stringify({ turnId: crypto.randomUUID(), shownChars: 1 }));
    await publisher.publish(CHANNEL, JSON.stringify({ turnId, shownChars: 7 }));
    await until(() => stops.length > 0);
    expect(stops).toEqual([{ turnId, shownChars: 7 }]);
    settle();
  });
});
