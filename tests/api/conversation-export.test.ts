// Export and import: a conversation leaves as one archive (messages, media bytes, turns and attempts with their
// exact bodies) and comes back as a new conversation whose next request body equals the original's, in the same
// database and in a fresh one. A bad archive is refused whole with a 400 that names the problem; nothing is
// stored. Attempts also leave as JSONL in OpenAI's chat format.
import { createHash } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { conversations, type Persona, participants } from "@/db/schema";
import type { ConversationArchive } from "@/lib/export/conversation-archive";
import { expectError, signUp, type TestUser } from "../api-client";
import { createFreshDatabase, dropDatabase } from "../database";
import { exportedConversation, exportOf, importAs } from "../fixtures/archive-routes";
import { makePng } from "../fixtures/attachments";
import { type FakeProviderEnv, startFakeProviderEnv } from "../fixtures/fake-provider-env";
import { insertPersona } from "../fixtures/personas";
import { fetchTurns, runTurn, storedMessages, withoutPromptCacheKey } from "../fixtures/turns";
import { conversationRows } from "./row-counts";

const PERSONA = {
  modelId: "openai:gpt-4.1-mini",
  name: `Archivist ${Date.now()}`,
  systemPrompt: "You keep records. Answer in one line.",
};

let env: FakeProviderEnv;
let ada: TestUser;
let bob: TestUser;
let persona: Persona;
let conversationId: string;
let archive: ConversationArchive;

async function conversationCount(ownerId: string): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(conversations).where(eq(conversations.ownerId, ownerId));
  return row.n;
}

/** The body the fake provider received for the next turn of `id`, but for its prompt_cache_key (the conversation's). */
async function nextTurnBody(user: TestUser, id: string): Promise<string> {
  env.providers.clearRequests();
  env.providers.script({ kind: "text", text: "Noted." });
  await runTurn(user, id, "What did I show you?");
  expect(env.providers.requests).toHaveLength(1);
  return withoutPromptCacheKey(env.providers.requests[0].body);
}

beforeAll(async () => {
  env = await startFakeProviderEnv();
  [ada, bob] = await Promise.all([signUp("Ada"), signUp("Bob")]);
  persona = await insertPersona(PERSONA);
  ({ conversationId, archive } = await exportedConversation(env, ada, persona));
});

afterAll(async () => {
  await env.close();
});

