import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import * as blocksRoute from "@/app/api/admin/blocks/route";
import * as chatRoute from "@/app/api/chat/route";
import * as turnsRoute from "@/app/api/conversations/[id]/turns/route";
import { getDb } from "@/db/client";
import { listMessages } from "@/db/message-queries";
import { conversations, type Persona, participants, personaUserBlocks } from "@/db/schema";
import { call, expectError, readUIStream, signUp, type TestUser } from "../api-client";
import { createConversation } from "../fixtures/personas";
import { storePersonaReply, storeUserMessage } from "../fixtures/turns";
import { createAdminPersona, isolateDatabase, signUpAdmin } from "./admin-helpers";
import { itemText, type PreviewItem, preview } from "./preview-helpers";

isolateDatabase("admin_blocks");

let admin: TestUser;
let ada: TestUser;
let bob: TestUser;
let keeper: Persona;

interface BlockRow {
  id: string;
  personaId: string;
  userId: string;
  blockType: string;
  reason: string | null;
  expiresAt: string | null;
  setBy: string;
  personaName: string;
  userName: string;
  active: boolean;
}

beforeAll(async () => {
  admin = await signUpAdmin("Block Admin");
  ada = await signUp("Ada");
  bob = await signUp("Bob");
  // A persona of this file's own, so its blocks touch nothing else.
  keeper = await createAdminPersona(admin, {
    name: "Keeper",
    modelId: "offline:echo",
    systemPrompt: "You keep the lighthouse.",
  });
});

function setBlock(body: Record<string, unknown>) {
  return call(blocksRoute.POST, "/api/admin/blocks", {
    user: admin,
    body: { personaId: keeper.id, userId: bob.id, ...body },
  });
}

function liftBlock(query: string) {
  return call(blocksRoute.DELETE, `/api/admin/blocks?${query}`, { user: admin, method: "DELETE" });
}

async function listBlocks(): Promise<BlockRow[]> {
  const response = await call(blocksRoute.GET, "/api/admin/blocks", { user: admin });
  return ((await response.json()) as { blocks: BlockRow[] }).blocks;
}

function chatBody(conversationId: string, text: string) {
  return {
    id: conversationId,
    message: { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text }] },
    trigger: "submit-message",
  };
}

/** A room on Keeper owned by Ada with Bob as a member (added directly: invitations are another issue's work). */
async function createRoom(): Promise<string> {
  const conversationId = await createConversation(ada, keeper);
  const db = await getDb();
  await db.update(conversations).set({ visibility: "room" }).where(eq(conversations.id, conversationId));
  await db.insert(participants).values({ conversationId, userId: bob.id, role: "member" });
  return conversationId;
}

async function say(conversationId: string, author: TestUser | "keeper", text: string) {
  if (author === "keeper") await storePersonaReply(keeper, conversationId, text);
  else await storeUserMessage(author, conversationId, text);
}

