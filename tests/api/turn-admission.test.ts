// Turns set up a few at a time, in arrival order (lib/chat/turn/turn-admission.ts): no more than TURN_SETUP_CONCURRENCY
// set-ups run at once, the waiting ones start in the order they came, a failed set-up frees its place, and a turn
// whose reply is streaming holds no place (the next turn's set-up does not wait for it).
import { afterEach, expect, test } from "vitest";
import { admitTurnSetUp } from "@/lib/chat/turn/turn-admission";
import { createConversation } from "../fixtures/personas";
import { postChat } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const ada = signedUpForFile("Ada");
const saved = {
  concurrency: process.env.TURN_SETUP_CONCURRENCY,
  wordDelay: process.env.OFFLINE_MODEL_WORD_DELAY_MS,
};

afterEach(() => {
  for (const [name, value] of [
    ["TURN_SETUP_CONCURRENCY", saved.concurrency],
    ["OFFLINE_MODEL_WORD_DELAY_MS", saved.wordDelay],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

test("at most TURN_SETUP_CONCURRENCY set-ups run at once; the others start in arrival order", async () => {
  process.env.TURN_SETUP_CONCURRENCY = "2";
  const started: number[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const gates = Array.from({ length: 5 }, deferred);
  const setUps = gates.map((gate, index) =>
    admitTurnSetUp(async () => {
      started.push(index);
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      await gate.promise;
      running--;
      if (index === 1) throw new Error("set-up 1 failed");
      return index;
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(started).toEqual([0, 1]);
  // Set-up 1 fails: its place goes to the next in line.
  gates[1].resolve();
  await expect(setUps[1]).rejects.toThrow("set-up 1 failed");
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(started).toEqual([0, 1, 2]);
  for (const gate of gates) gate.resolve();
  expect(await Promise.all([setUps[0], setUps[2], setUps[3], setUps[4]])).toEqual([0, 2, 3, 4]);
  expect(started).toEqual([0, 1, 2, 3, 4]);
  expect(mostAtOnce).toBe(2);
});

test("with one place, a turn is set up and answering while another's reply still streams", async () => {
  process.env.TURN_SETUP_CONCURRENCY = "1";
  // The offline model's words 40 ms apart: a reply streams for a second or more.
  process.env.OFFLINE_MODEL_WORD_DELAY_MS = "40";
  const [first, second] = await Promise.all([createConversation(ada), createConversation(ada)]);
  const slow = await postChat(
    ada,
    first,
    "Tell me about Lisbon's trams, the old yellow ones, in some detail.",
  );
  expect(slow.status).toBe(200);
  let slowEnded = false;
  const slowText = slow.text().then((text) => {
    slowEnded = true;
    return text;
  });
  // The route answers once the turn is set up: the first reply's stream did not keep its place.
  const quick = await postChat(ada, second, "Hi");
  expect(quick.status).toBe(200);
  expect(slowEnded).toBe(false);
  expect(await quick.text()).toContain('"type":"finish"');
  expect(await slowText).toContain('"type":"finish"');
});
