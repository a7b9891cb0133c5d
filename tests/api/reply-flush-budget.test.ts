// A streaming reply is written every 500 ms while few replies stream in the process; when many stream at once the
// interval grows so that all of them together are written about 100 times a second, up to 5 s
// (lib/chat/turn/reply-persistence.ts, flushIntervalMs): a burst of turns does not spend its database on mid-stream
// writes.
import { expect, test } from "vitest";
import { getDb } from "@/db/client";
import { findMessageInConversation } from "@/db/query-parts";
import { FLUSH_INTERVAL_MS, flushIntervalMs, ReplyPersistence } from "@/lib/chat/turn/reply-persistence";
import { registerRunningTurn } from "@/lib/chat/turn-control/turn-stops";
import { createConversation, insertPersona } from "../fixtures/personas";
import { storePersonaReply } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const ada = signedUpForFile("Ada");

test.each([
  [0, 500],
  [1, 500],
  [50, 500],
  [100, 1_000],
  [200, 2_000],
  [450, 4_500],
  [500, 5_000],
  [10_000, 5_000],
])("%i turns running: a streaming reply is written every %i ms", (runningTurns, interval) => {
  expect(flushIntervalMs(runningTurns)).toBe(interval);
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function storedText(conversationId: string, messageId: string): Promise<string> {
  const message = await findMessageInConversation({ db: await getDb(), conversationId, messageId });
  return (message?.parts ?? []).map((part) => (part.type === "text" ? part.text : "")).join("");
}

test("with 300 turns running here, a reply is not written 500 ms on; once they end, it is", async () => {
  const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini", name: "Aria" });
  const conversationId = await createConversation(ada, persona);
  const reply = await storePersonaReply(persona, conversationId, "", { parts: [], status: "streaming" });
  const persistence = new ReplyPersistence(await getDb(), conversationId, reply.id, Promise.resolve(reply));
  const others = Array.from({ length: 300 }, (_, index) =>
    registerRunningTurn(`busy-${index}`, `busy-conversation-${index}`, () => {}),
  );
  try {
    await pause(FLUSH_INTERVAL_MS + 100);
    persistence.append("Hello, ");
    await pause(200);
    expect(await storedText(conversationId, reply.id)).toBe("");
  } finally {
    for (const unregister of others) unregister();
  }
  persistence.append("world.");
  await pause(200);
  expect(await storedText(conversationId, reply.id)).toBe("Hello, world.");
  await persistence.finish("complete");
});