describe("blocks API", () => {
  test("set (with a duration), list, replace (one row per persona × user) and lift", async () => {
    const before = Date.now();
    const set = await setBlock({ blockType: "block", reason: "spam", durationMinutes: 90 });
    expect(set.status).toBe(201);
    let blocks = await listBlocks();
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toMatchObject({
      personaName: "Keeper",
      userName: "Bob",
      blockType: "block",
      reason: "spam",
      setBy: admin.id,
      active: true,
    });
    const expiresAt = Date.parse(blocks[0].expiresAt as string);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 90 * 60_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 90 * 60_000);

    const replaced = await setBlock({ blockType: "mute", reason: "", durationMinutes: null });
    expect(replaced.status).toBe(201);
    blocks = await listBlocks();
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toMatchObject({ blockType: "mute", reason: null, expiresAt: null, active: true });

    expect((await liftBlock(`personaId=${keeper.id}&userId=${bob.id}`)).status).toBe(204);
    expect(await listBlocks()).toEqual([]);
    await expectError(await liftBlock(`personaId=${keeper.id}&userId=${bob.id}`), 404, "not_found");

    await setBlock({ blockType: "block", durationMinutes: 5 });
    const [row] = await listBlocks();
    expect((await liftBlock(`id=${row.id}`)).status).toBe(204);
    expect(await listBlocks()).toEqual([]);
  });

  const bad: Array<{ name: string; body: Record<string, unknown>; message: RegExp }> = [
    {
      name: "a bad block type",
      body: { blockType: "ban", durationMinutes: null },
      message: /blockType must be one of: mute, block/,
    },
    {
      name: "no duration",
      body: { blockType: "mute" },
      message: /durationMinutes must be a whole number from 1 to 5256000, or null for permanent/,
    },
    {
      name: "a zero duration",
      body: { blockType: "mute", durationMinutes: 0 },
      message: /durationMinutes must be a whole number from 1/,
    },
    {
      name: "a fractional duration",
      body: { blockType: "mute", durationMinutes: 1.5 },
      message: /durationMinutes must be a whole number/,
    },
    {
      name: "an unknown persona",
      body: { blockType: "mute", durationMinutes: null, personaId: "0190aaaa-0000-7000-8000-000000000000" },
      message: /^personaId: no persona with id 0190aaaa/,
    },
    {
      name: "an unknown user",
      body: { blockType: "mute", durationMinutes: null, userId: "nobody" },
      message: /^userId: no user with id nobody$/,
    },
    {
      name: "a reason over 500 characters",
      body: { blockType: "mute", durationMinutes: null, reason: "r".repeat(501) },
      message: /reason must be at most 500 characters/,
    },
  ];

  test.each(bad)("setting a block with $name is a 400 and stores nothing", async ({ body, message }) => {
    expect(await expectError(await setBlock(body), 400, "bad_request")).toMatch(message);
    expect(await listBlocks()).toEqual([]);
  });

  test("lifting needs an id or a persona and a user", async () => {
    expect(await expectError(await liftBlock(""), 400, "bad_request")).toMatch(/Say which block to lift/);
    expect(await expectError(await liftBlock("id=nope"), 400, "bad_request")).toBe("id must be a UUID");
    await expectError(await liftBlock("id=0190aaaa-0000-7000-8000-000000000000"), 404, "not_found");
  });
});

