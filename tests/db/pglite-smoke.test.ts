// The embedded database path (no DATABASE_URL): PGlite on disk migrates, seeds and serves the same queries.
import { expect, test } from "vitest";
import { createConversation } from "@/db/conversation-queries";
import { appendMessage } from "@/db/message-insert-queries";
import { listHistoryWindow } from "@/db/message-queries";
import { listModels } from "@/db/model-queries";
import { getDefaultPersona } from "@/db/persona-queries";
import { user } from "@/db/schema";
import { pgliteForFile } from "../fixtures/pglite";

const handle = pgliteForFile("smoke");

test("PGlite migrates, seeds, and assigns strictly increasing seqs", async () => {
  await handle.ready;
  expect(handle.driver).toBe("pglite");
  const { db } = handle;
  expect((await listModels({ db })).map((model) => model.id)).toContain("offline:echo");
  const persona = await getDefaultPersona({ db });
  expect(persona.name).toBe("Glassbox Guide");

  await db.insert(user).values({ id: "u1", name: "Ada", email: "ada@example.test" });
  const conversation = await createConversation({ db, ownerId: "u1", personaId: persona.id, title: "Smoke" });
  for (const text of ["one", "two", "three"]) {
    await appendMessage({
      db,
      message: {
        conversationId: conversation.id,
        authorType: "user",
        authorUserId: "u1",
        authorName: "Ada",
        parts: [{ type: "text", text }],
        status: "complete",
      },
    });
  }
  const window = await listHistoryWindow({ db, conversationId: conversation.id, afterSeq: 0, limit: 2 });
  expect(window.map((message) => [message.seq, message.parts])).toEqual([
    [2, [{ type: "text", text: "two" }]],
    [3, [{ type: "text", text: "three" }]],
  ]);
}, 60_000);
