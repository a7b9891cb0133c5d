// One answer whether an account (or an invitation) exists or not: sign-up with a taken email answers as sign-up
// with a new one (no session from either; the sign-in that follows is what tells the person who mistyped), and
// an owner withdrawing an invitation answers 204 whether the id was invited, a member, never there or no account.
// The admin endpoints' side (anonymous: 401 before any lookup) is in last-admin.test.ts.
import { describe, expect, test } from "vitest";
import * as invitationsRoute from "@/app/api/invitations/route";
import { getDb } from "@/db/client";
import { user } from "@/db/schema";
import { authPost, call, expectError, signUp, TEST_PASSWORD } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { conversationWithPersona } from "../fixtures/personas";
import { signedUpForFile } from "../fixtures/users";
import { invite, removeParticipant } from "./room-helpers";

fakeProvidersForFile();
const ada = signedUpForFile("Ada");
const bob = signedUpForFile("Bob");
const eve = signedUpForFile("Eve");

/** A sign-up's answer with what differs by nature (ids, times, the email asked for) blanked out. */
async function answerOf(response: Response, email: string) {
  const text = await response.text();
  return {
    status: response.status,
    cookies: response.headers.getSetCookie(),
    body: text
      .replace(/"id":"[^"]+"/g, '"id":"ID"')
      .replace(/"\d{4}-\d\d-\d\dT[^"]+"/g, '"TIME"')
      .replace(email, "EMAIL"),
  };
}

describe("sign-up says the same for a taken email and a new one", () => {
  const password = "another quite different passphrase";
  const cases: Array<{ name: string; email: (taken: string) => string }> = [
    { name: "the taken email as it was registered", email: (taken) => taken },
    { name: "the taken email in capitals", email: (taken) => taken.toUpperCase() },
  ];
  test.each(cases)("$name", async ({ email }) => {
    const existing = await signUp("Existing");
    const takenEmail = email(existing.email);
    const freshEmail = `fresh-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;
    const taken = await answerOf(
      await authPost("/sign-up/email", { name: "Someone", email: takenEmail, password }),
      takenEmail.toLowerCase(),
    );
    const fresh = await answerOf(
      await authPost("/sign-up/email", { name: "Someone", email: freshEmail, password }),
      freshEmail,
    );
    expect(taken).toEqual(fresh);
    expect(taken.status).toBe(200);
    expect(taken.cookies).toEqual([]);

    // The taken account is untouched: its own password signs in, the one sent with the sign-up does not.
    expect((await authPost("/sign-in/email", { email: existing.email, password })).status).toBe(401);
    expect(
      (await authPost("/sign-in/email", { email: existing.email, password: TEST_PASSWORD })).status,
    ).toBe(200);
    const { eq } = await import("drizzle-orm");
    const [row] = await (await getDb()).select().from(user).where(eq(user.email, existing.email));
    expect(row.name).toBe("Existing");
    // The new account exists and signs in with its password.
    expect((await authPost("/sign-in/email", { email: freshEmail, password })).status).toBe(200);
  });
});

describe("an owner withdrawing an invitation: 204 whoever the id is", () => {
  test("invited, never invited, a member who left, no such account: the same empty 204", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    expect((await invite(ada, conversationId, bob.email)).status).toBe(202);
    expect((await invite(ada, conversationId, "nobody@example.com")).status).toBe(202);
    const answers = [];
    for (const userId of [bob.id, eve.id, "no-such-user", "x".repeat(32)]) {
      const response = await removeParticipant(ada, conversationId, userId);
      answers.push(`${response.status} ${await response.text()}`);
    }
    expect(answers).toEqual(["204 ", "204 ", "204 ", "204 "]);
    // Bob's invitation really was withdrawn.
    const pending = await call(invitationsRoute.GET, "/api/invitations", { user: bob });
    expect(((await pending.json()) as { invitations: unknown[] }).invitations).toEqual([]);
    // The owner cannot take themselves out: said as a conflict, not as "no such member".
    await expectError(await removeParticipant(ada, conversationId, ada.id), 409, "conflict");
    // Someone who cannot read the conversation gets 404 for any id, their own included.
    for (const userId of [eve.id, bob.id, "no-such-user"])
      await expectError(await removeParticipant(eve, conversationId, userId), 404, "not_found");
  });
});