describe("the chat honours blocks end to end", () => {
  test("a muted user gets 403 muted naming the persona, and nothing is stored; others still chat; lifting restores it", async () => {
    const room = await createRoom();
    await setBlock({ blockType: "mute", reason: "Shouting", durationMinutes: 30 });
    const refused = await call(chatRoute.POST, "/api/chat", {
      user: bob,
      body: chatBody(room, "Hello Keeper?"),
    });
    const message = await expectError(refused, 403, "muted");
    expect(message).toMatch(
      /^Keeper has muted you until \d{4}-\d\d-\d\dT[\d:.]+Z, so it will not reply to you\. Reason: Shouting$/,
    );
    expect(await listMessages({ db: await getDb(), conversationId: room })).toEqual([]);

    const adaTurn = await call(chatRoute.POST, "/api/chat", {
      user: ada,
      body: chatBody(room, "Hello from Ada"),
    });
    expect(adaTurn.status).toBe(200);
    await readUIStream(adaTurn);

    // A mute hides nothing: Bob's earlier words stay in the payload.
    await say(room, bob, "I was here before the mute.");
    const items = (await preview(ada, room, "next")).items;
    expect(items.map(itemText)).toContain("Bob: I was here before the mute.");
    expect(items.find((item) => item.tag === "PERSONA_USER_BLOCKS")).toBeDefined();

    await liftBlock(`personaId=${keeper.id}&userId=${bob.id}`);
    const allowed = await call(chatRoute.POST, "/api/chat", {
      user: bob,
      body: chatBody(room, "Back again"),
    });
    expect(allowed.status).toBe(200);
    await readUIStream(allowed);
  });

  test("a blocked user's messages become one [System: …] notice per run in the next payload, with the blocks card", async () => {
    const room = await createRoom();
    await say(room, ada, "Good evening, Keeper.");
    await say(room, "keeper", "Good evening.");
    await say(room, bob, "Secret one");
    await say(room, bob, "Secret two");
    await say(room, ada, "Is the lamp lit?");
    await setBlock({ blockType: "block", reason: "Harassment", durationMinutes: null });

    const { items, request } = await preview(ada, room, "Anything new?");
    const shape = items.map((item) => `${item.tag}/${item.role}: ${itemText(item)}`);
    expect(
      shape.filter((line) => !line.startsWith("SYSTEM_PROMPT") && !line.startsWith("PERSONA_USER_BLOCKS")),
    ).toEqual([
      "DIALOGUE_HISTORY/user: Ada: Good evening, Keeper.",
      "DIALOGUE_HISTORY/assistant: Keeper: Good evening.",
      "DIALOGUE_HISTORY/user: [System: 2 messages from Bob hidden here: Bob is blocked from Keeper.]",
      "DIALOGUE_HISTORY/user: Ada: Is the lamp lit?",
      "CURRENT_INPUT/user: Ada: Anything new?",
    ]);
    const card = itemText(items.find((item) => item.tag === "PERSONA_USER_BLOCKS") as PreviewItem);
    expect(card).toContain(`- Bob (${bob.id}): block — cannot trigger Keeper`);
    expect(card).toContain("Expires: never. Reason: Harassment.");
    expect(request.body).not.toContain("Secret one");
    expect(request.body).not.toContain("Secret two");

    // The real turn sends the same thing.
    await readUIStream(
      await call(chatRoute.POST, "/api/chat", { user: ada, body: chatBody(room, "Anything new?") }),
    );
    const turns = await call(turnsRoute.GET, "/x", { user: ada, params: { id: room } });
    const { turns: list } = (await turns.json()) as {
      turns: Array<{ attempts: Array<{ items: PreviewItem[]; request: { body: string } }> }>;
    };
    const attempt = list.at(-1)?.attempts[0];
    expect(attempt?.items.map(itemText)).toContain(
      "[System: 2 messages from Bob hidden here: Bob is blocked from Keeper.]",
    );
    expect(attempt?.request.body).not.toContain("Secret");

    // A block includes a mute: Bob cannot trigger Keeper either, and his words are not stored or sent.
    const refused = await call(chatRoute.POST, "/api/chat", { user: bob, body: chatBody(room, "Let me in") });
    expect(await expectError(refused, 403, "muted")).toBe(
      "Keeper has blocked you, so it will not reply to you. Reason: Harassment",
    );
    expect((await listMessages({ db: await getDb(), conversationId: room })).map(itemText)).not.toContain(
      "Let me in",
    );

    await liftBlock(`personaId=${keeper.id}&userId=${bob.id}`);
  });

  test("an expired block no longer applies and is listed as inactive", async () => {
    const room = await createRoom();
    await say(room, bob, "Visible again");
    await setBlock({ blockType: "block", durationMinutes: 1 });
    expect((await preview(ada, room, "x")).items.map(itemText)).toContain(
      "[System: 1 message from Bob hidden here: Bob is blocked from Keeper.]",
    );
    const db = await getDb();
    await db
      .update(personaUserBlocks)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(personaUserBlocks.userId, bob.id));
    const items = (await preview(ada, room, "x")).items;
    expect(items.map(itemText)).toContain("Bob: Visible again");
    expect(items.some((item) => item.tag === "PERSONA_USER_BLOCKS")).toBe(false);
    expect((await listBlocks())[0]).toMatchObject({ userName: "Bob", active: false });
    await liftBlock(`personaId=${keeper.id}&userId=${bob.id}`);
  });
});
