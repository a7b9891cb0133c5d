// The transcript keys each message by its stored id. A user message sent from this page has a client id until the
// stored copy arrives; its stored id must come from whichever copy of the reply is shown (streamed or stored), or
// swapping one for the other remounts the message and drops an edit the user just opened.
import { describe, expect, test } from "vitest";
import { storedIds } from "@/components/chat/message-list";
import type { ChatMessageMetadata, ChatUIMessage } from "@/lib/chat/views/ui-messages";

const questionId = "7f1c2a4e-1b2c-4d3e-8f4a-5b6c7d8e9f01";
const replyId = "0a1b2c3d-4e5f-4a6b-8c7d-8e9fa0b1c2d3";
const clientId = "kX3o9QwErTyUiOpA";

function message(id: string, role: "user" | "assistant", metadata: ChatMessageMetadata = {}): ChatUIMessage {
  return { id, role, parts: [{ type: "text", text: id }], metadata };
}

describe("storedIds", () => {
  test.each([
    {
      case: "the streamed reply names the question's stored id",
      reply: message(replyId, "assistant", { userMessageId: questionId, assistantMessageId: replyId }),
    },
    {
      case: "the reply's stored copy (a live event) names it as the message it answers",
      reply: message(replyId, "assistant", { replyToMessageId: questionId, status: "complete" }),
    },
  ])("a question sent from this page: $case", ({ reply }) => {
    expect(storedIds([message(clientId, "user"), reply])).toEqual([questionId, replyId]);
  });

  test("a question not yet answered keeps its client id", () => {
    expect(storedIds([message(clientId, "user")])).toEqual([clientId]);
  });

  test("a stored question keeps its own id whatever the reply says", () => {
    const other = "11111111-2222-4333-8444-555555555555";
    const reply = message(replyId, "assistant", { replyToMessageId: other });
    expect(storedIds([message(questionId, "user"), reply])).toEqual([questionId, replyId]);
  });

  test("in a room, only the question right before the reply takes its stored id from it", () => {
    const first = message("aaaaaaaaaaaaaaaa", "user");
    const second = message(clientId, "user");
    const reply = message(replyId, "assistant", { replyToMessageId: questionId });
    expect(storedIds([first, second, reply])).toEqual(["aaaaaaaaaaaaaaaa", questionId, replyId]);
  });
});
