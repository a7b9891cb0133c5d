// Generated titles on the embedded database (PGlite): the offline model names a conversation after its first
// complete exchange, and a second generation leaves the title alone.
import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { conversations } from "@/db/schema";
import { generateConversationTitle } from "@/lib/chat/generated/title";
import { adaConversation, pgliteForFile } from "../fixtures/pglite";

const handle = pgliteForFile("titles");

test("PGlite: the offline model titles a conversation once its first reply is complete", async () => {
  await handle.ready;
  expect(handle.driver).toBe("pglite");
  const { db } = handle;
  const { persona, conversation, append } = await adaConversation(db);
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
