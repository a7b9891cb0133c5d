// A gateway history that diverges from a stored one branches it: the client edited or regenerated a turn, so the
// conversation is branched at the last reply both share, the rest stored in the branch; the original is left as
// it was, and the branch is continued like any conversation.
import type OpenAI from "openai";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { getReadableConversation } from "@/db/conversation-queries";
import { listMessages } from "@/db/message-queries";
import { fakeProvidersAndUsersForFile } from "../fixtures/file-setup";
import { createKey, gatewayClient, gatewayPersona } from "./gateway-fixtures";

const { env, ada } = fakeProvidersAndUsersForFile("Ada");

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

async function textsOf(conversationId: string): Promise<string[]> {
  const stored = await listMessages({ db: await getDb(), conversationId });
  return stored.map((message) => (message.parts[0] as { text: string }).text);
}

describe("a diverging history branches", () => {
  test("an edited second question branches at the first reply; the original stays; the branch continues", async () => {
    const slug = (await gatewayPersona("Brancher")).slug as string;
    const client = gatewayClient((await createKey(ada, { name: "branching" })).secret);
    const ask = async (messages: Message[]) => {
      const { data, response } = await client.chat.completions
        .create({ model: slug, messages })
        .withResponse();
      return {
        text: data.choices[0].message.content ?? "",
        conversationId: response.headers.get("x-glassbox-conversation-id") as string,
      };
    };

    const first = await ask([{ role: "user", content: "Q1" }]);
    const history: Message[] = [
      { role: "user", content: "Q1" },
      { role: "assistant", content: first.text },
    ];
    const second = await ask([...history, { role: "user", content: "Q2" }]);
    expect(second.conversationId).toBe(first.conversationId);

    // The client edits Q2: the history shares Q1 and its reply, then differs.
    const edited = await ask([...history, { role: "user", content: "Q2, edited" }]);
    expect(edited.conversationId).not.toBe(first.conversationId);
    expect(await textsOf(first.conversationId)).toEqual(["Q1", first.text, "Q2", second.text]);
    expect(await textsOf(edited.conversationId)).toEqual(["Q1", first.text, "Q2, edited", edited.text]);
    const branch = await getReadableConversation({
      db: await getDb(),
      conversationId: edited.conversationId,
      userId: ada.id,
    });
    expect(branch.branchedFromConversationId).toBe(first.conversationId);
    // The provider was sent the branch as the pipeline builds it: Q1, its reply, the edited question.
    const sent = JSON.parse(env.providers.requests.at(-1)?.body ?? "null") as {
      messages: { role: string; content: unknown }[];
    };
    expect(
      sent.messages.filter((message) => message.role !== "system").map((message) => message.content),
    ).toEqual(["Q1", first.text, "Q2, edited"]);

    // Continuing the branch's history continues the branch, each message stored once.
    const third = await ask([
      ...history,
      { role: "user", content: "Q2, edited" },
      { role: "assistant", content: edited.text },
      { role: "user", content: "Q3" },
    ]);
    expect(third.conversationId).toBe(edited.conversationId);
    expect(await textsOf(edited.conversationId)).toEqual([
      "Q1",
      first.text,
      "Q2, edited",
      edited.text,
      "Q3",
      third.text,
    ]);

    // A history that shares no reply with anything stored starts a new conversation.
    const fresh = await ask([
      { role: "user", content: "Q1" },
      { role: "assistant", content: "Not the reply it got." },
      { role: "user", content: "Q2" },
    ]);
    expect([first.conversationId, edited.conversationId]).not.toContain(fresh.conversationId);
    expect(
      (
        await getReadableConversation({
          db: await getDb(),
          conversationId: fresh.conversationId,
          userId: ada.id,
        })
      ).branchedFromConversationId,
    ).toBeNull();
  });
});
