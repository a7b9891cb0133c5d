// Rooms: the owner invites people by email; they can read and write in the conversation, which becomes
// a room; everyone's messages carry their name (the model sees speaker labels once two people take part) and the
// persona replies to whoever wrote. Only the owner invites or removes others; a member may leave.
import { describe, expect, test } from "vitest";
import * as participantRoute from "@/app/api/conversations/[id]/participants/[userId]/route";
import * as participantsRoute from "@/app/api/conversations/[id]/participants/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import * as invitationsRoute from "@/app/api/invitations/route";
import { call, expectError, type TestUser } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { createConversation, insertPersona } from "../fixtures/personas";
import { postChat, runTurn, storedMessages } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");
const bob = signedUpForFile("Bob");
const eve = signedUpForFile("Eve");

function invite(user: TestUser, conversationId: string, email: string) {
  return call(participantsRoute.POST, `/api/conversations/${conversationId}/participants`, {
    user,
    method: "POST",
    params: { id: conversationId },
    body: { email },
  });
}

function accept(user: TestUser, conversationId: string) {
  return call(participantRoute.PATCH, `/api/conversations/${conversationId}/participants/${user.id}`, {
    user,
    method: "PATCH",
    params: { id: conversationId, userId: user.id },
    body: { status: "accepted" },
  });
}

/** The owner invites and the invitee accepts: what "adding someone" takes. */
async function join(owner: TestUser, invitee: TestUser, conversationId: string) {
  expect((await invite(owner, conversationId, invitee.email)).status).toBe(202);
  expect((await accept(invitee, conversationId)).status).toBe(200);
}

function invitations(user: TestUser) {
  return call(invitationsRoute.GET, "/api/invitations", { user });
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
    expect(response.status).toBe(202);
    // Pending: Bob sees the invitation, not the conversation.
    expect(await listTitles(bob)).not.toContain(conversationId);
    const pending = (await (await invitations(bob)).json()) as {
      invitations: { conversationId: string; invitedBy: string }[];
    };
    expect(pending.invitations).toEqual([expect.objectContaining({ conversationId, invitedBy: "Ada" })]);
    const accepted = await accept(bob, conversationId);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({
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

  test("only the owner invites; the answer never tells whether an email has an account or is in already", async () => {
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini" });
    const conversationId = await createConversation(ada, persona);
    await expectError(await invite(eve, conversationId, bob.email), 404, "not_found");
    await expectError(await invite(ada, conversationId, "not an email"), 400, "bad_request");
    const answers = [];
    for (const email of ["nobody@example.com", bob.email, bob.email]) {
      const response = await invite(ada, conversationId, email);
      const body = (await response.json()) as { invitation: { message: string } };
      answers.push([response.status, body.invitation.message.replace(email, "EMAIL")]);
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0][0]).toBe(202);
    // The unknown email stored nothing; Bob's invitation grants nothing until he accepts.
    await expectError(await people(bob, conversationId), 404, "not_found");
    await expectError(await postChat(bob, conversationId, "Let me in"), 404, "not_found");
    const list = (await (await people(ada, conversationId)).json()) as { participants: { name: string }[] };
    expect(list.participants.map((entry) => entry.name)).toEqual(["Ada"]);
    // Nobody else can accept Bob's invitation, nor accept one they do not have.
    const forged = await call(
      participantRoute.PATCH,
      `/api/conversations/${conversationId}/participants/${bob.id}`,
      {
        user: eve,
        method: "PATCH",
        params: { id: conversationId, userId: bob.id },
        body: { status: "accepted" },
      },
    );
    await expectError(forged, 404, "not_found");
    await expectError(await accept(eve, conversationId), 404, "not_found");
    // Bob declines: the invitation is gone.
    expect((await remove(bob, conversationId, bob.id)).status).toBe(204);
    expect(((await (await invitations(bob)).json()) as { invitations: unknown[] }).invitations).toEqual([]);
    await expectError(await accept(bob, conversationId), 404, "not_found");
    // Invited again, he accepts; a member sees the room but cannot invite.
    await join(ada, bob, conversationId);
    await expectError(await invite(bob, conversationId, eve.email), 403, "forbidden");
    await expectError(await people(eve, conversationId), 404, "not_found");
  });

  test("the owner removes a member, a member may leave, nobody removes the owner; then they cannot write", async () => {
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini" });
    const conversationId = await createConversation(ada, persona);
    await join(ada, bob, conversationId);
    await join(ada, eve, conversationId);
    await expectError(await remove(bob, conversationId, eve.id), 403, "forbidden");
    await expectError(await remove(ada, conversationId, ada.id), 404, "not_found");
    expect((await remove(bob, conversationId, bob.id)).status).toBe(204);
    expect((await remove(ada, conversationId, eve.id)).status).toBe(204);
    expect(await listTitles(bob)).not.toContain(conversationId);
    await expectError(await postChat(eve, conversationId, "Still here?"), 404, "not_found");
  });
});
