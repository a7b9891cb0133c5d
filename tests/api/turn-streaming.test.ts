// the reply is persisted while it streams (status `streaming`, partial text), and a
// browser that goes away does not stop the generation: it runs to its end and is stored complete.
import { describe, expect, test } from "vitest";
import { splitIntoPieces } from "@/e2e/fake-providers/text-pieces";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { conversationWithPersona, createConversation, insertPersona } from "../fixtures/personas";
import { fetchTurns, postChat, storedMessages, textOf, waitForMessages } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

const SLOW_TEXT = "The quick brown fox jumps over the lazy dog, then naps in the warm afternoon sun.";

describe("persisted as it streams", () => {
  test("while the reply streams, the stored message is `streaming` with the text so far", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-5-mini" });
    env.providers.script({ kind: "text", text: SLOW_TEXT, chunks: 12, chunkDelayMs: 150 });

    const response = await postChat(ada, conversationId, "Tell me about the fox");
    const reading = response.text(); // the client keeps reading throughout

    // Chunks arrive every 150 ms over ~1.8 s; the text so far is written at least every 500 ms, so it shows up
    // after ~500–700 ms, long before the end.
    const midway = await waitForMessages(
      conversationId,
      (messages) =>
        messages.length === 2 && messages[1].status === "streaming" && textOf(messages[1]).length > 0,
      { timeoutMs: 1_500 },
    );
    const partial = textOf(midway[1]);
    expect(midway[0]).toMatchObject({ authorType: "user", status: "complete" });
    expect(SLOW_TEXT.startsWith(partial)).toBe(true);
    expect(partial.length).toBeLessThan(SLOW_TEXT.length);
    // The partial text is whole chunks: what had streamed when it was written.
    const pieces = splitIntoPieces(SLOW_TEXT, 12);
    const chunksSoFar = pieces.findIndex((_, index) => pieces.slice(0, index + 1).join("") === partial) + 1;
    expect(chunksSoFar).toBeGreaterThan(0);
    expect(chunksSoFar).toBeLessThan(12);

    await reading;
    const [, reply] = await storedMessages(conversationId);
    expect(reply.status).toBe("complete");
    expect(textOf(reply)).toBe(SLOW_TEXT);
  });
});

describe("a client that disconnects mid-stream", () => {
  test("does not stop the reply: it completes and is stored in full", async () => {
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini" });
    const conversationId = await createConversation(ada, persona);
    env.providers.script({ kind: "text", text: SLOW_TEXT, chunks: 8, chunkDelayMs: 80 });

    const response = await postChat(ada, conversationId, "Tell me, then I'll hang up");
    expect(response.status).toBe(200);
    if (!response.body) throw new Error("the chat response has no body");
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let received = "";
    // Read until the first text has arrived, then go away as a closed browser tab does.
    while (!received.includes('"type":"text-delta"')) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended before any text");
      received += decoder.decode(value, { stream: true });
    }
    await reader.cancel();

    const messages = await waitForMessages(
      conversationId,
      (rows) => rows.length === 2 && rows[1].status !== "streaming",
      {
        timeoutMs: 5_000,
      },
    );
    expect(messages.map((message) => [message.authorType, message.status, textOf(message)])).toEqual([
      ["user", "complete", "Tell me, then I'll hang up"],
      ["persona", "complete", SLOW_TEXT],
    ]);
    const { turns } = await fetchTurns(ada, conversationId);
    expect(turns[0].status).toBe("ok");
    expect(turns[0].attempts.map((attempt) => [attempt.status, attempt.response?.text])).toEqual([
      ["ok", SLOW_TEXT],
    ]);
    expect(env.providers.requests).toHaveLength(1);
  });
});
