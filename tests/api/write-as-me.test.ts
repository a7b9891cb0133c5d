// "Write as me": a draft of the user's next message in their voice. The model sees the conversation
// with roles flipped (the user's messages are its own turns, the persona's are the other side's) and the
// instruction last; nothing is stored; only people who may read the conversation can ask.
import { describe, expect, test } from "vitest";
import * as writeAsMeRoute from "@/app/api/conversations/[id]/write-as-me/route";
import { writeAsMeInstruction } from "@/lib/chat/generated/write-as-me";
import { call, expectError, type TestUser } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { conversationWithPersona } from "../fixtures/personas";
import { runTurn, storedMessages } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");
const eve = signedUpForFile("Eve");

function writeAsMe(user: TestUser, conversationId: string) {
  return call(writeAsMeRoute.POST, `/api/conversations/${conversationId}/write-as-me`, {
    user,
    method: "POST",
    params: { id: conversationId },
  });
}

describe("write as me", () => {
  test("drafts the user's next message from the flipped conversation; stores nothing", async () => {
    const conversationId = await conversationWithPersona(ada, {
      modelId: "openai:gpt-4.1-mini",
      name: "Aria",
    });
    env.providers.script(
      { kind: "text", text: "Lisbon in May is lovely. Which dates?" },
      { kind: "text", text: "The 12th to the 16th, and I would like a hotel near the river." },
    );
    await runTurn(ada, conversationId, "I want to visit Lisbon in May.");
    env.providers.reset();
    env.providers.script({ kind: "text", text: "  The 12th to the 16th, please.  " });

    const response = await writeAsMe(ada, conversationId);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      draft: "The 12th to the 16th, please.",
      modelId: "openai:gpt-4.1-mini",
    });

    const body = JSON.parse(env.providers.requests[0].body) as {
      messages: Array<{ role: string; content: unknown }>;
    };
    const dialogue = body.messages.filter((message) => message.role !== "system");
    // Ada's message is the model's own turn, Aria's reply the other side's, the instruction last.
    expect(dialogue.map((message) => message.role)).toEqual(["assistant", "user", "user"]);
    expect(JSON.stringify(dialogue[0])).toContain("I want to visit Lisbon in May.");
    expect(JSON.stringify(dialogue[1])).toContain("Lisbon in May is lovely.");
    expect(JSON.stringify(dialogue.at(-1))).toContain(writeAsMeInstruction("Ada"));
    expect(await storedMessages(conversationId)).toHaveLength(2);
  });

  test("someone who may not read the conversation gets 404; nothing is called", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    await expectError(await writeAsMe(eve, conversationId), 404, "not_found");
    expect(env.providers.requests).toHaveLength(0);
  });

  test("a model that fails: 422 with the reason", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    env.providers.script({ kind: "error", status: 400, message: "bad request from the fake" });
    const text = await expectError(await writeAsMe(ada, conversationId), 422, "model_unavailable");
    expect(text).toContain("No draft could be written");
  });
});
