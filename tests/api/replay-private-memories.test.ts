// A replay is never more visible than its source (docs/features.md#private-memories). Alice chats alone, so
// attempt T carries her private memories; she invites Bob and Carol, then edits or deletes those memories. A replay
// of T that resends its body sends the model T's bytes (what the replay is for) and records T's private memories,
// so every member but Alice reads it redacted exactly as T, and Alice reads it as she reads T, whoever replayed it.
// A rebuilt replay is a new payload built now: in the room Alice's memories are withheld from it. A branch copies
// messages, never attempts: nothing of T's payload reaches it.
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import * as replayRoute from "@/app/api/attempts/[id]/replay/route";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import * as memoryRoute from "@/app/api/memories/[memoryId]/route";
import { getDb } from "@/db/client";
import { attempts, memories } from "@/db/schema";
import { placeholder } from "@/lib/chat/attempts/private-memories";
import { call, type TestUser } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { createConversation, insertPersona } from "../fixtures/personas";
import { type AttemptView, fetchTurns, runTurn } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";
import { branch } from "./reply-helpers";
import { join } from "./room-helpers";

const env = fakeProvidersForFile();
const alice = signedUpForFile("Alice");
const bob = signedUpForFile("Bob");
const carol = signedUpForFile("Carol");

const ALICE_USER_SECRET = "Alice-user-secret: her PIN is 4711";
const ALICE_PERSONA_SECRET = 'Alice-persona-secret: afraid of "deep" water';
const PERSONA_FACT = "Persona fact: Aria prefers maps to lists";
/** What no reader but Alice may find in anything about T or its replays. */
const SECRET_FRAGMENTS = ["Alice-user-secret", "her PIN is", "Alice-persona-secret", "afraid of"];

interface AttemptWithRedaction extends AttemptView {
  kind: string;
  replayOf: string | null;
  privateMemoryRedaction: {
    count: number;
    owners: { userId: string; name: string }[];
    notice: string;
  } | null;
}

/** Alice's two memories, redacted for anyone else, as they read T. */
function redactionOfAlice() {
  return {
    count: 2,
    owners: [{ userId: alice.id, name: "Alice" }],
    notice: "2 private memories redacted; visible only to Alice",
  };
}

/** A body as anyone but Alice reads it: each memory's line replaced inside the JSON strings. */
function redactedForOthers(body: string): string {
  return [ALICE_USER_SECRET, ALICE_PERSONA_SECRET].reduce(
    (result, secret) =>
      result.replace(JSON.stringify(`- ${secret}`).slice(1, -1), `- ${placeholder("Alice")}`),
    body,
  );
}

async function readAttempt(user: TestUser, attemptId: string) {
  const response = await call(attemptRoute.GET, `/api/attempts/${attemptId}`, {
    user,
    params: { id: attemptId },
  });
  const raw = await response.text();
  if (response.status !== 200) throw new Error(`attempt read failed: ${response.status} ${raw}`);
  return { raw, attempt: (JSON.parse(raw) as { attempt: AttemptWithRedaction }).attempt };
}

async function replay(user: TestUser, attemptId: string, body: unknown) {
  const response = await call(replayRoute.POST, `/api/attempts/${attemptId}/replay`, {
    user,
    body,
    params: { id: attemptId },
  });
  const raw = await response.text();
  if (response.status !== 200) throw new Error(`replay failed: ${response.status} ${raw}`);
  return { raw, attempt: (JSON.parse(raw) as { attempt: AttemptWithRedaction }).attempt };
}

async function editMemory(user: TestUser, memoryId: string, content: string) {
  const response = await call(memoryRoute.PATCH, `/api/memories/${memoryId}`, {
    user,
    method: "PATCH",
    params: { memoryId },
    body: { content },
  });
  expect(response.status).toBe(200);
}

async function deleteMemory(user: TestUser, memoryId: string) {
  const response = await call(memoryRoute.DELETE, `/api/memories/${memoryId}`, {
    user,
    method: "DELETE",
    params: { memoryId },
  });
  expect(response.status).toBe(204);
}

/** What the Alice does once Bob is in: she edits her user memory and deletes her user × persona one. */
async function editOneDeleteTheOther({
  userMemoryId,
  personaMemoryId,
}: {
  userMemoryId: string;
  personaMemoryId: string;
}) {
  await editMemory(alice, userMemoryId, "Alice-edited: no PIN here");
  await deleteMemory(alice, personaMemoryId);
}

async function storedPrivateMemories(attemptId: string) {
  const db = await getDb();
  const [row] = await db
    .select({ privateMemories: attempts.privateMemories })
    .from(attempts)
    .where(eq(attempts.id, attemptId));
  return row.privateMemories;
}

/**
 * Alice alone with Aria: her user and user × persona memories go into T, whose body the fake provider recorded.
 * Then Bob and Carol join. The provider's log is cleared after.
 */
