import { describe, expect, it } from "vitest";
import type { StoredMessage } from "@/lib/domain/types";
import {
  BOB,
  deepFreeze,
  imageAttachment,
  personaMessage,
  systemMessage,
  userMessage,
} from "@/tests/context/fixtures";
import { storedMedia, storedText } from "@/tests/context/stored-parts";
import { collapseRuns } from "./collapse-runs";
import { isPureText, messageText, sameAuthor } from "./messages";

const ids = (entries: ReturnType<typeof collapseRuns>["value"]) =>
  entries.map((entry) =>
    entry.kind === "message" ? entry.messages.map((message) => message.id).join("+") : entry.id,
  );

describe("collapseRuns", () => {
  const table: { name: string; messages: StoredMessage[]; expected: string[]; events: number }[] = [
    { name: "empty history", messages: [], expected: [], events: 0 },
    {
      name: "alternating authors stay apart",
      messages: [userMessage(1, "a"), personaMessage(2, "b"), userMessage(3, "c")],
      expected: ["m1", "m2", "m3"],
      events: 0,
    },
    {
      name: "same author pure text collapses",
      messages: [userMessage(1, "a"), userMessage(2, "b"), userMessage(3, "c")],
      expected: ["m1+m2+m3"],
      events: 1,
    },
    {
      name: "different humans do not collapse",
      messages: [userMessage(1, "a"), userMessage(2, "b", { author: BOB })],
      expected: ["m1", "m2"],
      events: 0,
    },
    {
      name: "a message with media breaks the run and stays alone",
      messages: [
        userMessage(1, "a"),
        userMessage(2, "look", { media: ["i1"] }),
        userMessage(3, "b"),
        userMessage(4, "c"),
      ],
      expected: ["m1", "m2", "m3+m4"],
      events: 1,
    },
    {
      name: "a message with artifacts is never collapsed",
      messages: [
        personaMessage(1, "a"),
        personaMessage(2, "b", { artifacts: ["x1"] }),
        personaMessage(3, "c"),
      ],
      expected: ["m1", "m2", "m3"],
      events: 0,
    },
    {
      name: "persona runs collapse too",
      messages: [personaMessage(1, "a"), personaMessage(2, "b")],
      expected: ["m1+m2"],
      events: 1,
    },
    {
      name: "system notices collapse with each other",
      messages: [systemMessage(1, "x"), systemMessage(2, "y")],
      expected: ["m1+m2"],
      events: 1,
    },
    {
      name: "a message with no parts is not pure text",
      messages: [userMessage(1, "a"), userMessage(2, "", { parts: [] }), userMessage(3, "b")],
      expected: ["m1", "m2", "m3"],
      events: 0,
    },
  ];
  it.each(table)("$name", ({ messages, expected, events }) => {
    const result = collapseRuns(deepFreeze(messages));
    expect(ids(result.value)).toEqual(expected);
    expect(result.trace).toHaveLength(events);
  });

  it("reports each collapsed run with its messages", () => {
    const { trace } = collapseRuns([userMessage(1, "a"), userMessage(2, "b"), personaMessage(3, "c")]);
    expect(trace).toEqual([
      {
        stage: "collapse",
        action: "collapsed",
        reason: "2 consecutive text messages by Ada collapsed into 1",
        itemIds: ["msg:m1"],
        messageIds: ["m1", "m2"],
        counts: { messages: 2 },
      },
    ]);
  });

  it("helpers: pure text, same author, text joined by newlines", () => {
    expect(isPureText(userMessage(1, "a"))).toBe(true);
    expect(isPureText(userMessage(1, "a", { media: ["i"] }))).toBe(false);
    expect(sameAuthor(userMessage(1, "a"), userMessage(2, "b"))).toBe(true);
    expect(sameAuthor(userMessage(1, "a"), personaMessage(2, "b"))).toBe(false);
    expect(
      messageText(
        userMessage(1, "", {
          parts: [storedText("x"), storedMedia("i"), storedText("y")],
        }),
      ),
    ).toBe("x\ny");
    expect(imageAttachment("i", "m1").kind).toBe("image");
  });
});
