// Many turns in one conversation, with a live reader following it, leave no listener behind: no
// MaxListenersExceededWarning (Node's limit of ten per signal or emitter is never raised to hide one).
import { afterAll, beforeAll, expect, test } from "vitest";
import * as eventsRoute from "@/app/api/conversations/[id]/events/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { call, signUp, type TestUser } from "../api-client";
import { runTurn } from "../fixtures/turns";
import { followSse } from "../live/sse";

let ada: TestUser;
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);

beforeAll(async () => {
  ada = await signUp("Ada");
  process.on("warning", onWarning);
});
afterAll(() => {
  process.off("warning", onWarning);
});

test("fifteen turns in one conversation, followed live, raise no listener-leak warning", async () => {
  const created = await call(conversationsRoute.POST, "/api/conversations", { user: ada, body: {} });
  const { id } = (await created.json()) as { id: string };
  const followed = await call(eventsRoute.GET, `/api/conversations/${id}/events`, {
    user: ada,
    params: { id },
  });
  const follower = followSse(followed);
  try {
    for (let turn = 1; turn <= 15; turn++) {
      const { text } = await runTurn(ada, id, `Turn ${turn}, a few words to stream back.`);
      expect(text).toContain(`Turn ${turn}, a few words to stream back.`);
    }
    // A warning is emitted on the next tick after the listener that crossed the limit.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(warnings.filter((warning) => warning.startsWith("MaxListenersExceededWarning"))).toEqual([]);
  } finally {
    await follower.cancel();
  }
}, 120_000);
