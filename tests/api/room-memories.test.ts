// Private memories stay private in a room: a turn Bob starts in Ada's room uses only the persona's own memories,
// never Bob's user or user × persona ones, since Ada reads every turn and attempt of the room (raw request body
// included). The trace says they were withheld. In Bob's own conversation the same memories are used.
import { describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import * as participantsRoute from "@/app/api/conversations/[id]/participants/route";
import { getDb } from "@/db/client";
import { memories } from "@/db/schema";
import { call, type TestUser } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { createConversation, insertPersona } from "../fixtures/personas";
import { fetchTurns, runTurn } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const BOB_USER_SECRET = "Bob-user-secret: allergic to peanuts";
const BOB_PERSONA_SECRET = "Bob-user-persona-secret: plans a surprise for Ada";
const PERSONA_FACT = "Persona fact: Aria prefers maps to lists";

const env = fakeProvidersForFile({ resetBeforeEach: false });
const ada = signedUpForFile("Ada");
const bob = signedUpForFile("Bob");

describe("private memories in a room", () => {
  test("Bob's private memories never reach what Ada reads; the persona's do; the trace says why", async () => {
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini", name: "Aria" });
    const db = await getDb();
    await db.insert(memories).values([
      { scope: "user", userId: bob.id, area: "fact", content: BOB_USER_SECRET },
      {
        scope: "user_persona",
        userId: bob.id,
        personaId: persona.id,
        area: "fact",
        content: BOB_PERSONA_SECRET,
      },
      { scope: "persona", personaId: persona.id, area: "fact", content: PERSONA_FACT },
    ]);

    // Bob alone: his memories are his own payload's business.
    const own = await createConversation(bob, persona);
    env.providers.script({ kind: "text", text: "Noted." });
    await runTurn(bob, own, "Hello from my own chat.");
    const ownTurns = await fetchTurns(bob, own);
    expect(ownTurns.raw).toContain(BOB_USER_SECRET);
    expect(ownTurns.raw).toContain(BOB_PERSONA_SECRET);

    // Ada's room, Bob in it, Bob writes.
    const room = await createConversation(ada, persona);
    const invited = await call(participantsRoute.POST, `/api/conversations/${room}/participants`, {
      user: ada,
      params: { id: room },
      body: { email: bob.email },
    });
    expect(invited.status).toBeLessThan(300);
    await acceptInvitationIfPending(bob, room);
    env.providers.script({ kind: "text", text: "Hi Bob." });
    await runTurn(bob, room, "What do you remember about me?");

    const { raw, turns } = await fetchTurns(ada, room);
    expect(turns.length).toBeGreaterThan(0);
    expect(raw).not.toContain("Bob-user-secret");
    expect(raw).not.toContain("Bob-user-persona-secret");
    expect(raw).toContain(PERSONA_FACT);
    const attempt = turns.at(-1)?.attempts.at(-1);
    expect(attempt).toBeDefined();
    expect(JSON.stringify(attempt?.trace)).toContain("private-memories-withheld");

    const single = await call(attemptRoute.GET, `/api/attempts/${attempt?.id}`, {
      user: ada,
      params: { id: attempt?.id as string },
    });
    expect(single.status).toBe(200);
    const singleRaw = await single.text();
    expect(singleRaw).not.toContain("Bob-user-secret");
    expect(singleRaw).not.toContain("Bob-user-persona-secret");
    expect(singleRaw).toContain(PERSONA_FACT);

    // What the provider received, too.
    const sent = env.providers.requests.at(-1);
    expect(sent?.body).toContain(PERSONA_FACT);
    expect(sent?.body).not.toContain("Bob-user-secret");
  });
});

/** With invitations the invitee accepts, Bob accepts; without, there is nothing to do. */
async function acceptInvitationIfPending(user: TestUser, conversationId: string): Promise<void> {
  const routes = (await import("@/app/api/conversations/[id]/participants/[userId]/route")) as Record<
    string,
    unknown
  >;
  if (typeof routes.PATCH !== "function") return;
  const response = await call(
    routes.PATCH as Parameters<typeof call>[0],
    `/api/conversations/${conversationId}/participants/${user.id}`,
    { user, method: "PATCH", params: { id: conversationId, userId: user.id }, body: { status: "accepted" } },
  );
  expect(response.status).toBe(200);
}
