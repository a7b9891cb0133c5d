// Issue 11 on the wire, against the fake providers: Stop aborts the provider request and stores exactly what the
// client showed; regenerate makes variants of one reply without ever sending the user message twice; the same
// client message id is stored once (sequentially and concurrently); retry replaces a failed reply.
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { turns as turnsTable } from "@/db/schema";
import { splitIntoPieces } from "@/e2e/fake-providers/text-pieces";
import { expectError, readUIStream } from "../api-client";
import { closedByClientAt, waitForRequests } from "../fixtures/fake-provider-env";
import { createConversation, insertPersona } from "../fixtures/personas";
import {
  fetchTurns,
  postChat,
  runTurn,
  storedMessages,
  storePersonaReply,
  storeUserMessage,
  streamedText,
  textOf,
  UIStreamReader,
} from "../fixtures/turns";
import {
  chatRequests,
  historySentForTurn,
  occurrences,
  patchMessage,
  postChatWithId,
  postRegenerate,
  regenerate,
  replyTestFile,
  stop,
  transcript,
  wireHistory,
} from "./reply-helpers";
import { conversationRows } from "./row-counts";

const { env, ada, eve, newConversation } = replyTestFile("Ada", "Eve");

describe("stop", () => {
  test("stop mid-stream closes the provider connection and stores exactly what the client read", async () => {
    const conversationId = await newConversation();
    const words = Array.from({ length: 60 }, (_, index) => `word${index} `).join("");
    env.providers.script({ kind: "text", text: words, chunks: 60, chunkDelayMs: 45 });

    const response = await postChat(ada, conversationId, "Count to sixty.");
    expect(response.status).toBe(200);
    const reader = new UIStreamReader(response);
    expect(await reader.readDeltas(15)).toBe(true);
    const shown = reader.text;
    expect(shown).toBe(splitIntoPieces(words, 60).slice(0, 15).join(""));

    const stopAt = Date.now();
    const stopped = await stop(ada, conversationId, { shownChars: shown.length });
    const answeredAt = Date.now();
    expect(stopped.status).toBe(200);
    const outcome = (await stopped.json()) as { turnId: string; messageId: string; status: string };
    expect(outcome.status).toBe("stopped");

    const [request] = env.providers.requests;
    expect(env.providers.requests).toHaveLength(1);
    const closedAt = await closedByClientAt(request);
    expect(closedAt).not.toBeNull();
    const closedAfterMs = (closedAt as number) - stopAt;
    console.log(
      `stop → provider connection closed: ${closedAfterMs} ms; stop answered after ${answeredAt - stopAt} ms`,
    );
    expect(closedAfterMs).toBeGreaterThanOrEqual(0);
    expect(closedAfterMs).toBeLessThanOrEqual(500);

    // The client's stream ends with a normal finish; the text it got after the stop is not stored.
    await reader.drain();
    expect(reader.chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });

    const messages = await storedMessages(conversationId);
    expect(messages.map((message) => [message.authorType, message.status, textOf(message)])).toEqual([
      ["user", "complete", "Count to sixty."],
      ["persona", "stopped", shown],
    ]);
    expect(outcome.messageId).toBe(messages[1].id);
    const { turns } = await fetchTurns(ada, conversationId);
    expect(turns.map((turn) => [turn.id, turn.status])).toEqual([[outcome.turnId, "stopped"]]);
    expect(turns[0].attempts.map((attempt) => attempt.status)).toEqual(["stopped"]);

    // The next turn sends the model exactly the stopped text as the assistant turn.
    env.providers.reset();
    await runTurn(ada, conversationId, "Why did you stop?");
    const [next] = env.providers.requests;
    expect(wireHistory(next).slice(0, 2)).toEqual([
      ["user", "Count to sixty."],
      ["assistant", shown],
    ]);
    // Nothing the client did not show reaches the model.
    expect(next.body).not.toContain(words.slice(0, shown.length + 1));
  });

  test("stop with nothing running, a stranger's stop, an empty body and a negative shownChars", async () => {
    const conversationId = await newConversation();
    await runTurn(ada, conversationId, "Hello.");
    await expectError(await stop(ada, conversationId), 409, "conflict");
    await expectError(await stop(ada, conversationId, {}), 409, "conflict");
    await expectError(await stop(eve, conversationId, {}), 404, "not_found");
    await expectError(await stop(ada, conversationId, { shownChars: -1 }), 400, "bad_request");
    await expectError(await stop(ada, conversationId, { shownChars: 1.5 }), 400, "bad_request");

    // An empty body stops a running reply and keeps all the server streamed.
    env.providers.script({ kind: "text", text: "a b c d e f g h i j k l", chunks: 12, chunkDelayMs: 60 });
    const response = await postChat(ada, conversationId, "Slowly.");
    const reader = new UIStreamReader(response);
    await reader.readDeltas(3);
    await expectError(await stop(eve, conversationId), 404, "not_found");
    const stopped = await stop(ada, conversationId);
    expect(stopped.status).toBe(200);
    expect(((await stopped.json()) as { status: string }).status).toBe("stopped");
    await reader.drain();
    const messages = await storedMessages(conversationId);
    const reply = messages.at(-1);
    expect(reply?.status).toBe("stopped");
    // Without shownChars the reply keeps what the server had streamed: at least what the client read.
    expect(textOf(reply as never).startsWith(reader.text.slice(0, 6))).toBe(true);
    expect("a b c d e f g h i j k l".startsWith(textOf(reply as never))).toBe(true);
  });
});

