// GET /api/search: full-text search over the titles and message text of the conversations a user may read, with
// highlighted snippets as segments (never HTML), a literal substring fallback for queries that are not words,
// and 400s for bad input. Other people's conversations, and rooms the user was only invited to, are never found.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import * as searchRoute from "@/app/api/search/route";
import { getDb } from "@/db/client";
import { appendMessage } from "@/db/message-insert-queries";
import { queryRows } from "@/db/raw-sql";
import { conversations, participants } from "@/db/schema";
import { headlineSegments, substringSegments } from "@/db/search-queries";
import { call, expectError, signUp, type TestUser } from "../api-client";
import { createConversation } from "../fixtures/personas";

interface SearchBody {
  query: string;
  mode: "words" | "substring";
  conversations: Array<{
    id: string;
    title: string;
    titleMatch: boolean;
    hits: Array<{
      messageId: string;
      authorName: string;
      authorType: string;
      snippet: Array<{ text: string; highlight: boolean }>;
    }>;
  }>;
}

let ada: TestUser;
let bob: TestUser;
/** Ada's conversation with an old message about quokkas among others. */
let wildlife: string;
let quokkaMessageId: string;
/** A word no other test file writes, so results are this file's own. */
const WORD = `zorblax${Date.now().toString(36)}`;

async function search(user: TestUser | null, query: string): Promise<Response> {
  return call(searchRoute.GET, `/api/search?q=${encodeURIComponent(query)}`, { user });
}

async function found(user: TestUser, query: string): Promise<SearchBody> {
  const response = await search(user, query);
  if (response.status !== 200) throw new Error(`search failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as SearchBody;
}

async function addMessage(conversationId: string, text: string, author: "user" | "persona" = "user") {
  return appendMessage({
    db: await getDb(),
    message: {
      conversationId,
      authorType: author,
      authorName: author === "user" ? "Ada" : "Guide",
      authorUserId: author === "user" ? ada.id : null,
      parts: [{ type: "text", text }],
      status: "complete",
    },
  });
}

async function setTitle(conversationId: string, title: string) {
  const db = await getDb();
  await db.update(conversations).set({ title }).where(eq(conversations.id, conversationId));
}

const highlighted = (snippet: Array<{ text: string; highlight: boolean }>) =>
  snippet.filter((segment) => segment.highlight).map((segment) => segment.text);
const plain = (snippet: Array<{ text: string }>) => snippet.map((segment) => segment.text).join("");

beforeAll(async () => {
  ada = await signUp("Ada");
  bob = await signUp("Bob");
  wildlife = await createConversation(ada);
  await setTitle(wildlife, `Australian wildlife ${WORD}`);
  const old = await addMessage(
    wildlife,
    "On Rottnest Island the quokkas were everywhere, smiling at every tourist who came near.",
  );
  quokkaMessageId = old.id;
  for (let index = 0; index < 6; index++) {
    await addMessage(wildlife, `Later question number ${index} about kangaroos.`);
    await addMessage(wildlife, `An answer about kangaroos, number ${index}.`, "persona");
  }
});

describe("content hits", () => {
  test("a word inside an old message is found, with the message id and a highlighted snippet", async () => {
    const body = await found(ada, "quokka");
    expect(body.mode).toBe("words");
    const result = body.conversations.find((conversation) => conversation.id === wildlife);
    expect(result).toBeDefined();
    expect(result?.titleMatch).toBe(false);
    expect(result?.hits).toHaveLength(1);
    const [hit] = result?.hits ?? [];
    expect(hit.messageId).toBe(quokkaMessageId);
    expect(hit.authorName).toBe("Ada");
    expect(highlighted(hit.snippet)).toEqual(["quokkas"]);
    expect(plain(hit.snippet)).toContain("Rottnest Island the quokkas were everywhere");
  });

  test("words are stemmed and prefixes match, so search works as one types", async () => {
    for (const query of ["quokkas smiling", "QUOK", "smile", "rottnest isl"]) {
      const body = await found(ada, query);
      const hits = body.conversations.find((conversation) => conversation.id === wildlife)?.hits ?? [];
      expect(
        hits.map((hit) => hit.messageId),
        query,
      ).toEqual([quokkaMessageId]);
    }
  });

  test("at most three hits per conversation, from user and persona messages", async () => {
    const body = await found(ada, "kangaroos");
    const hits = body.conversations.find((conversation) => conversation.id === wildlife)?.hits ?? [];
    expect(hits).toHaveLength(3);
    for (const hit of hits) expect(highlighted(hit.snippet)).toEqual(["kangaroos"]);
  });

  test("markup in a message comes back as text in the segments, never as a highlight", async () => {
    const id = await createConversation(ada);
    await addMessage(id, `<img src=x onerror=alert(1)> ${WORD}markup \u0001sneaky\u0002 <b>bold</b>`);
    const body = await found(ada, `${WORD}markup`);
    const [hit] = body.conversations.find((conversation) => conversation.id === id)?.hits ?? [];
    expect(highlighted(hit.snippet)).toEqual([`${WORD}markup`]);
    expect(plain(hit.snippet)).toContain("sneaky");
    // Tags are text like any other: shown as typed, not dropped.
    expect(plain(hit.snippet)).toContain("onerror=alert(1)>");
    expect(plain(hit.snippet)).toContain("<b>bold");
    expect(plain(hit.snippet).includes("\u0001") || plain(hit.snippet).includes("\u0002")).toBe(false);
  });
});

describe("title hits", () => {
  test("a title word finds the conversation with no message hits needed", async () => {
    const body = await found(ada, WORD);
    const result = body.conversations.find((conversation) => conversation.id === wildlife);
    expect(result).toMatchObject({ titleMatch: true, title: `Australian wildlife ${WORD}` });
  });

  test("short and non-word queries fall back to a literal substring match over titles and messages", async () => {
    const id = await createConversation(ada);
    await setTitle(id, `C# notes ${WORD}`);
    await addMessage(id, `I write C# and F# every day (${WORD}).`);
    const body = await found(ada, "C#");
    expect(body.mode).toBe("substring");
    const result = body.conversations.find((conversation) => conversation.id === id);
    expect(result?.titleMatch).toBe(true);
    expect(result?.hits.map((hit) => highlighted(hit.snippet))).toEqual([["C#"]]);

    const twoLetters = await found(ada, "Au");
    expect(twoLetters.mode).toBe("substring");
    expect(twoLetters.conversations.find((conversation) => conversation.id === wildlife)?.titleMatch).toBe(
      true,
    );

    // Only stop words make an empty full-text query: the letters are searched instead.
    const stopWords = await found(ada, "the");
    expect(stopWords.mode).toBe("substring");
    const wildlifeHits = stopWords.conversations.find((conversation) => conversation.id === wildlife)?.hits;
    expect(wildlifeHits?.map((hit) => hit.messageId)).toContain(quokkaMessageId);
  });

  test("LIKE wildcards in a query match only themselves", async () => {
    const id = await createConversation(ada);
    await setTitle(id, `100% sure ${WORD}`);
    const body = await found(ada, "%");
    expect(body.conversations.map((conversation) => conversation.id)).toContain(id);
    expect(body.conversations.map((conversation) => conversation.id)).not.toContain(wildlife);
  });
});

