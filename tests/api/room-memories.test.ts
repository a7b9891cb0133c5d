// Private memories stay private in a room: a turn Bob starts in Ada's room uses only the persona's own memories,
// never Bob's user or user × persona ones, since Ada reads every turn and attempt of the room (raw request body
// included). The trace says they were withheld. In Bob's own conversation the same memories are used. And the
// attempts Ada made while her conversation was private still carry her memories: once Bob is invited, his views
// of those attempts have them replaced by a placeholder (items, trace, every body), and say so; Ada's do not.
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import { getDb } from "@/db/client";
import { attempts, memories } from "@/db/schema";
import { placeholder } from "@/lib/chat/attempts/private-memories";
import { call, signUp, type TestUser } from "../api-client";
import { type FakeProviderEnv, startFakeProviderEnv } from "../fixtures/fake-provider-env";
import { insertPrivateMemories } from "../fixtures/memories";
import { createConversation, insertPersona } from "../fixtures/personas";
import { fetchTurns, runTurn, type TurnView } from "../fixtures/turns";
import { join } from "./room-helpers";

const BOB_USER_SECRET = "Bob-user-secret: allergic to peanuts";
const BOB_PERSONA_SECRET = "Bob-user-persona-secret: plans a surprise for Ada";
const PERSONA_FACT = "Persona fact: Aria prefers maps to lists";

let env: FakeProviderEnv;
let ada: TestUser;
let bob: TestUser;

beforeAll(async () => {
  env = await startFakeProviderEnv();
  [ada, bob] = await Promise.all([signUp("Ada"), signUp("Bob")]);
});

afterAll(async () => {
  await env.close();
});

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
    await join(ada, bob, room);
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

const ADA_USER_SECRET = "Ada-user-secret: her PIN is 4711";
const ADA_PERSONA_SECRET = 'Ada-user-persona-secret: afraid of "deep" water\nsince 2019';

describe("private memories in attempts made before a room", () => {
  test("Bob reads Ada's earlier attempts with her memories redacted; Ada reads the exact bytes", async () => {
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini", name: "Aria" });
    const db = await getDb();
    const { userMemory: adaUserMemory, personaMemory: adaPersonaMemory } = await insertPrivateMemories(
      ada.id,
      persona.id,
      { user: ADA_USER_SECRET, userPersona: ADA_PERSONA_SECRET, persona: PERSONA_FACT },
    );

    // Ada alone: her memories go into the payload.
    const conversation = await createConversation(ada, persona);
    env.providers.script({ kind: "text", text: "Noted, Ada." });
    await runTurn(ada, conversation, "Hello, it's Ada.");
    const sentBody = env.providers.requests.at(-1)?.body ?? "";
    expect(sentBody).toContain("Ada-user-secret");
    expect(sentBody).toContain("Ada-user-persona-secret");

    await join(ada, bob, conversation);

    // Ada still reads exactly what was sent.
    const adaTurns = await fetchTurns(ada, conversation);
    const adaAttempt = adaTurns.turns[0]?.attempts[0];
    expect(adaAttempt?.request?.body).toBe(sentBody);
    expect(adaTurns.raw).toContain("Ada-user-secret");
    expect((adaAttempt as unknown as { privateMemoryRedaction: unknown }).privateMemoryRedaction).toBeNull();

    // Bob: the turns list and the single attempt, nowhere a secret.
    const bobTurns = await fetchTurns(bob, conversation);
    const attemptId = bobTurns.turns[0]?.attempts[0]?.id as string;
    const single = await call(attemptRoute.GET, `/api/attempts/${attemptId}`, {
      user: bob,
      params: { id: attemptId },
    });
    expect(single.status).toBe(200);
    const singleRaw = await single.text();
    for (const raw of [bobTurns.raw, singleRaw]) {
      expect(raw).not.toContain("Ada-user-secret");
      expect(raw).not.toContain("Ada-user-persona-secret");
      // Not the bare digits: a view's ids and timings are digits too, and hold any four of them now and then.
      expect(raw).not.toContain("PIN is 4711");
      expect(raw).toContain(PERSONA_FACT);
    }
    const bobAttempt = (JSON.parse(singleRaw) as { attempt: RedactedAttempt }).attempt;
    expect(bobAttempt.privateMemoryRedaction).toEqual({
      count: 2,
      owners: [{ userId: ada.id, name: "Ada" }],
      notice: "2 private memories redacted; visible only to Ada",
    });
    const core = bobAttempt.items.filter((item) => item.tag === "CORE_MEMORIES");
    expect(core).toHaveLength(1);
    expect(core[0]?.redacted).toBe(true);
    expect(core[0]?.parts[0]?.text).toBe(
      ["# CORE MEMORIES", `- ${placeholder("Ada")}`, `- ${placeholder("Ada")}`, `- ${PERSONA_FACT}`].join(
        "\n",
      ),
    );
    expect(bobAttempt.items.filter((item) => item.redacted)).toHaveLength(1);
    // The body is still the provider's JSON, the memories replaced inside its strings.
    const bobBody = bobAttempt.request?.body ?? "";
    expect(bobBody).toBe(
      sentBody
        .replace(JSON.stringify(`- ${ADA_USER_SECRET}`).slice(1, -1), `- ${placeholder("Ada")}`)
        .replace(JSON.stringify(`- ${ADA_PERSONA_SECRET}`).slice(1, -1), `- ${placeholder("Ada")}`),
    );
    expect(bobAttempt.requests.map((request) => request.body)).toEqual([bobBody]);

    // Editing or deleting the memory later does not un-redact what was sent.
    await db.update(memories).set({ content: "Ada-edited" }).where(eq(memories.id, adaUserMemory.id));
    await db.delete(memories).where(eq(memories.id, adaPersonaMemory.id));
    const afterEdit = await fetchTurns(bob, conversation);
    expect(afterEdit.raw).not.toContain("Ada-user-secret");
    expect(afterEdit.raw).not.toContain("Ada-user-persona-secret");

    // An attempt recorded before owners were kept is matched against the owner's memories when read.
    await db.update(memories).set({ content: ADA_USER_SECRET }).where(eq(memories.id, adaUserMemory.id));
    await db
      .update(attempts)
      .set({ privateMemories: null })
      .where(inArray(attempts.id, [attemptId]));
    const legacy = await fetchTurns(bob, conversation);
    expect(legacy.raw).not.toContain("Ada-user-secret");
    expect(legacy.raw).toContain("1 private memory redacted; visible only to Ada");
  });
});

type RedactedAttempt = Omit<TurnView["attempts"][number], "items"> & {
  privateMemoryRedaction: {
    count: number;
    owners: { userId: string; name: string }[];
    notice: string;
  } | null;
  items: Array<TurnView["attempts"][number]["items"][number] & { redacted?: boolean }>;
};
