import { describe, expect, it } from "vitest";
import { buildInput, personaMessage, userMessage } from "@/tests/context/fixtures";
import { buildContext } from "./build-context";

describe("the load stage", () => {
  it("says which loaded messages were edited after they were sent (the payload differs from there on)", () => {
    const edited = { ...userMessage(1, "Capital of France?"), editedAt: "2026-03-01T12:05:00.000Z" };
    const base = buildContext(
      buildInput({
        messages: [edited, personaMessage(2, "Paris.", { replyToMessageId: "m1" })],
        currentInput: userMessage(3, "And Spain?"),
      }),
    );
    expect(base.trace.filter((event) => event.stage === "load")).toEqual([
      expect.objectContaining({
        action: "edited-message",
        reason: "message #1 by Ada was edited after it was sent: earlier turns sent its previous text",
        messageIds: ["m1"],
        itemIds: ["msg:m1"],
      }),
    ]);
  });

  it("says nothing when no message was edited", () => {
    const base = buildContext(
      buildInput({ messages: [userMessage(1, "Hi")], currentInput: userMessage(2, "Hm") }),
    );
    expect(base.trace.filter((event) => event.stage === "load")).toEqual([]);
  });
});
