// While a reply is being written, nothing that builds from the history starts (docs/features.md, "Stop"): a send,
// a regenerate, an edit (and so "Save and regenerate"), a "write as me" draft and a compact are refused with 409
// and store nothing, so no model request ever carries the reply's partial copy. The preview is built and says the
// reply is still in progress. Once the reply is stored (or stopped), the next turn is accepted and carries it
// whole. The client goes away mid-stream, as a reloaded page does; the reply is known from this process's registry
// (from its set-up on: two sends at once start one turn) and from the database (a turn another instance runs),
// with no Redis.
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import * as writeAsMeRoute from "@/app/api/conversations/[id]/write-as-me/route";
import { getDb } from "@/db/client";
import { appendMessage } from "@/db/message-insert-queries";
import { turns } from "@/db/schema";
import { finishTurn, insertTurn } from "@/db/turn-queries";
import { call, expectError, readUIStream, type TestUser } from "../api-client";
import { createConversation, insertPersona } from "../fixtures/personas";
import {
  postChat,
  runTurn,
  storedMessages,
  storeUserMessage,
  textOf,
  UIStreamReader,
  waitForMessages,
} from "../fixtures/turns";
import { preview } from "./preview-helpers";
import {
  chatRequests,
  patchMessage,
  postRegenerate,
  replyTestFile,
  stop,
  wireHistory,
} from "./reply-helpers";
import { compact } from "./summary-helpers";

const { env, ada, newConversation } = replyTestFile("Ada");

const REFUSAL = /^A reply is still being written in this conversation: wait for it or stop it, then /;
/** "s1 s2 … s80": a reply whose partial copy is easy to tell from the whole one. */
const WHOLE_REPLY = Array.from({ length: 80 }, (_, index) => `s${index + 1}`).join(" ");

function writeAsMe(user: TestUser, conversationId: string) {
  return call(writeAsMeRoute.POST, `/api/conversations/${conversationId}/write-as-me`, {
    user,
    method: "POST",
    params: { id: conversationId },
  });
}

/** Starts the slow reply, reads its first 35 words, and goes away (a reload): the reply goes on being written. */
async function startSlowReplyAndLeave(conversationId: string) {
  env.providers.script({ kind: "text", text: WHOLE_REPLY, chunks: 80, chunkDelayMs: 40 });
  const response = await postChat(ada, conversationId, "Count to eighty.");
  expect(response.status).toBe(200);
  const reader = new UIStreamReader(response);
  expect(await reader.readDeltas(35)).toBe(true);
  await reader.cancel();
  const [question, reply] = await waitForMessages(conversationId, (rows) => rows.length === 2);
  return { question, reply };
}

/** Every path that builds from the history refuses, naming the problem; nothing is stored, no model is called. */
async function expectEveryPathRefused(conversationId: string, replyId: string, questionId: string) {
  const before = await storedMessages(conversationId);
  const requestsBefore = env.providers.requests.length;
  const refusals = [
    await postChat(ada, conversationId, "Are you done?"),
    await postRegenerate(ada, conversationId, replyId),
    await patchMessage(ada, conversationId, questionId, { text: "Count to ninety." }),
    await writeAsMe(ada, conversationId),
    await compact(ada, conversationId, { keepRecentTurns: 1 }),
  ];
  const messages = await Promise.all(refusals.map((response) => expectError(response, 409, "conflict")));
  for (const message of messages) expect(message).toMatch(REFUSAL);
  expect(messages.map((message) => message.replace(REFUSAL, ""))).toEqual([
    "send your message.",
    "regenerate.",
    "change a message.",
    "ask for a draft.",
    "compact.",
  ]);
  expect(env.providers.requests).toHaveLength(requestsBefore);
  const after = await storedMessages(conversationId);
  expect(after.map((row) => [row.id, row.authorType])).toEqual(before.map((row) => [row.id, row.authorType]));
  expect(after[0].parts).toEqual(before[0].parts);
}

