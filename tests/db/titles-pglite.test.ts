// Generated titles on the embedded database (PGlite): the offline model names a conversation after its first
// complete exchange, and a second generation leaves the title alone.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, expect, test } from "vitest";
import { createDatabase } from "@/db/client";
import { appendMessage, createConversation, getDefaultPersona } from "@/db/queries";
import { conversations, user } from "@/db/schema";
import { generateConversationTitle } from "@/lib/chat/title";

const dir = mkdtempSync(path.join(tmpdir(), "glassbox-pglite-titles-"));
// An empty url forces the embedded driver even when the run has DATABASE_URL set.
const handle = createDatabase({ url: "", pgliteDir: path.join(dir, "db") });

afterAll(async () => {
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

test("PGlite: the offline model titles a conversation once its first reply is complete", async () => {
  await handle.ready;
  expect(handle.driver).toBe("pglite");
  const { db } = handle;
  await db.insert(user).values({ id: "ada", name: "Ada", email: "ada@example.test" });
  const persona = await getDefaultPersona({ db });
  const conversation = await createConversation({
    db,
    ownerId: "ada",
    personaId: persona.id,
    title: "New conversation",
  });
  const append = (text: string, authorType: "user" | "persona") =>
    appendMessage({
      db,
      message: {
        conversationId: conversation.id,
        authorType,
        authorName: authorType === "user" ? "Ada" : "Guide",
        authorUserId: authorType === "user" ? "ada" : null,
        parts: [{ type: "text", text }],
        status: "complete",
      },
    });
  await append("Where do quokkas live? Asking for a trip.", "user");
  expect(await generateConversationTitle({ db, conversationId: conversation.id })).toEqual({
    status: "skipped",
    reason: "the first exchange is not complete yet",
  });
  await append("Mostly on Rottnest Island, off the coast of Perth.", "persona");
  expect(await generateConversationTitle({ db, conversationId: conversation.id })).toEqual({
    status: "stored",
    title: "Where do quokkas live",
    modelId: persona.modelId,
  });
  expect(await generateConversationTitle({ db, conversationId: conversation.id })).toEqual({
    status: "skipped",
    reason: "the conversation already has a title",
  });
  const [stored] = await db.select().from(conversations).where(eq(conversations.id, conversation.id));
  expect(stored.title).toBe("Where do quokkas live");
}, 60_000);