async function attemptMadeAloneThenShared() {
  const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini", name: "Aria" });
  const db = await getDb();
  // Alice's user memories go into every persona's payload: each test starts from hers alone.
  await db.delete(memories).where(eq(memories.userId, alice.id));
  const [userMemory, personaMemory] = await db
    .insert(memories)
    .values([
      { scope: "user", userId: alice.id, area: "fact", content: ALICE_USER_SECRET },
      {
        scope: "user_persona",
        userId: alice.id,
        personaId: persona.id,
        area: "fact",
        content: ALICE_PERSONA_SECRET,
      },
      { scope: "persona", personaId: persona.id, area: "fact", content: PERSONA_FACT },
    ])
    .returning();
  const conversationId = await createConversation(alice, persona);
  env.providers.script({ kind: "text", text: "Noted, Alice." });
  await runTurn(alice, conversationId, "Hello, it's Alice.");
  expect(env.providers.requests).toHaveLength(1);
  const sentBody = env.providers.requests[0].body;
  expect(sentBody).toContain(JSON.stringify(`- ${ALICE_USER_SECRET}`).slice(1, -1));
  expect(sentBody).toContain(JSON.stringify(`- ${ALICE_PERSONA_SECRET}`).slice(1, -1));
  const { turns } = await fetchTurns(alice, conversationId);
  const sourceId = turns[0].attempts[0].id;
  await join(alice, bob, conversationId);
  await join(alice, carol, conversationId);
  env.providers.reset();
  return {
    conversationId,
    sourceId,
    sentBody,
    assistantMessageId: turns[0].assistantMessageId,
    userMemoryId: userMemory.id,
    personaMemoryId: personaMemory.id,
  };
}

/**
 * The replay resent T's bytes, and every member reads it, answer and stored attempt alike, as they read T: Bob and
 * Carol redacted with T's redaction, Alice the exact bytes.
 */
async function expectReadAsSource({
  replayed,
  conversationId,
  sourceId,
  sentBody,
  replayerIsAlice,
}: {
  replayed: { raw: string; attempt: AttemptWithRedaction };
  conversationId: string;
  sourceId: string;
  sentBody: string;
  replayerIsAlice: boolean;
}) {
  expect(env.providers.requests.map((request) => request.body)).toEqual([sentBody]);
  expect(replayed.attempt).toMatchObject({ kind: "replay", replayOf: sourceId, status: "ok" });
  expect(await storedPrivateMemories(replayed.attempt.id)).toEqual(await storedPrivateMemories(sourceId));

  const answerReader = replayerIsAlice ? alice : bob;
  const others = [bob, carol];
  for (const reader of [alice, ...others]) {
    const source = await readAttempt(reader, sourceId);
    const stored = await readAttempt(reader, replayed.attempt.id);
    const views = reader === answerReader ? [stored, replayed] : [stored];
    for (const view of views) {
      expect(view.attempt.privateMemoryRedaction).toEqual(source.attempt.privateMemoryRedaction);
      expect(view.attempt.items).toEqual(source.attempt.items);
      expect(view.attempt.requests.map((request) => request.body)).toEqual([source.attempt.request?.body]);
    }
  }
  // The exact bytes for Alice; T's redaction for the others, wherever they read the replay.
  const forAlice = await readAttempt(alice, replayed.attempt.id);
  expect(forAlice.attempt.privateMemoryRedaction).toBeNull();
  expect(forAlice.attempt.request?.body).toBe(sentBody);
  for (const reader of others) {
    const stored = await readAttempt(reader, replayed.attempt.id);
    expect(stored.attempt.privateMemoryRedaction).toEqual(redactionOfAlice());
    expect(stored.attempt.request?.body).toBe(redactedForOthers(sentBody));
    const listing = await fetchTurns(reader, conversationId);
    const raws =
      reader === answerReader ? [stored.raw, listing.raw, replayed.raw] : [stored.raw, listing.raw];
    expect(listing.raw).toContain(replayed.attempt.id);
    for (const raw of raws) for (const fragment of SECRET_FRAGMENTS) expect(raw).not.toContain(fragment);
  }
}

