import { describe, expect, it } from "vitest";
import type { ContextItem } from "@/lib/domain/types";
import { deepFreeze, personaMessage, userMessage } from "@/tests/context/fixtures";
import { appendCurrentInput, excludeCurrentInput } from "./current-input";

const item = (id: string, tag: ContextItem["tag"] = "DIALOGUE_HISTORY"): ContextItem => ({
  id,
  role: "user",
  tag,
  parts: [{ type: "text", text: id }],
  sourceMessageIds: [],
  tokens: 0,
});

describe("current input", () => {
  it("takes the current input out of the loaded messages by id", () => {
    const current = userMessage(3, "now");
    const messages = deepFreeze([userMessage(1, "a"), personaMessage(2, "b"), current]);
    const result = excludeCurrentInput(messages, current);
    expect(result.value.map((message) => message.id)).toEqual(["m1", "m2"]);
    expect(result.trace).toEqual([
      {
        stage: "current-input",
        action: "moved-current-input",
        reason: "the current input was among the loaded messages; it is sent once, last",
        messageIds: ["m3"],
      },
    ]);
  });

  it("leaves the messages alone when the current input is not among them", () => {
    const messages = [userMessage(1, "a")];
    expect(excludeCurrentInput(messages, userMessage(2, "now"))).toEqual({ value: messages, trace: [] });
    expect(excludeCurrentInput(messages, userMessage(2, "now")).value).toBe(messages);
  });

  it("appends the current input last, exactly once", () => {
    const current = item("msg:m9", "CURRENT_INPUT");
    expect(appendCurrentInput([item("a"), item("b")], current)).toEqual({
      value: [item("a"), item("b"), current],
      trace: [],
    });
    const withCopy = appendCurrentInput([item("a"), item("msg:m9"), item("b")], current);
    expect(withCopy.value.map((each) => each.id)).toEqual(["a", "b", "msg:m9"]);
    expect(withCopy.trace.map((event) => event.action)).toEqual(["dropped-duplicate-input"]);
  });
});
