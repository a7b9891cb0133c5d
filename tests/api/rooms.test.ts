// Rooms (SPEC §7.3): the owner invites people by email; they can read and write in the conversation, which becomes
// a room; everyone's messages carry their name (the model sees speaker labels once two people take part) and the
// persona replies to whoever wrote. Only the owner invites or removes others; a member may leave.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import * as participantRoute from "@/app/api/conversations/[id]/participants/[userId]/route";
import * as participantsRoute from "@/app/api/conversations/[id]/participants/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { call, expectError, signUp, type TestUser } from "../api-client";
import { type FakeProviderEnv, startFakeProviderEnv } from "../fixtures/fake-provider-env";
import { createConversation, insertPersona } from "../fixtures/personas";
import { postChat, runTurn, storedMessages } from "../fixtures/turns";

let env: FakeProviderEnv;
let ada: TestUser;
let bob: TestUser;
let eve: TestUser;

beforeAll(async () => {
  env = await startFakeProviderEnv();
  [ada, bob, eve] = await Promise.all([signUp("Ada"), signUp("Bob"), signUp("Eve")]);
});

afterAll(async () => {
  await env.close();
});

beforeEach(() => {
  env.providers.reset();
});

function invite(user: TestUser, conversationId: string, email: string) {
  return call(participantsRoute.POST, `/api/conversations/${conversationId}/participants`, {
    user,
    method: "POST",
    params: { id: conversationId },
    body: { email },
  });
}

function people(user: TestUser, conversationId: string) {
  return call(participantsRoute.GET, `/api/conversations/${conversationId}/participants`, {
    user,
    params: { id: conversationId },
  });
}

function remove(user: TestUser, conversationId: string, userId: string) {
  return call(participantRoute.DELETE, `/api/conversations/${conversationId}/participants/${userId}`, {
    user,
    method: "DELETE",
    params: { id: conversationId, userId },
  });
}

async function listTitles(user: TestUser): Promise<string[]> {
  const response = await call(conversationsRoute.GET, "/api/conversations", { user });
  return ((await response.json()) as { conversations: { id: string }[] }).conversations.map(
    (entry) => entry.id,
  );
}

describe("rooms", () => {
  test("an invited person sees the room, writes in it, and the persona answers them by name", async () => {
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini", name: "Aria" });
    const conversationId = await createConversation(ada, persona);
    env.providers.script({ kind: "text", text: "Hello Ada." }, { kind: "text", text: "Hello Bob." });
    await runTurn(ada, conversationId, "Planning Lisbon with Bob.");
    expect(await listTitles(bob)).not.toContain(conversationId);

    const response = await invite(ada, conversationId, bob.email.toUpperCase());
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      participant: { userId: bob.id, name: "Bob", role: "member" },
    });
    expect(await listTitles(bob)).toContain(conversationId);
    const detail = await call(conversationRoute.GET, `/api/conversations/${conversationId}`, {
      user: bob,
      params: { id: conversationId },
    });
    expect(
      ((await detail.json()) as { conversation: { visibility: string; isOwner: boolean } }).conversation,
    ).toMatchObject({
      visibility: "room",
      isOwner: false,
    });
    const list = (await (await people(bob, conversationId)).json()) as {
      participants: { name: string; role: string }[];
    };
    expect(list.participants.map((entry) => [entry.name, entry.role])).toEqual([
      ["Ada", "owner"],
      ["Bob", "member"],
    ]);

    await runTurn(bob, conversationId, "I'd like a hotel by the river.");
    const messages = await storedMessages(conversationId);
    expect(messages.map((message) => message.authorName)).toEqual(["Ada", "Aria", "Bob", "Aria"]);
    // Two people take part: the model sees who said what.
    const body = env.providers.requests[1].body;
    expect(body).toContain("Ada: Planning Lisbon with Bob.");
    expect(body).toContain("Bob: I'd like a hotel by the river.");
  });

  test("only the owner invites; unknown emails and people already in are refused with a reason", async () => {
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini" });
    const conversationId = await createConversation(ada, persona);
    await expectError(await invite(eve, conversationId, bob.email), 404, "not_found");
    expect(
      await expectError(await invite(ada, conversationId, "nobody@example.com"), 404, "not_found"),
    ).toContain("nobody@example.com");
    await expectError(await invite(ada, conversationId, "not an email"), 400, "bad_request");
    expect((await invite(ada, conversationId, bob.email)).status).toBe(201);
    expect(await expectError(await invite(ada, conversationId, bob.email), 409, "conflict")).toContain("Bob");
    // A member sees the room but cannot invite.
    await expectError(await invite(bob, conversationId, eve.email), 403, "forbidden");
    await expectError(await people(eve, conversationId), 404, "not_found");
  });

  test("the owner removes a member, a member may leave, nobody removes the owner; then they cannot write", async () => {
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini" });
    const conversationId = await createConversation(ada, persona);
    await invite(ada, conversationId, bob.email);
    await invite(ada, conversationId, eve.email);
    await expectError(await remove(bob, conversationId, eve.id), 403, "forbidden");
    await expectError(await remove(ada, conversationId, ada.id), 404, "not_found");
    expect((await remove(bob, conversationId, bob.id)).status).toBe(204);
    expect((await remove(ada, conversationId, eve.id)).status).toBe(204);
    expect(await listTitles(bob)).not.toContain(conversationId);
    await expectError(await postChat(eve, conversationId, "Still here?"), 404, "not_found");
  });
});