describe("a replay of an attempt made before the room", () => {
  test("Alice edits one memory and deletes the other; Bob's replay is redacted as T is, for every member", async () => {
    const shared = await attemptMadeAloneThenShared();
    await editOneDeleteTheOther(shared);
    env.providers.script({ kind: "text", text: "Noted again." });

    const replayed = await replay(bob, shared.sourceId, {});

    expect(replayed.attempt.privateMemoryRedaction).toEqual(redactionOfAlice());
    await expectReadAsSource({ replayed, ...shared, replayerIsAlice: false });
  });

  test("memories unchanged: Bob's replay is redacted as T is", async () => {
    const shared = await attemptMadeAloneThenShared();
    env.providers.script({ kind: "text", text: "Noted again." });

    const replayed = await replay(bob, shared.sourceId, {});

    await expectReadAsSource({ replayed, ...shared, replayerIsAlice: false });
  });

  test("every memory deleted: Bob's replay is redacted as T is", async () => {
    const shared = await attemptMadeAloneThenShared();
    await deleteMemory(alice, shared.userMemoryId);
    await deleteMemory(alice, shared.personaMemoryId);
    env.providers.script({ kind: "text", text: "Noted again." });

    const replayed = await replay(bob, shared.sourceId, {});

    await expectReadAsSource({ replayed, ...shared, replayerIsAlice: false });
  });

  test("replayed by Alice herself: she reads her memories, every other member reads T's redaction", async () => {
    const shared = await attemptMadeAloneThenShared();
    await editOneDeleteTheOther(shared);
    env.providers.script({ kind: "text", text: "Noted again." });

    const replayed = await replay(alice, shared.sourceId, {});

    expect(replayed.attempt.privateMemoryRedaction).toBeNull();
    expect(replayed.attempt.request?.body).toBe(shared.sentBody);
    await expectReadAsSource({ replayed, ...shared, replayerIsAlice: true });
  });

  test("a source recorded before the lists were kept: the replay keeps the list T is read by, later edits change nothing", async () => {
    const shared = await attemptMadeAloneThenShared();
    const recorded = await storedPrivateMemories(shared.sourceId);
    expect(recorded).toEqual([
      { memoryId: shared.userMemoryId, ownerId: alice.id, content: ALICE_USER_SECRET },
      { memoryId: shared.personaMemoryId, ownerId: alice.id, content: ALICE_PERSONA_SECRET },
    ]);
    const db = await getDb();
    await db.update(attempts).set({ privateMemories: null }).where(eq(attempts.id, shared.sourceId));
    env.providers.script({ kind: "text", text: "Noted again." });

    const replayed = await replay(bob, shared.sourceId, {});

    expect(await storedPrivateMemories(replayed.attempt.id)).toEqual(recorded);
    await editOneDeleteTheOther(shared);
    const stored = await readAttempt(bob, replayed.attempt.id);
    expect(stored.attempt.privateMemoryRedaction).toEqual(redactionOfAlice());
    expect(stored.attempt.request?.body).toBe(redactedForOthers(shared.sentBody));
    for (const fragment of SECRET_FRAGMENTS) expect(stored.raw).not.toContain(fragment);
  });

  test("rebuilt by Bob with a what-if prompt: built in the room now, Alice's memories are neither sent nor stored", async () => {
    const shared = await attemptMadeAloneThenShared();
    env.providers.script({ kind: "text", text: "Rebuilt." });

    const replayed = await replay(bob, shared.sourceId, { systemPrompt: "A what-if prompt." });

    expect(env.providers.requests).toHaveLength(1);
    const sent = env.providers.requests[0].body;
    expect(sent).toContain("A what-if prompt.");
    expect(sent).toContain(PERSONA_FACT);
    for (const fragment of SECRET_FRAGMENTS) expect(sent).not.toContain(fragment);
    expect(JSON.stringify(replayed.attempt.trace)).toContain("private-memories-withheld");
    expect(await storedPrivateMemories(replayed.attempt.id)).toEqual([]);
    for (const reader of [alice, bob, carol]) {
      const stored = await readAttempt(reader, replayed.attempt.id);
      expect(stored.attempt.privateMemoryRedaction).toBeNull();
      expect(stored.attempt.request?.body).toBe(sent);
    }
  });
});

describe("a branch of a room", () => {
  test("copies no attempt: Bob's branch has none of T's, and its first payload carries none of Alice's memories", async () => {
    const shared = await attemptMadeAloneThenShared();
    const response = await branch(bob, shared.conversationId, shared.assistantMessageId);
    expect(response.status).toBe(201);
    const { id: branchId } = (await response.json()) as { id: string };

    const before = await fetchTurns(bob, branchId);
    expect(JSON.parse(before.raw)).toMatchObject({ turns: [], otherCalls: [] });

    env.providers.script({ kind: "text", text: "Hello, Bob." });
    await runTurn(bob, branchId, "Hello, it's Bob in my branch.");
    expect(env.providers.requests).toHaveLength(1);
    const sent = env.providers.requests[0].body;
    expect(sent).toContain("Noted, Alice.");
    expect(sent).toContain(PERSONA_FACT);
    for (const fragment of SECRET_FRAGMENTS) expect(sent).not.toContain(fragment);
    const after = await fetchTurns(bob, branchId);
    for (const fragment of SECRET_FRAGMENTS) expect(after.raw).not.toContain(fragment);
  });
});
