// Import trusts nothing in the archive (docs/features.md, "Export and import"): each field is checked as the
// API checks it (the settings override as the conversation's settings route takes it, an attempt's items, trace,
// settings and timings, real ISO times, integers within their Postgres columns, attachments as an upload would be
// recorded), every reference must point inside the archive, and a bad archive is a 400 naming the field with not
// one row stored anywhere (every table counted). A good one imports, reads back through every reader, and
// round-trips. Imported attempts keep the private memories the archive recorded. And a 100 000-message archive,
// the schema's own limit, imports through the route. This file works in a database of its own, so the counts are
// its own.
import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import { insertConversationRows } from "@/db/archive-queries";
import { getDb } from "@/db/client";
import { attempts, memories, messages, type Persona } from "@/db/schema";
import { conversationAttemptViews } from "@/lib/chat/views/attempt-view";
import type { ConversationArchive } from "@/lib/export/conversation-archive";
import { archiveRows } from "@/lib/export/import-conversation";
import { call, expectError, signUp, type TestUser } from "../api-client";
import { exportedConversation, exportOf, importAs } from "../fixtures/archive-routes";
import { makePng } from "../fixtures/attachments";
import { type FakeProviderEnv, startFakeProviderEnv } from "../fixtures/fake-provider-env";
import { insertPersona } from "../fixtures/personas";
import { fetchTurns } from "../fixtures/turns";
import { isolateDatabase } from "./admin-helpers";
import { join } from "./room-helpers";
import { tableRowCounts } from "./row-counts";

isolateDatabase("import_validation");

const ADA_SECRET = "Ada-import-secret: her locker code is 3141";

let env: FakeProviderEnv;
let ada: TestUser;
let bob: TestUser;
let persona: Persona;
let archive: ConversationArchive;

