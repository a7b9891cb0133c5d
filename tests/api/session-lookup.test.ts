// The session lookup of every API request (`sessionUser`, lib/auth.ts): its one-query path answers only for a
// validly signed cookie of a live session; everything else is better-auth's answer, as before.
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import * as authRoute from "@/app/api/auth/[...all]/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { getDb } from "@/db/client";
import { session } from "@/db/schema";
import { call, expectError, signUp, type TestUser } from "../api-client";

const ORIGIN = "http://localhost:3000";

function listConversations(cookie: string) {
  return call(conversationsRoute.GET, "/api/conversations", { headers: { cookie } });
}

function sessionToken(user: TestUser): string {
  const value = user.cookie.split("; ").find((pair) => pair.startsWith("better-auth.session_token="));
  if (!value) throw new Error("no session cookie");
  return decodeURIComponent(value.slice("better-auth.session_token=".length)).split(".")[0];
}

/** `text` with its character at `index` replaced by another one, so the result never equals `text`. */
function withCharacterChanged(text: string, index: number): string {
  const replacement = text[index] === "A" ? "B" : "A";
  return `${text.slice(0, index)}${replacement}${text.slice(index + 1)}`;
}

describe("session lookup", () => {
  test("a signed session cookie is accepted; a tampered signature or token is not", async () => {
    const ada = await signUp("Ada");
    expect((await listConversations(ada.cookie)).status).toBe(200);
    const [name, value] = ada.cookie.split("=", 2);
    const decoded = decodeURIComponent(value);
    // The cookie is `<token>.<signature>`: one character of each changed, always to another one (a fixed
    // replacement would now and then be the character already there, and the cookie unchanged).
    const tamperedSignature = withCharacterChanged(decoded, decoded.indexOf(".") + 1);
    const tamperedToken = withCharacterChanged(decoded, 0);
    for (const signed of [tamperedSignature, tamperedToken, decoded.split(".")[0]]) {
      await expectError(
        await listConversations(`${name}=${encodeURIComponent(signed)}`),
        401,
        "unauthorized",
      );
    }
  });

  test("a signed-out or deleted session is refused at once; an expired one too", async () => {
    const bob = await signUp("Bob");
    const signOut = await authRoute.POST(
      new Request(`${ORIGIN}/api/auth/sign-out`, {
        method: "POST",
        headers: { origin: ORIGIN, host: "localhost:3000", cookie: bob.cookie },
      }),
    );
    expect(signOut.status).toBe(200);
    await expectError(await listConversations(bob.cookie), 401, "unauthorized");

    const carol = await signUp("Carol");
    const db = await getDb();
    await db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(session.token, sessionToken(carol)));
    await expectError(await listConversations(carol.cookie), 401, "unauthorized");
  });

  test("a session due for better-auth's refresh is still accepted, and its expiry is moved on", async () => {
    const dan = await signUp("Dan");
    const db = await getDb();
    const token = sessionToken(dan);
    // Six days left of seven: past the one-day update age.
    const dueAt = new Date(Date.now() + 6 * 24 * 3_600_000 - 60_000);
    await db.update(session).set({ expiresAt: dueAt }).where(eq(session.token, token));
    expect((await listConversations(dan.cookie)).status).toBe(200);
    const [row] = await db.select().from(session).where(eq(session.token, token));
    expect(row.expiresAt.getTime()).toBeGreaterThan(dueAt.getTime() + 12 * 3_600_000);
  });
});