describe("export", () => {
  test("the archive holds every message, the image's bytes once, the turns and their exact bodies", async () => {
    const response = await exportOf(ada, conversationId);
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="glassbox-${conversationId}.json"`,
    );
    expect(archive.format).toBe("glassbox.conversation");
    expect(archive.persona).toEqual({ id: persona.id, name: PERSONA.name, modelId: PERSONA.modelId });
    // No model chosen for the conversation: the persona's answers.
    expect(archive.conversation.modelId).toBeNull();
    expect(archive.messages.map((message) => [message.authorType, message.byOwner])).toEqual([
      ["user", true],
      ["persona", false],
      ["user", true],
      ["user", true],
      ["persona", false],
    ]);
    expect(archive.attachments).toHaveLength(1);
    const [attachment] = archive.attachments;
    expect(archive.blobs[attachment.sha256]).toBe(makePng().toString("base64"));
    expect(archive.turns).toHaveLength(2);
    // The title the offline model wrote after the first exchange is a model call too.
    expect(
      archive.attempts.map((attempt) => [attempt.kind, attempt.status, attempt.turnId !== null]),
    ).toEqual([
      ["reply", "ok", true],
      ["reply", "ok", true],
      ["title", "ok", false],
    ]);
    // Bodies travel with their media elided: the bytes are in `blobs`, once.
    const imageBody = archive.attempts[1].requests[0].body;
    expect(imageBody).toContain(`[elided-media sha256=${attachment.sha256}`);
    expect(imageBody).not.toContain(makePng().toString("base64"));
  });

  test("only readers export: a stranger gets 404, and an unknown format is a 400", async () => {
    await expectError(await exportOf(bob, conversationId), 404, "not_found");
    const message = await expectError(await exportOf(ada, conversationId, "?format=xml"), 400, "bad_request");
    expect(message).toContain("format must be json or jsonl");
  });

  test("JSONL: one OpenAI chat example per attempt with its kind and status, images as data URLs", async () => {
    const response = await exportOf(ada, conversationId, "?format=jsonl");
    expect(response.headers.get("content-type")).toContain("application/jsonl");
    const lines = (await response.text()).trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    const first = JSON.parse(lines[0]);
    expect(first).toEqual({
      messages: [
        { role: "system", content: expect.stringContaining(PERSONA.systemPrompt) },
        { role: "user", content: "Remember Lisbon." },
        { role: "assistant", content: "Filed under L." },
      ],
      kind: "reply",
      status: "ok",
      modelId: PERSONA.modelId,
      error: null,
    });
    // The title call is a line too, its messages read from the body it sent.
    expect(JSON.parse(lines[2])).toMatchObject({ kind: "title", status: "ok", modelId: "offline:echo" });
    const second = JSON.parse(lines[1]);
    expect(second.messages.at(-1)).toEqual({ role: "assistant", content: "A small square." });
    const imageParts = second.messages.flatMap((message: { content: unknown }) =>
      Array.isArray(message.content) ? message.content.filter((part) => part.type === "image_url") : [],
    );
    expect(imageParts).toEqual([
      { type: "image_url", image_url: { url: `data:image/png;base64,${makePng().toString("base64")}` } },
    ]);
  });
});

describe("import into the same database", () => {
  test("a new conversation with the same messages and attempts, and the same next request body", async () => {
    const response = await importAs(ada, archive);
    expect(response.status).toBe(201);
    const imported = (await response.json()) as { id: string; title: string; notices: string[] };
    expect(imported.id).not.toBe(conversationId);
    expect(imported.notices).toEqual([]);

    const texts = async (id: string) =>
      (await storedMessages(id)).map((message) => ({
        author: `${message.authorType}:${message.authorName}`,
        seq: message.seq,
        parts: message.parts.map((part) => (part.type === "text" ? part.text : part.type)),
        status: message.status,
      }));
    expect(await texts(imported.id)).toEqual(await texts(conversationId));
    const bodies = async (id: string) =>
      (await fetchTurns(ada, id)).turns.flatMap((turn) =>
        turn.attempts.map((attempt) => attempt.request?.body),
      );
    // The media come back from the imported attachments: the inspector shows the very bytes that were sent.
    expect(await bodies(imported.id)).toEqual(await bodies(conversationId));

    const original = await nextTurnBody(ada, conversationId);
    expect(await nextTurnBody(ada, imported.id)).toBe(original);
  });

  test("someone else imports it: their own conversation, the other author's messages keep the name", async () => {
    const response = await importAs(bob, archive);
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    const messages = await storedMessages(id);
    expect(messages.filter((message) => message.authorType === "user").map((m) => m.authorUserId)).toEqual([
      bob.id,
      bob.id,
      bob.id,
    ]);
    // The imported conversation is the importer's, who is its first member, as in any conversation they start.
    expect((await conversationRows(participants, id)).map(({ userId, role }) => [userId, role])).toEqual([
      [bob.id, "owner"],
    ]);
    await expectError(await exportOf(ada, id), 404, "not_found");
  });
});

describe("a bad archive is refused whole", () => {
  const broken: Array<[string, (copy: ConversationArchive) => unknown, string]> = [
    ["another format", (copy) => ({ ...copy, format: "chatgpt" }), 'format must be "glassbox.conversation"'],
    ["a newer version", (copy) => ({ ...copy, version: 2 }), "version must be 1"],
    [
      "a reply to a message that is not there",
      (copy) => {
        copy.messages[1].replyToMessageId = "not-in-the-archive";
        return copy;
      },
      "replies to not-in-the-archive",
    ],
    [
      "an image shown by a message it does not belong to",
      (copy) => {
        copy.messages[0].parts.push({ type: "media", attachmentId: copy.attachments[0].id });
        return copy;
      },
      "which is not an attachment of that message",
    ],
    [
      "bytes that do not match their sha256",
      (copy) => {
        copy.blobs[copy.attachments[0].sha256] = Buffer.from("not the picture").toString("base64");
        return copy;
      },
      "the bytes do not match",
    ],
    [
      "an image that is a PNG signature followed by HTML",
      (copy) => {
        const bytes = Buffer.concat([makePng().subarray(0, 8), Buffer.from("<html>hi</html>")]);
        const sha256 = createHash("sha256").update(bytes).digest("hex");
        copy.attachments[0] = { ...copy.attachments[0], sha256, sizeBytes: bytes.length };
        copy.blobs = { [sha256]: bytes.toString("base64") };
        return copy;
      },
      "PNG",
    ],
    [
      "an HTML page claiming to be a PDF document",
      (copy) => {
        const bytes = Buffer.from("<!doctype html><script>alert(1)</script>");
        const sha256 = createHash("sha256").update(bytes).digest("hex");
        copy.attachments[0] = {
          ...copy.attachments[0],
          kind: "file",
          mime: "application/pdf",
          sha256,
          sizeBytes: bytes.length,
        };
        copy.blobs = { [sha256]: bytes.toString("base64") };
        return copy;
      },
      "is not a valid application/pdf document",
    ],
    [
      "an attempt of a turn that is not there",
      (copy) => {
        copy.attempts[0].turnId = "missing-turn";
        return copy;
      },
      "belongs to turn missing-turn",
    ],
    ["seqs out of order", (copy) => ({ ...copy, messages: [...copy.messages].reverse() }), "is not after"],
  ];

  test.each(broken)("%s: 400 naming it, nothing stored", async (_name, breakIt, expected) => {
    const before = await conversationCount(ada.id);
    const body = breakIt(structuredClone(archive));
    const message = await expectError(await importAs(ada, body), 400, "bad_request");
    expect(message).toContain(expected);
    expect(await conversationCount(ada.id)).toBe(before);
  });

  test("a persona this app lacks: the default persona answers, and the importer is told", async () => {
    const copy = structuredClone(archive);
    copy.persona = { id: "00000000-0000-7000-8000-00000000abcd", name: "Nobody here", modelId: "x" };
    copy.conversation.modelId = "openai:gpt-9-imaginary";
    const response = await importAs(ada, copy);
    expect(response.status).toBe(201);
    const { notices } = (await response.json()) as { notices: string[] };
    expect(notices).toEqual([
      expect.stringContaining('no persona "Nobody here"'),
      "This app has no model openai:gpt-9-imaginary: the persona's model answers instead.",
    ]);
  });
});

const baseUrl = process.env.GLASSBOX_BASE_DATABASE_URL;
type Globals = { glassboxDatabase?: { close(): Promise<void> }; glassboxAuth?: unknown };

describe.skipIf(!baseUrl)("import into a fresh database", () => {
  test("the persona is matched by name and the next request body equals the original's", async () => {
    const exported = (await (await exportOf(ada, conversationId)).json()) as ConversationArchive;
    const original = await nextTurnBody(ada, conversationId);

    const previousUrl = process.env.DATABASE_URL;
    const fresh = await createFreshDatabase(baseUrl as string, "import");
    const globals = globalThis as Globals;
    const switchDatabase = async (url: string | undefined) => {
      await globals.glassboxDatabase?.close();
      globals.glassboxDatabase = undefined;
      globals.glassboxAuth = undefined;
      process.env.DATABASE_URL = url;
    };
    try {
      await switchDatabase(fresh.url);
      const adaThere = await signUp("Ada");
      await insertPersona(PERSONA);
      const response = await importAs(adaThere, exported);
      expect(response.status).toBe(201);
      const { id, notices } = (await response.json()) as { id: string; notices: string[] };
      expect(notices).toEqual([]);
      expect(await nextTurnBody(adaThere, id)).toBe(original);
    } finally {
      await switchDatabase(previousUrl);
      await dropDatabase(baseUrl as string, fresh.name);
    }
  });
});