describe("stop before the provider answers", () => {
  test("a provider that has sent nothing yet: stop aborts the request; the reply is stopped and empty", async () => {
    const conversationId = await newConversation();
    env.providers.script({ kind: "hang" });
    const response = await postChat(ada, conversationId, "Hello?");
    const reader = new UIStreamReader(response);
    // The first chunk reaches the client once the reply's and the turn's rows exist.
    expect(await reader.next()).toMatchObject({ type: "start" });
    await waitForRequests(env.providers, 1);
    const stopAt = Date.now();
    const stopped = await stop(ada, conversationId, { shownChars: 0 });
    expect(stopped.status).toBe(200);
    expect(((await stopped.json()) as { status: string }).status).toBe("stopped");
    const closedAt = await closedByClientAt(env.providers.requests[0]);
    expect(closedAt).not.toBeNull();
    console.log(`stop → hanging provider connection closed: ${(closedAt as number) - stopAt} ms`);
    expect((closedAt as number) - stopAt).toBeLessThanOrEqual(500);
    await reader.drain();
    const messages = await storedMessages(conversationId);
    expect(messages.map((message) => [message.authorType, message.status, message.parts])).toEqual([
      ["user", "complete", [{ type: "text", text: "Hello?" }]],
      ["persona", "stopped", []],
    ]);
    const { turns } = await fetchTurns(ada, conversationId);
    expect(turns.map((turn) => [turn.status, turn.attempts.map((attempt) => attempt.status)])).toEqual([
      ["stopped", ["stopped"]],
    ]);
    // The stopped, empty reply is regenerated like any other.
    const { text } = await regenerate(ada, conversationId, messages[1].id);
    expect(text).toBe('Fake openai-chat reply to: "Hello?"');
  });
});

