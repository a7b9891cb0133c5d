// GET /api/chat/:id/stream without Redis (one instance: nothing to resume from): 204 for a reader, so the
// chat simply shows the stored reply; 404 for anyone else; 401 without a session. The cross-instance resume itself
// runs against two real servers and Redis in e2e/resume.spec.ts.
import { beforeAll, describe, expect, test } from "vitest";
import * as streamRoute from "@/app/api/chat/[id]/stream/route";
import { call, expectError, signUp, type TestUser } from "../api-client";
import { createConversation } from "../fixtures/personas";

let ada: TestUser;
let eve: TestUser;

beforeAll(async () => {
  [ada, eve] = await Promise.all([signUp("Ada"), signUp("Eve")]);
});

function resume(user: TestUser | null, conversationId: string) {
  return call(streamRoute.GET, `/api/chat/${conversationId}/stream`, {
    user,
    params: { id: conversationId },
  });
}

describe("resume without Redis", () => {
  test("204 for a reader, 404 for others, 401 without a session", async () => {
    expect(process.env.REDIS_URL).toBeUndefined();
    const conversationId = await createConversation(ada);
    expect((await resume(ada, conversationId)).status).toBe(204);
    await expectError(await resume(eve, conversationId), 404, "not_found");
    await expectError(await resume(null, conversationId), 401, "unauthorized");
  });
});
