// Search on the embedded database (PGlite): migration 0003 creates the GIN indexes, full-text hits come with
// ts_headline snippets, titles match, the substring fallback works, and invited participants find nothing.
import { eq, sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { queryRows } from "@/db/raw-sql";
import { conversations, participants, user } from "@/db/schema";
import { searchConversations } from "@/db/search-queries";
import { adaConversation, pgliteForFile } from "../fixtures/pglite";

const handle = pgliteForFile("search");

test("PGlite: full-text and substring search over readable conversations", async () => {
  await handle.ready;
  expect(handle.driver).toBe("pglite");
  const { db } = handle;
  const indexes = await queryRows<{ indexname: string }>(
    db,
    sql`select indexname from pg_indexes where indexname in ('messages_search_idx', 'conversations_title_search_idx')`,
  );
  expect(indexes.map((row) => row.indexname).sort()).toEqual([
    "conversations_title_search_idx",
    "messages_search_idx",
  ]);

  await db.insert(user).values({ id: "bob", name: "Bob", email: "bob@example.test" });
  const { conversation, append } = await adaConversation(db);
  const question = await append("Where do quokkas live? Asking for a trip.", "user");
  await append("Mostly on Rottnest Island, off the coast of Perth.", "persona");

  const words = await searchConversations({ db, userId: "ada", query: "quokka" });
  expect(words.mode).toBe("words");
  expect(words.conversations).toHaveLength(1);
  const [hit] = words.conversations[0].hits;
  expect(hit.messageId).toBe(question.id);
  expect(hit.snippet.filter((segment) => segment.highlight).map((segment) => segment.text)).toEqual([
    "quokkas",
  ]);

  const substring = await searchConversations({ db, userId: "ada", query: "f P" });
  expect(substring.mode).toBe("substring");
  expect(substring.conversations[0].hits.map((segment) => segment.messageId)).toHaveLength(1);

  // Bob, invited but not a member, finds nothing.
  await db.insert(participants).values({ conversationId: conversation.id, userId: "bob", role: "invited" });
  expect((await searchConversations({ db, userId: "bob", query: "quokka" })).conversations).toEqual([]);

  await db
    .update(conversations)
    .set({ title: "Where quokkas live" })
    .where(eq(conversations.id, conversation.id));
  const byTitle = await searchConversations({ db, userId: "ada", query: "live" });
  expect(byTitle.conversations[0].titleMatch).toBe(true);
}, 60_000);