describe("a reply being written, its client gone (a reload)", () => {
  test("every path is refused with 409; once the reply is stored, the next turn carries it whole", async () => {
    const conversationId = await newConversation();
    const { question, reply } = await startSlowReplyAndLeave(conversationId);
    expect(reply.status).toBe("streaming");

    await expectEveryPathRefused(conversationId, reply.id, question.id);
    // The preview calls no model: it is built, and says the reply in it is not whole yet.
    expect((await preview(ada, conversationId, "Are you done?")).replyInProgress).toBe(true);

    const stored = await waitForMessages(conversationId, (rows) => rows[1]?.status === "complete", {
      timeoutMs: 15_000,
    });
    expect(textOf(stored[1])).toBe(WHOLE_REPLY);
    expect((await preview(ada, conversationId, "Are you done?")).replyInProgress).toBe(false);

    env.providers.script({ kind: "text", text: "Done." });
    const next = await runTurn(ada, conversationId, "Are you done?");
    expect(next.text).toBe("Done.");
    const requests = chatRequests(env.providers.requests);
    expect(requests).toHaveLength(2);
    expect(wireHistory(requests[1])).toEqual([
      ["user", "Count to eighty."],
      ["assistant", WHOLE_REPLY],
      ["user", "Are you done?"],
    ]);
  });

  test("Stop ends it as the normal Stop does; the next turn carries the stopped text", async () => {
    const conversationId = await newConversation();
    await startSlowReplyAndLeave(conversationId);
    const seen = textOf((await storedMessages(conversationId))[1]);
    const stopped = await stop(ada, conversationId, { shownChars: seen.length });
    expect(stopped.status).toBe(200);
    expect(((await stopped.json()) as { status: string }).status).toBe("stopped");
    const [, reply] = await storedMessages(conversationId);
    expect(reply.status).toBe("stopped");
    expect(textOf(reply)).toBe(seen);
    expect(WHOLE_REPLY.startsWith(seen)).toBe(true);

    env.providers.script({ kind: "text", text: "Stopped there." });
    await runTurn(ada, conversationId, "Why stop?");
    const requests = chatRequests(env.providers.requests);
    expect(requests).toHaveLength(2);
    expect(wireHistory(requests[1]).slice(0, 2)).toEqual([
      ["user", "Count to eighty."],
      ["assistant", seen],
    ]);
  });

  test("two sends at once: one turn, the other refused before anything is stored", async () => {
    const conversationId = await newConversation();
    env.providers.script({ kind: "text", text: "First come." });
    const responses = await Promise.all([
      postChat(ada, conversationId, "One."),
      postChat(ada, conversationId, "Two."),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    const refused = responses.find((response) => response.status === 409) as Response;
    expect(await expectError(refused, 409, "conflict")).toBe(
      "A reply is still being written in this conversation: wait for it or stop it, then send your message.",
    );
    await readUIStream(responses.find((response) => response.status === 200) as Response);
    const messages = await storedMessages(conversationId);
    expect(messages.map((row) => [row.authorType, row.status])).toEqual([
      ["user", "complete"],
      ["persona", "complete"],
    ]);
    expect(chatRequests(env.providers.requests)).toHaveLength(1);
  });

  test("a turn another instance runs (known only from the database) is refused the same way", async () => {
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini" });
    const conversationId = await createConversation(ada, persona);
    // A stored settings version for the other instance's turn: this one's.
    await runTurn(ada, conversationId, "Hello.");
    const db = await getDb();
    const question = await storeUserMessage(ada, conversationId, "Count to eighty.");
    const reply = await appendMessage({
      db,
      message: {
        conversationId,
        authorType: "persona",
        authorPersonaId: persona.id,
        authorName: persona.name,
        replyToMessageId: question.id,
        parts: [{ type: "text", text: "s1 s2 s3" }],
        status: "streaming",
      },
    });
    const turnId = crypto.randomUUID();
    const [firstTurn] = await readTurnSettings(conversationId);
    await insertTurn({
      db,
      turn: {
        id: turnId,
        conversationId,
        userMessageId: question.id,
        assistantMessageId: reply.id,
        settingsVersion: firstTurn.settingsVersion,
        instanceId: "another-instance",
      },
    });
    env.providers.reset();

    await expectEveryPathRefused(conversationId, reply.id, question.id);

    // That instance stores the reply's end: a new turn is accepted again.
    await finishTurn({ db, turnId, status: "ok" });
    env.providers.script({ kind: "text", text: "Go on." });
    const accepted = await postChat(ada, conversationId, "Go on.");
    expect(accepted.status).toBe(200);
    await readUIStream(accepted);
  });
});

async function readTurnSettings(conversationId: string) {
  const db = await getDb();
  return db
    .select({ settingsVersion: turns.settingsVersion })
    .from(turns)
    .where(eq(turns.conversationId, conversationId));
}