async function imported(user: TestUser, body: unknown): Promise<string> {
  const response = await importAs(user, body);
  if (response.status !== 201) throw new Error(`import failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

beforeAll(async () => {
  env = await startFakeProviderEnv();
  [ada, bob] = await Promise.all([signUp("Ada"), signUp("Bob")]);
  persona = await insertPersona({ modelId: "openai:gpt-4.1-mini", name: "Importer's archivist" });
  const db = await getDb();
  await db.insert(memories).values({ scope: "user", userId: ada.id, area: "fact", content: ADA_SECRET });
  ({ archive } = await exportedConversation(env, ada, persona));
  return async () => env.close();
});

type Mutation = (copy: ConversationArchive) => unknown;

// Each: what is wrong, how the archive is changed, and what the 400's message must contain (the field's path).
const BAD_ARCHIVES: Array<[string, Mutation, string | RegExp]> = [
  // The cases.
  [
    "a settings override whose section is not an object",
    (copy) => {
      copy.conversation.settingsOverride = { history: "x" } as never;
    },
    "conversation.settingsOverride.history",
  ],
  [
    "a fetch limit of 1e9",
    (copy) => {
      copy.conversation.settingsOverride = { history: { messageFetchLimit: 1e9 } };
    },
    "history.messageFetchLimit must be a whole number from 1 to 10000",
  ],
  [
    "a message's time that is not a date",
    (copy) => {
      copy.messages[0].createdAt = "garbage";
    },
    "messages.0.createdAt: must be an ISO time",
  ],
  [
    "a date that does not exist",
    (copy) => {
      copy.messages[1].editedAt = "2026-02-30T10:00:00.000Z";
    },
    "messages.1.editedAt",
  ],
  [
    "an attempt's time that is not a date",
    (copy) => {
      copy.attempts[0].createdAt = "yesterday";
    },
    "attempts.0.createdAt",
  ],
  [
    "an attempt number past int4",
    (copy) => {
      copy.attempts[0].attemptNumber = 2 ** 31;
    },
    "attempts.0.attemptNumber: attemptNumber must be a whole number from 0 to 2147483647",
  ],
  [
    "a step number of 2^40",
    (copy) => {
      copy.attempts[0].stepNumber = 2 ** 40;
    },
    "attempts.0.stepNumber",
  ],
  [
    "an image 2^40 pixels wide",
    (copy) => {
      copy.attachments[0].width = 2 ** 40;
    },
    "attachments.0.width: width must be a whole number from 1 to 2147483647",
  ],
  [
    "attempt items that are not context items",
    (copy) => {
      copy.attempts[0].items = [null, 1, "x", {}] as never;
    },
    "attempts.0.items.0",
  ],
  // More of the same kinds.
  [
    "a settings version past int4",
    (copy) => {
      copy.turns[0].settingsVersion = 2 ** 31;
    },
    "turns.0.settingsVersion",
  ],
  [
    "a seq past the largest safe integer",
    (copy) => {
      copy.messages[copy.messages.length - 1].seq = 2 ** 53;
    },
    "messages.4.seq",
  ],
  [
    "a summary's token count past int4",
    (copy) => {
      copy.summaries = [
        {
          id: "s1",
          content: "Earlier.",
          coversThroughSeq: 0,
          messageCount: 0,
          modelId: null,
          tokensBefore: 2 ** 31,
          tokensAfter: null,
          trigger: "manual",
          supersededBy: null,
          createdAt: archive.exportedAt,
        },
      ];
    },
    "summaries.0.tokensBefore",
  ],
  [
    "a context item with an unknown role",
    (copy) => {
      copy.attempts[0].items[0] = { ...copy.attempts[0].items[0], role: "narrator" } as never;
    },
    "attempts.0.items.0.role",
  ],
  [
    "a context item part of an unknown type",
    (copy) => {
      copy.attempts[0].items[0].parts = [{ type: "hologram" }] as never;
    },
    "attempts.0.items.0.parts.0",
  ],
  [
    "trace events that are not events",
    (copy) => {
      copy.attempts[0].trace = [null] as never;
    },
    "attempts.0.trace.0",
  ],
  [
    "attempt settings with a section that is not an object",
    (copy) => {
      copy.attempts[0].settings = { ...copy.attempts[0].settings, history: 5 } as never;
    },
    "attempts.0.settings.history",
  ],
  [
    "attempt settings out of their range",
    (copy) => {
      copy.attempts[0].settings.budget.safetyMarginPercent = 99;
    },
    "budget.safetyMarginPercent must be a whole number from 0 to 50",
  ],
  [
    "attempt timings without their queue time",
    (copy) => {
      copy.attempts[0].timings = {} as never;
    },
    "attempts.0.timings.queuedAt",
  ],
  [
    "a recorded private memory with no text",
    (copy) => {
      copy.attempts[0].privateMemories = [{ memoryId: "m1", content: "" }];
    },
    "attempts.0.privateMemories.0.content",
  ],
  [
    "a message from an unknown kind of author",
    (copy) => {
      copy.messages[0].authorType = "robot" as never;
    },
    "messages.0.authorType",
  ],
  [
    "a reply to a message that is not there",
    (copy) => {
      copy.messages[1].replyToMessageId = "nowhere";
    },
    "replies to nowhere, which is not in the archive",
  ],
  [
    "a turn whose user message is not there",
    (copy) => {
      copy.turns[0].userMessageId = "nowhere";
    },
    "names message nowhere, which is not in the archive",
  ],
  [
    "a message id used twice",
    (copy) => {
      copy.messages[1].id = copy.messages[0].id;
    },
    /^messages: the id \S+ is used twice/,
  ],
  [
    "a turn id used twice",
    (copy) => {
      copy.turns[1].id = copy.turns[0].id;
    },
    "turns: an id is used twice",
  ],
  [
    "an attachment of no bytes",
    (copy) => {
      copy.attachments[0].sizeBytes = 0;
    },
    "attachments.0.sizeBytes",
  ],
  [
    "an attachment of a negative size",
    (copy) => {
      copy.attachments[0].sizeBytes = -1;
    },
    "attachments.0.sizeBytes",
  ],
  [
    "an attachment of 2^31 bytes",
    (copy) => {
      copy.attachments[0].sizeBytes = 2 ** 31;
    },
    "attachments.0.sizeBytes",
  ],
  [
    "an attachment whose size is not its bytes'",
    (copy) => {
      copy.attachments[0].sizeBytes += 1;
    },
    "the bytes do not match the size and sha256",
  ],
  [
    "an image whose width is not its bytes'",
    (copy) => {
      copy.attachments[0].width = 7;
    },
    "width is 7, but the image's bytes say",
  ],
  [
    "blob bytes that are not base64",
    (copy) => {
      copy.blobs[copy.attachments[0].sha256] = "not base64!";
    },
    /^blobs\.[0-9a-f]{64}: must be base64 bytes/,
  ],
];

describe("a bad archive is a 400 naming the field, and stores nothing", () => {
  test.each(BAD_ARCHIVES)("%s", async (_name, mutate, expected) => {
    const copy = structuredClone(archive);
    mutate(copy);
    const before = await tableRowCounts();
    const message = await expectError(await importAs(ada, copy), 400, "bad_request");
    expect(message).toMatch(expected);
    expect(await tableRowCounts()).toEqual(before);
  });

  test("an attachment over its kind's upload limit", async () => {
    const png = makePng();
    const previous = process.env.MEDIA_MAX_IMAGE_BYTES;
    process.env.MEDIA_MAX_IMAGE_BYTES = String(png.length - 1);
    try {
      const before = await tableRowCounts();
      const message = await expectError(await importAs(ada, archive), 400, "bad_request");
      expect(message).toContain(`sizeBytes ${png.length} is over`);
      expect(message).toContain("the limit for images");
      expect(await tableRowCounts()).toEqual(before);
    } finally {
      if (previous === undefined) delete process.env.MEDIA_MAX_IMAGE_BYTES;
      else process.env.MEDIA_MAX_IMAGE_BYTES = previous;
    }
  });

  test("a statement that fails after others were stored takes them all back", async () => {
    // The last row stored (an attempt) names a turn that does not exist: the conversation, its messages, turns and
    // other rows were inserted before the database refuses it, and the one transaction must undo them.
    const db = await getDb();
    const rows = archiveRows(archive, { ownerId: ada.id, persona, modelId: null });
    rows.attempts[rows.attempts.length - 1].turnId = "00000000-0000-7000-8000-000000000000";
    const before = await tableRowCounts();
    await expect(insertConversationRows({ db, rows })).rejects.toThrow();
    expect(await tableRowCounts()).toEqual(before);
  });
});

describe("a good archive", () => {
  test("imports, and every reader of the imported conversation answers", async () => {
    const id = await imported(ada, archive);
    const { turns } = await fetchTurns(ada, id);
    expect(turns).toHaveLength(2);
    for (const attempt of turns.flatMap((turn) => turn.attempts)) {
      const response = await call(attemptRoute.GET, `/api/attempts/${attempt.id}`, {
        user: ada,
        params: { id: attempt.id },
      });
      expect(response.status).toBe(200);
    }
    expect((await exportOf(ada, id)).status).toBe(200);
    const jsonl = await exportOf(ada, id, "?format=jsonl");
    expect(jsonl.status).toBe(200);
    // Every imported attempt is a line: the two replies and the title call.
    const lines = (await jsonl.text())
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.kind, line.status])).toEqual([
      ["reply", "ok"],
      ["reply", "ok"],
      ["title", "ok"],
    ]);
  });

  test("export → import → export gives the same archive, but for the fresh ids", async () => {
    const again = (await (await exportOf(ada, await imported(ada, archive))).json()) as ConversationArchive;
    // Every id of the first archive, to its counterpart in the second (same order everywhere).
    const idFor = new Map<string, string>();
    const pair = (left: { id: string }[], right: { id: string }[]) => {
      expect(right).toHaveLength(left.length);
      for (const [index, row] of left.entries()) idFor.set(row.id, right[index].id);
    };
    pair(archive.messages, again.messages);
    pair(archive.attachments, again.attachments);
    pair(archive.artifacts, again.artifacts);
    pair(archive.summaries, again.summaries);
    pair(archive.turns, again.turns);
    // Ids inside an attempt's items and trace name the source's rows and are kept as recorded: only the
    // archive's own references are rewritten.
    const rewrite = (value: unknown, key = ""): unknown => {
      if (key === "items" || key === "trace") return value;
      if (typeof value === "string") return idFor.get(value) ?? value;
      if (Array.isArray(value)) return value.map((entry) => rewrite(entry));
      if (value !== null && typeof value === "object")
        return Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, rewrite(entry, name)]));
      return value;
    };
    expect({ ...again, exportedAt: null }).toEqual(rewrite({ ...archive, exportedAt: null }));
    expect(again.attempts[0].privateMemories).toEqual([expect.objectContaining({ content: ADA_SECRET })]);
  });
});

describe("imported attempts are never more visible than their source", () => {
  test("the archive records the exporter's private memories, and no one else's", () => {
    const reply = archive.attempts[0];
    expect(JSON.stringify(reply.items)).toContain(ADA_SECRET);
    expect(reply.privateMemories).toEqual([{ memoryId: expect.any(String), content: ADA_SECRET }]);
  });

  test("kept as recorded: deleting the memory since changes nothing, and a room member reads it redacted", async () => {
    const db = await getDb();
    const copy = structuredClone(archive);
    await db.delete(memories).where(eq(memories.userId, ada.id));
    try {
      const id = await imported(ada, copy);
      const stored = await db.select().from(attempts).where(eq(attempts.conversationId, id));
      expect(stored.find((row) => row.turnId !== null)?.privateMemories).toEqual([
        { memoryId: copy.attempts[0].privateMemories?.[0]?.memoryId, ownerId: ada.id, content: ADA_SECRET },
      ]);
      await join(ada, bob, id);
      expect((await fetchTurns(ada, id)).raw).toContain(ADA_SECRET);
      const { views } = await conversationAttemptViews({ db, conversationId: id, readerId: bob.id });
      expect(JSON.stringify(views)).not.toContain("locker code");
      expect(views.find((view) => view.kind === "reply")?.privateMemoryRedaction?.notice).toBe(
        "1 private memory redacted; visible only to Ada",
      );
    } finally {
      await db.insert(memories).values({ scope: "user", userId: ada.id, area: "fact", content: ADA_SECRET });
    }
  });

  test("an archive from before they were recorded: every memory line of the attempt counts as private", async () => {
    const copy = structuredClone(archive);
    for (const attempt of copy.attempts) delete attempt.privateMemories;
    // Bob imports: Ada's text is in the archive he holds, but no one he invites reads it in the app.
    const id = await imported(bob, copy);
    const db = await getDb();
    const stored = await db.select().from(attempts).where(eq(attempts.conversationId, id));
    expect(stored.find((row) => row.turnId !== null)?.privateMemories).toEqual([
      { memoryId: "unrecorded-0", ownerId: bob.id, content: ADA_SECRET },
    ]);
    await join(bob, ada, id);
    const { views } = await conversationAttemptViews({ db, conversationId: id, readerId: ada.id });
    expect(JSON.stringify(views)).not.toContain("locker code");
  });
});

/** An archive of `total` short messages, user and persona by turns, built as export writes one. */
function largeArchive(total: number): ConversationArchive {
  const start = Date.parse("2026-01-01T00:00:00.000Z");
  return {
    ...structuredClone(archive),
    conversation: { ...archive.conversation, title: "A long one" },
    messages: Array.from({ length: total }, (_, index) => ({
      id: `m${index}`,
      seq: index + 1,
      authorType: index % 2 === 0 ? "user" : "persona",
      authorName: index % 2 === 0 ? "Ada" : persona.name,
      byOwner: index % 2 === 0,
      parts: [{ type: "text", text: `Message ${index}.` }],
      replyToMessageId: index % 2 === 0 ? null : `m${index - 1}`,
      status: "complete",
      chosen: true,
      editedAt: null,
      summarizedBy: null,
      createdAt: new Date(start + index * 1000).toISOString(),
      versions: [],
    })),
    attachments: [],
    blobs: {},
    artifacts: [],
    summaries: [],
    turns: [],
    attempts: [],
  };
}

/** How many JSON values `value` holds, itself included (objects, arrays, strings, numbers, booleans, nulls). */
function jsonValues(value: unknown): number {
  let total = 0;
  const pending = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    total += 1;
    if (next !== null && typeof next === "object") pending.push(...Object.values(next));
  }
  return total;
}

describe("a large archive", () => {
  test("100 000 messages, the schema's limit, import through the route and read back", async () => {
    const large = largeArchive(100_000);
    const body = JSON.stringify(large);
    const started = performance.now();
    const response = await importAs(ada, body);
    const importMs = performance.now() - started;
    expect(response.status, await response.clone().text()).toBe(201);
    const { id } = (await response.json()) as { id: string };
    const db = await getDb();
    const [stored] = await db.select({ n: count() }).from(messages).where(eq(messages.conversationId, id));
    expect(stored.n).toBe(100_000);
    const exported = (await (await exportOf(ada, id)).json()) as ConversationArchive;
    expect(exported.messages.map((message) => message.parts)).toEqual(
      large.messages.map((message) => message.parts),
    );
    expect(exported.messages.at(-1)?.replyToMessageId).toBe(exported.messages.at(-2)?.id);
    // What the body reader must let through for the schema's own limit (lib/api/route.ts readJson's caps).
    console.info(
      `100k-message import: ${Math.round(importMs)} ms for ${body.length} bytes of JSON, ${jsonValues(large)} values`,
    );
  }, 600_000);
});
