// Stop reaches the instance that runs the turn: a stop for a turn this process does not run goes out on Redis,
// and a stop arriving on Redis stops the turn this process runs. Real Redis (REDIS_URL, or the local server).
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const CHANNEL = "glassbox:turn-stops";

let redisUp = false;
let listener: ReturnType<typeof createClient>;
let publisher: ReturnType<typeof createClient>;
const heard: string[] = [];

beforeAll(async () => {
  listener = createClient({ url: REDIS_URL, socket: { reconnectStrategy: false, connectTimeout: 1_000 } });
  listener.on("error", () => {});
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
  process.env.REDIS_URL = REDIS_URL;
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
    // Let this instance's subscription start (it connects on the first registered turn).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await publisher.publish(CHANNEL, JSON.stringify({ turnId: crypto.randomUUID(), shownChars: 1 }));
    await publisher.publish(CHANNEL, JSON.stringify({ turnId, shownChars: 7 }));
    await until(() => stops.length > 0);
    expect(stops).toEqual([{ turnId, shownChars: 7 }]);
    settle();
  });
});