describe("regenerate", () => {
  test("three regenerations: three variants of one reply, the user message stored and sent once", async () => {
    const conversationId = await newConversation();
    const question = "Tell me something unique-question-7731.";
    env.providers.script(
      { kind: "text", text: "Variant one." },
      { kind: "text", text: "Variant two." },
      { kind: "text", text: "Variant three." },
      { kind: "text", text: "Variant four." },
    );
    await runTurn(ada, conversationId, question);
    let latest = (await storedMessages(conversationId)).at(-1);
    for (const expected of ["Variant two.", "Variant three.", "Variant four."]) {
      const { text } = await regenerate(ada, conversationId, latest?.id as string);
      expect(text).toBe(expected);
      latest = (await storedMessages(conversationId)).at(-1);
    }

    const requests = env.providers.requests;
    expect(requests).toHaveLength(4);
    for (const request of requests) {
      expect(occurrences(request.body, "unique-question-7731")).toBe(1);
      expect(wireHistory(request)).toEqual([["user", question]]);
    }
    // Every regeneration sends the same payload: the earlier variants are not in it.
    expect(new Set(requests.map((request) => request.body)).size).toBe(1);

    const messages = await storedMessages(conversationId);
    const userMessages = messages.filter((message) => message.authorType === "user");
    expect(userMessages).toHaveLength(1);
    const replies = messages.filter((message) => message.authorType === "persona");
    expect(replies.map((reply) => [textOf(reply), reply.chosen, reply.replyToMessageId])).toEqual([
      ["Variant one.", false, userMessages[0].id],
      ["Variant two.", false, userMessages[0].id],
      ["Variant three.", false, userMessages[0].id],
      ["Variant four.", true, userMessages[0].id],
    ]);
    const { turns } = await fetchTurns(ada, conversationId);
    expect(turns.map((turn) => [turn.userMessageId, turn.assistantMessageId, turn.status])).toEqual(
      replies.map((reply) => [userMessages[0].id, reply.id, "ok"]),
    );

    const view = await transcript(ada, conversationId);
    expect(view.messages.map((message) => message.id)).toEqual([userMessages[0].id, replies[3].id]);
    expect(view.variants).toEqual({
      [userMessages[0].id]: replies.map((reply, index) => ({
        id: reply.id,
        status: "complete",
        chosen: index === 3,
      })),
    });

    // Choosing the first variant: the next turn carries it, and none of the others.
    const chose = await patchMessage(ada, conversationId, replies[0].id, { chosen: true });
    expect(chose.status).toBe(200);
    expect((await transcript(ada, conversationId)).messages.map((message) => message.id)).toEqual([
      userMessages[0].id,
      replies[0].id,
    ]);
    env.providers.reset();
    await runTurn(ada, conversationId, "And then?");
    const [next] = env.providers.requests;
    expect(wireHistory(next)).toEqual([
      ["user", question],
      ["assistant", "Variant one."],
      ["user", "And then?"],
    ]);
    for (const other of ["Variant two.", "Variant three.", "Variant four."])
      expect(next.body).not.toContain(other);
  });

  test("only the latest exchange can be regenerated (a reply or a question further up: 409), another conversation's reply a 404", async () => {
    const conversationId = await newConversation();
    await runTurn(ada, conversationId, "First.");
    await runTurn(ada, conversationId, "Second.");
    const before = await storedMessages(conversationId);
    const [firstQuestion, firstReply, , secondReply] = before;
    env.providers.reset();

    await expectError(await postRegenerate(ada, conversationId, firstReply.id), 409, "conflict");
    await expectError(await postRegenerate(ada, conversationId, firstQuestion.id), 409, "conflict");
    const otherConversation = await newConversation();
    await runTurn(ada, otherConversation, "Elsewhere.");
    const otherReply = (await storedMessages(otherConversation)).at(-1);
    env.providers.reset();
    await expectError(await postRegenerate(ada, conversationId, otherReply?.id as string), 404, "not_found");
    // Someone who cannot read the conversation cannot regenerate its reply.
    await expectError(await postRegenerate(eve, conversationId, secondReply.id), 404, "not_found");
    // No messageId at all.
    await expectError(await postRegenerate(ada, conversationId, undefined as never), 400, "bad_request");

    expect(env.providers.requests).toEqual([]);
    expect(await storedMessages(conversationId)).toEqual(before);
    expect(await conversationRows(turnsTable, conversationId)).toHaveLength(2);
  });

  test("a variant of a reply that is no longer the latest cannot be chosen: 409, nothing changes", async () => {
    const conversationId = await newConversation();
    await runTurn(ada, conversationId, "First.");
    const [, firstReply] = await storedMessages(conversationId);
    await regenerate(ada, conversationId, firstReply.id);
    await runTurn(ada, conversationId, "Second.");
    const before = await storedMessages(conversationId);
    const unchosen = before.find((message) => message.authorType === "persona" && !message.chosen);
    expect(unchosen?.id).toBe(firstReply.id);

    const refused = await patchMessage(ada, conversationId, firstReply.id, { chosen: true });
    expect(await expectError(refused, 409, "conflict")).toMatch(
      /Only the latest reply's variants can be chosen/,
    );
    expect(await storedMessages(conversationId)).toEqual(before);
  });

  test("regenerate while a reply is being written: 409", async () => {
    const conversationId = await newConversation();
    await runTurn(ada, conversationId, "First.");
    const firstReply = (await storedMessages(conversationId)).at(-1);
    env.providers.script({ kind: "text", text: "slow slow slow slow", chunks: 4, chunkDelayMs: 150 });
    const running = await postChat(ada, conversationId, "Second.");
    const reader = new UIStreamReader(running);
    await reader.readDeltas(1);
    const secondReply = (await storedMessages(conversationId)).at(-1);
    await expectError(await postRegenerate(ada, conversationId, secondReply?.id as string), 409, "conflict");
    await expectError(await postRegenerate(ada, conversationId, firstReply?.id as string), 409, "conflict");
    await reader.drain();
    expect((await storedMessages(conversationId)).map((message) => message.status)).toEqual([
      "complete",
      "complete",
      "complete",
      "complete",
    ]);
  });
  test("two regenerations at once: one user message, exactly one chosen variant", async () => {
    const conversationId = await newConversation();
    await runTurn(ada, conversationId, "Pick one.");
    const [question, first] = await storedMessages(conversationId);
    const responses = await Promise.all([
      postRegenerate(ada, conversationId, first.id),
      postRegenerate(ada, conversationId, first.id),
    ]);
    await Promise.all(responses.map((response) => response.text()));
    const statuses = responses.map((response) => response.status).sort();
    console.log(`two regenerations at once: ${statuses.join(", ")}`);
    const messages = await storedMessages(conversationId);
    expect(messages.filter((message) => message.authorType === "user")).toHaveLength(1);
    const replies = messages.filter((message) => message.authorType === "persona");
    expect(replies).toHaveLength(1 + statuses.filter((status) => status === 200).length);
    expect(replies.filter((reply) => reply.chosen)).toHaveLength(1);
    const view = await transcript(ada, conversationId);
    expect(view.messages.map((message) => message.authorType)).toEqual(["user", "persona"]);
    expect(view.messages[0].id).toBe(question.id);
  });

  test("replies to one message stored at the same moment: exactly one stays chosen (ten tries)", async () => {
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini" });
    const chosenCounts: number[] = [];
    for (let index = 0; index < 10; index++) {
      const conversationId = await createConversation(ada, persona);
      const question = await storeUserMessage(ada, conversationId, "Which?");
      const reply = () =>
        storePersonaReply(persona, conversationId, "This one.", { replyToMessageId: question.id });
      await reply();
      await Promise.all([reply(), reply()]);
      const rows = await storedMessages(conversationId);
      chosenCounts.push(rows.filter((row) => row.authorType === "persona" && row.chosen).length);
    }
    expect(chosenCounts).toEqual(Array(10).fill(1));
  });
});

