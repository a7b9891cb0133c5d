// Rooms: the owner invites people by email; they can read and write in the conversation, which becomes
// a room; everyone's messages carry their name (the model sees speaker labels once two people take part) and the
// persona replies to whoever wrote. Only the owner invites or removes others; a member may leave.
import { describe, expect, test } from "vitest";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import * as invitationsRoute from "@/app/api/invitations/route";
import { call, expectError, type TestUser } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { conversationWithPersona } from "../fixtures/personas";
import { postChat, runTurn, storedMessages } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";
import { accept, invite, join, people, removeParticipant } from "./room-helpers";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");
const bob = signedUpForFile("Bob");
const eve = signedUpForFile("Eve");

function invitations(user: TestUser) {
  return call(invitationsRoute.GET, "/api/invitations", { user });
}

async function listTitles(user: TestUser): Promise<string[]> {
  const response = await call(conversationsRoute.GET, "/api/conversations", { user });
  return ((await response.json()) as { conversations: { id: string }[] }).conversations.map(
    (entry) => entry.id,
  );
}

describe("rooms", () => {
  test("an invited person sees the room, writes in it, and the persona answers them by name", async () => {
    const conversationId = await conversationWithPersona(ada, {
      modelId: "openai:gpt-4.1-mini",
      name: "Aria",
    });
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
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
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
    await expectError(await accept(eve, conversationId, bob.id), 404, "not_found");
    await expectError(await accept(eve, conversationId), 404, "not_found");
    // Bob declines: the invitation is gone.
    expect((await removeParticipant(bob, conversationId, bob.id)).status).toBe(204);
    expect(((await (await invitations(bob)).json()) as { invitations: unknown[] }).invitations).toEqual([]);
    await expectError(await accept(bob, conversationId), 404, "not_found");
    // Invited again, he accepts; a member sees the room but cannot invite.
    await join(ada, bob, conversationId);
    await expectError(await invite(bob, conversationId, eve.email), 403, "forbidden");
    await expectError(await people(eve, conversationId), 404, "not_found");
  });

  test("the owner removes a member, a member may leave, nobody removes the owner; then they cannot write", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    await join(ada, bob, conversationId);
    await join(ada, eve, conversationId);
    await expectError(await removeParticipant(bob, conversationId, eve.id), 403, "forbidden");
    await expectError(await removeParticipant(ada, conversationId, ada.id), 409, "conflict");
    expect((await removeParticipant(bob, conversationId, bob.id)).status).toBe(204);
    expect((await removeParticipant(ada, conversationId, eve.id)).status).toBe(204);
    expect(await listTitles(bob)).not.toContain(conversationId);
    await expectError(await postChat(eve, conversationId, "Still here?"), 404, "not_found");
  });
});