describe("who may find what", () => {
  test("another user's conversation is never found, by content or title", async () => {
    for (const query of ["quokka", WORD, "Rottnest", "Au"]) {
      const body = await found(bob, query);
      expect(
        body.conversations.map((conversation) => conversation.id),
        query,
      ).not.toContain(wildlife);
    }
  });

  test("an invitation not yet accepted finds nothing; once a member, the room is found", async () => {
    const db = await getDb();
    await db.insert(participants).values({ conversationId: wildlife, userId: bob.id, role: "invited" });
    expect((await found(bob, "quokka")).conversations.map((conversation) => conversation.id)).not.toContain(
      wildlife,
    );
    expect((await found(bob, "Au")).conversations.map((conversation) => conversation.id)).not.toContain(
      wildlife,
    );
    await db.update(participants).set({ role: "member" }).where(eq(participants.userId, bob.id));
    const asMember = await found(bob, "quokka");
    expect(
      asMember.conversations.find((conversation) => conversation.id === wildlife)?.hits[0].messageId,
    ).toBe(quokkaMessageId);
    await db.delete(participants).where(eq(participants.userId, bob.id));
    expect((await found(bob, "quokka")).conversations.map((conversation) => conversation.id)).not.toContain(
      wildlife,
    );
  });
});

describe("bad input", () => {
  test.each([
    {
      name: "a NUL character",
      path: "/api/search?q=a%00b",
      message: "The address must not contain NUL (%00) characters.",
    },
    {
      name: "201 characters",
      path: `/api/search?q=${"x".repeat(201)}`,
      message: "q must be at most 200 characters",
    },
    { name: "no q", path: "/api/search", message: "q is required: the text to search for" },
    { name: "only spaces", path: "/api/search?q=%20%20", message: "q must not be empty" },
  ])("$name is a 400 naming the problem", async ({ path, message }) => {
    const response = await call(searchRoute.GET, path, { user: ada });
    expect(await expectError(response, 400, "bad_request")).toBe(message);
  });

  test("no session is a 401", async () => {
    await expectError(await search(null, "quokka"), 401, "unauthorized");
  });
});

describe("the indexes", () => {
  test("message and title searches can use the GIN indexes", async () => {
    const db = await getDb();
    const plans = await db.transaction(async (tx) => {
      await queryRows(tx, sql`set local enable_seqscan = off`);
      const messagePlan = await queryRows(
        tx,
        sql`explain select id from messages where to_tsvector('english', jsonb_path_query_array(parts, '$[*] ? (@.type == "text").text')) @@ to_tsquery('english', 'quokka:*')`,
      );
      const titlePlan = await queryRows(
        tx,
        sql`explain select id from conversations where to_tsvector('english', title) @@ to_tsquery('english', 'wildlife:*')`,
      );
      return [messagePlan, titlePlan].map((result) => JSON.stringify(result));
    });
    expect(plans[0]).toContain("messages_search_idx");
    expect(plans[1]).toContain("conversations_title_search_idx");
  });
});

describe("snippet segments", () => {
  test("ts_headline marks become highlighted segments on one line", () => {
    expect(headlineSegments("the \u0001quokkas\u0002 were\n everywhere \u0001quokka\u0002")).toEqual([
      { text: "the ", highlight: false },
      { text: "quokkas", highlight: true },
      { text: " were everywhere ", highlight: false },
      { text: "quokka", highlight: true },
    ]);
  });

  test("a substring hit keeps its context and marks where it was cut", () => {
    const text = `${"a".repeat(80)} needle ${"b".repeat(80)}`;
    const segments = substringSegments(text, "NEEDLE");
    expect(segments[1]).toEqual({ text: "needle", highlight: true });
    expect(segments[0].text.startsWith("…")).toBe(true);
    expect(segments[2].text.endsWith("…")).toBe(true);
  });
});
