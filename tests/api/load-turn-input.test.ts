// The turn's load runs beside the insert of the message it answers (run-turn.ts): whether the insert lands before
// or after the window query, the turn sees the same window: the message last, the newest `messageFetchLimit − 1`
// before it, the omitted count right. A new message's window is read beside its insert (`currentMessageIsNew`), and
// read again when that read cannot be the window: a message stored in between, or the new message's images.
// Real Postgres (or PGlite), real queries.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { getReadableConversation } from "@/db/conversation-queries";
import { getPersona } from "@/db/persona-queries";
import { conversations, type Message } from "@/db/schema";
import { loadTurnInput } from "@/lib/chat/turn/load-turn-input";
import { signUp, type TestUser } from "../api-client";
import { insertImageMessage } from "../fixtures/attachments";
import { createConversation, insertPersona } from "../fixtures/personas";
import { storeAlternatingMessages, storeUserMessage } from "../fixtures/turns";

let ada: TestUser;

beforeAll(async () => {
  ada = await signUp("Ada");
});

/** A conversation of `count` alternating messages, fetch limit 5 (set on the conversation). */
async function conversationWith(count: number) {
  const db = await getDb();
  const persona = await insertPersona({ modelId: "offline:echo" });
  const conversationId = await createConversation(ada, persona);
  await db
    .update(conversations)
    .set({ settingsOverride: { history: { messageFetchLimit: 5 } } })
    .where(eq(conversations.id, conversationId));
  await storeAlternatingMessages(ada, persona, conversationId, count);
  const conversation = await getReadableConversation({ db, conversationId, userId: ada.id });
  return { db, conversation, persona: await getPersona({ db, personaId: persona.id }) };
}

function appendQuestion(conversationId: string): Promise<Message> {
  return storeUserMessage(ada, conversationId, "the question");
}

describe("loadTurnInput beside the insert", () => {
  test.each([
    { when: "stored before the load starts", timing: "before" as const, beside: false },
    { when: "stored while the window is read", timing: "during" as const, beside: false },
    { when: "stored only after the window was read", timing: "after" as const, beside: false },
    { when: "stored before the load starts", timing: "before" as const, beside: true },
    { when: "stored while the window is read", timing: "during" as const, beside: true },
    { when: "stored only after the window was read", timing: "after" as const, beside: true },
  ])(
    "the message $when (window read beside the insert: $beside): same window, same omitted count",
    async ({ timing, beside }) => {
      const { db, conversation, persona } = await conversationWith(9);
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let current: Message | Promise<Message>;
      if (timing === "before") current = await appendQuestion(conversation.id);
      else if (timing === "during") current = appendQuestion(conversation.id);
      // "after": the insert starts only once the load has read its window and waits for the row.
      else current = gate.then(() => appendQuestion(conversation.id));

      const loading = loadTurnInput({
        db,
        conversation,
        persona,
        currentMessage: current,
        currentMessageIsNew: beside,
        requesterId: ada.id,
      });
      if (timing === "after") setTimeout(release, 50);
      const { buildInput, summaryInputs } = await loading;

      const seqs = buildInput.messages.map((message) => message.seq);
      // Fetch limit 5: the question (seq 10) and the four messages before it.
      expect(seqs).toEqual([6, 7, 8, 9, 10]);
      expect(buildInput.currentInput.seq).toBe(10);
      expect(buildInput.currentInput.id).toBe(buildInput.messages[4].id);
      expect(buildInput.loadedWindow).toEqual({ omittedBeforeSeq: 6, omittedCount: 5 });
      // The summary check before the turn decides on the same rows.
      expect(summaryInputs.windowRows.map((row) => row.seq)).toEqual(seqs);
    },
  );

  test("a short history: nothing omitted", async () => {
    const { db, conversation, persona } = await conversationWith(2);
    const { buildInput } = await loadTurnInput({
      db,
      conversation,
      persona,
      currentMessage: appendQuestion(conversation.id),
      requesterId: ada.id,
    });
    expect(buildInput.messages.map((message) => message.seq)).toEqual([1, 2, 3]);
    expect(buildInput.loadedWindow).toBeNull();
  });

  test("a message stored after the window was read and before the new one is in the window", async () => {
    const { db, conversation, persona } = await conversationWith(9);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Someone else's message takes seq 10 once the window beside the insert was read; the new message takes 11.
    const current = gate.then(async () => {
      await storeUserMessage(ada, conversation.id, "a message in between");
      return appendQuestion(conversation.id);
    });
    const loading = loadTurnInput({
      db,
      conversation,
      persona,
      currentMessage: current,
      currentMessageIsNew: true,
      requesterId: ada.id,
    });
    setTimeout(release, 50);
    const { buildInput } = await loading;
    expect(buildInput.messages.map((message) => message.seq)).toEqual([7, 8, 9, 10, 11]);
    expect(buildInput.messages[3].parts).toEqual([{ type: "text", text: "a message in between" }]);
    expect(buildInput.loadedWindow).toEqual({ omittedBeforeSeq: 7, omittedCount: 6 });
  });

  test("a new message with an image: its attachment is in the window", async () => {
    const { db, conversation, persona } = await conversationWith(4);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const stored = gate.then(() =>
      insertImageMessage({ conversationId: conversation.id, user: ada, text: "what is this?" }),
    );
    const loading = loadTurnInput({
      db,
      conversation,
      persona,
      currentMessage: stored.then(({ message }) => message),
      currentMessageIsNew: true,
      requesterId: ada.id,
    });
    setTimeout(release, 50);
    const { buildInput } = await loading;
    const { attachment, base64 } = await stored;
    expect(buildInput.currentInput.seq).toBe(5);
    expect(buildInput.attachments.map((row) => [row.id, row.url])).toEqual([
      [attachment.id, `data:image/png;base64,${base64}`],
    ]);
  });

  test("a message stored after the new one, before the window was read, is left out and nothing else is", async () => {
    const { db, conversation, persona } = await conversationWith(9);
    const question = await appendQuestion(conversation.id);
    await storeUserMessage(ada, conversation.id, "a later message");
    const { buildInput } = await loadTurnInput({
      db,
      conversation,
      persona,
      currentMessage: question,
      currentMessageIsNew: true,
      requesterId: ada.id,
    });
    expect(buildInput.messages.map((message) => message.seq)).toEqual([6, 7, 8, 9, 10]);
    expect(buildInput.loadedWindow).toEqual({ omittedBeforeSeq: 6, omittedCount: 5 });
  });
});