describe("idempotent sends", () => {
  test("the same message id twice in a row: the second is a 409, one message, one turn", async () => {
    const conversationId = await newConversation();
    const messageId = crypto.randomUUID();
    const first = await postChatWithId(ada, conversationId, "Only once.", messageId);
    expect(first.status).toBe(200);
    await readUIStream(first);
    const message = await expectError(
      await postChatWithId(ada, conversationId, "Only once.", messageId),
      409,
      "conflict",
    );
    expect(message).toContain("already sent");
    const messages = await storedMessages(conversationId);
    expect(messages.map((row) => [row.authorType, textOf(row), row.clientMessageId])).toEqual([
      ["user", "Only once.", messageId],
      ["persona", 'Fake openai-chat reply to: "Only once."', null],
    ]);
    expect(await conversationRows(turnsTable, conversationId)).toHaveLength(1);
    expect(chatRequests(env.providers.requests)).toHaveLength(1);
    // The same client id in another conversation is another message.
    const other = await newConversation();
    const elsewhere = await postChatWithId(ada, other, "Only once.", messageId);
    expect(elsewhere.status).toBe(200);
    await readUIStream(elsewhere);
  });

  test("the same message id twice at once: one 200, one 409, one message, one turn", async () => {
    const conversationId = await newConversation();
    const messageId = crypto.randomUUID();
    const responses = await Promise.all([
      postChatWithId(ada, conversationId, "At once.", messageId),
      postChatWithId(ada, conversationId, "At once.", messageId),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    const ok = responses.find((response) => response.status === 200) as Response;
    const refused = responses.find((response) => response.status === 409) as Response;
    await expectError(refused, 409, "conflict");
    const chunks = await readUIStream(ok);
    expect(streamedText(chunks)).toBe('Fake openai-chat reply to: "At once."');
    const messages = await storedMessages(conversationId);
    expect(messages.map((row) => [row.authorType, row.status])).toEqual([
      ["user", "complete"],
      ["persona", "complete"],
    ]);
    expect(await conversationRows(turnsTable, conversationId)).toHaveLength(1);
    expect(env.providers.requests).toHaveLength(1);
    expect(occurrences(env.providers.requests[0].body, "At once.")).toBe(1);
  });
});

describe("idempotent sends: the unique index", () => {
  test("two inserts of one client message id at once, past the route's check: one stored, one 409 conflict", async () => {
    const _db = await getDb();
    const conversationId = await newConversation();
    const clientMessageId = crypto.randomUUID();
    const insert = () => storeUserMessage(ada, conversationId, "Raced.", { clientMessageId });
    const outcomes = await Promise.allSettled([insert(), insert(), insert()]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected", "rejected"]);
    for (const outcome of outcomes) {
      if (outcome.status === "rejected") {
        expect(outcome.reason).toMatchObject({ code: "conflict" });
        expect(String(outcome.reason.message)).toContain("already sent");
      }
    }
    expect((await storedMessages(conversationId)).map((row) => [textOf(row), row.clientMessageId])).toEqual([
      ["Raced.", clientMessageId],
    ]);
  });
});

describe("retry", () => {
  test("retry replaces a failed reply: the failed one leaves the transcript, the user message is sent once", async () => {
    const conversationId = await newConversation();
    env.providers.script({ kind: "error", status: 500, message: "The server had an error", times: 3 });
    const failedTurn = await runTurn(ada, conversationId, "Please answer retry-me-4410.");
    expect(failedTurn.chunks.some((chunk) => chunk.type === "error")).toBe(true);
    const [question, failed] = await storedMessages(conversationId);
    expect([failed.authorType, failed.status, failed.parts]).toEqual(["persona", "error", []]);
    expect(env.providers.requests).toHaveLength(3);

    env.providers.reset();
    env.providers.script({ kind: "text", text: "Here you are." });
    const { text } = await regenerate(ada, conversationId, failed.id);
    expect(text).toBe("Here you are.");
    const [retryRequest] = env.providers.requests;
    expect(env.providers.requests).toHaveLength(1);
    expect(occurrences(retryRequest.body, "retry-me-4410")).toBe(1);
    expect(wireHistory(retryRequest)).toEqual([["user", "Please answer retry-me-4410."]]);

    const view = await transcript(ada, conversationId);
    const reply = (await storedMessages(conversationId)).at(-1);
    expect(view.messages.map((message) => [message.id, message.status])).toEqual([
      [question.id, "complete"],
      [reply?.id, "complete"],
    ]);
    expect(view.variants).toEqual({});
    const { turns } = await fetchTurns(ada, conversationId);
    expect(turns.map((turn) => turn.status)).toEqual(["error", "ok"]);

    // The next turn's history is the question and the retried answer, nothing of the failure.
    expect(await historySentForTurn(env.providers, ada, conversationId, "Thanks.")).toEqual([
      ["user", "Please answer retry-me-4410."],
      ["assistant", "Here you are."],
      ["user", "Thanks."],
    ]);
  });
});
