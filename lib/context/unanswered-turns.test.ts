import { describe, expect, it } from "vitest";
import type { StoredMessage } from "@/lib/domain/types";
import { buildInput, deepFreeze, personaMessage, userMessage, viewItems } from "@/tests/context/fixtures";
import { buildContext } from "./build-context";
import { elementAt } from "./indexing";
import { messageText } from "./messages";
import { markUnansweredTurns, UNANSWERED_NOTICE } from "./unanswered-turns";

const failed = (seq: number, answers: string) =>
  personaMessage(seq, "", { status: "error", replyToMessageId: answers });

describe("markUnansweredTurns", () => {
  const table: {
    name: string;
    history: StoredMessage[];
    expected: [string, string][];
    actions: string[];
  }[] = [
    {
      name: "nothing went wrong: unchanged, no event",
      history: [userMessage(1, "Hi"), personaMessage(2, "Hello", { replyToMessageId: "m1" })],
      expected: [
        ["m1", "Hi"],
        ["m2", "Hello"],
      ],
      actions: [],
    },
    {
      name: "a failed reply: dropped, and its message notes that it got no reply",
      history: [userMessage(1, "Are you there?"), failed(2, "m1")],
      expected: [["m1", `Are you there?\n${UNANSWERED_NOTICE}`]],
      actions: ["unanswered"],
    },
    {
      name: "a failed reply in the middle of the history",
      history: [
        userMessage(1, "First"),
        failed(2, "m1"),
        userMessage(3, "Second"),
        personaMessage(4, "Answer", { replyToMessageId: "m3" }),
      ],
      expected: [
        ["m1", `First\n${UNANSWERED_NOTICE}`],
        ["m3", "Second"],
        ["m4", "Answer"],
      ],
      actions: ["unanswered"],
    },
    {
      name: "a failed reply that still streamed text is kept as it is (it was shown)",
      history: [
        userMessage(1, "Q"),
        personaMessage(2, "Half an ans", { status: "error", replyToMessageId: "m1" }),
      ],
      expected: [
        ["m1", "Q"],
        ["m2", "Half an ans"],
      ],
      actions: [],
    },
    {
      name: "a stopped reply is sent as shown, and traced",
      history: [
        userMessage(1, "Count"),
        personaMessage(2, "one two", { status: "stopped", replyToMessageId: "m1" }),
      ],
      expected: [
        ["m1", "Count"],
        ["m2", "one two"],
      ],
      actions: ["stopped-reply"],
    },
    {
      name: "an interrupted reply is sent as stored, and traced",
      history: [
        userMessage(1, "Go"),
        personaMessage(2, "partial", { status: "interrupted", replyToMessageId: "m1" }),
      ],
      expected: [
        ["m1", "Go"],
        ["m2", "partial"],
      ],
      actions: ["interrupted-reply"],
    },
  ];

  it.each(table)("$name", ({ history, expected, actions }) => {
    const { value, trace } = markUnansweredTurns(deepFreeze(history));
    expect(value.map((message) => [message.id, messageText(message)])).toEqual(expected);
    expect(trace.map((event) => event.action)).toEqual(actions);
    expect(trace.every((event) => event.stage === "unanswered")).toBe(true);
  });

  it("the noted message loses its cached token counts, so the budget counts it with the notice", () => {
    const question = userMessage(1, "Are you there?", { tokenCounts: { o200k_base: 4 } });
    const noted = elementAt(markUnansweredTurns([question, failed(2, "m1")]).value, 0);
    expect(noted.tokenCounts).toBeUndefined();
    expect(question.tokenCounts).toEqual({ o200k_base: 4 });
  });
});

describe("in phase A", () => {
  it("the model reads the unanswered message with its notice, then the next message, never an empty reply", () => {
    const base = buildContext(
      buildInput({
        messages: [userMessage(1, "Are you there?"), failed(2, "m1")],
        currentInput: userMessage(3, "Hello again?"),
      }),
    );
    const history = viewItems(base.items).filter((item) => item.tag !== "SYSTEM_PROMPT");
    expect(history.map((item) => [item.role, item.text])).toEqual([
      ["user", `Are you there?\n${UNANSWERED_NOTICE}`],
      ["user", "Hello again?"],
    ]);
    expect(base.trace.filter((event) => event.stage === "unanswered").map((event) => event.reason)).toEqual([
      "message #1 got no reply (the reply failed): noted for the model",
    ]);
  });
});
