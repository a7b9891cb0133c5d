// The offline summariser: deterministic and extractive — one line per user turn with its first
// sentence, chained onto the previous summary's lines, capped at 40 lines with a count of what was left out.
import { describe, expect, test } from "vitest";
import type { StoredMessage, StoredSummary } from "@/lib/domain/types";
import { firstSentence, offlineSummary } from "@/lib/providers/offline-summary";

let seq = 0;
function message(
  authorType: StoredMessage["authorType"],
  text: string | null,
  authorName = authorType === "user" ? "Ada" : "Guide",
): StoredMessage {
  seq += 1;
  return {
    id: `m${seq}`,
    seq,
    authorType,
    authorUserId: null,
    authorPersonaId: null,
    authorName,
    parts: text === null ? [{ type: "media", attachmentId: "a1" }] : [{ type: "text", text }],
    replyToMessageId: null,
    status: "complete",
    summarizedBy: null,
    createdAt: "2026-01-01T00:00:00.000Z",
  };
}

function summary(content: string, messageCount: number): StoredSummary {
  return { id: "s1", content, coversThroughSeq: 10, messageCount, createdAt: "2026-01-01T00:00:00.000Z" };
}

describe("firstSentence", () => {
  const CASES: Array<[string, string]> = [
    ["Plan a trip. Then book it.", "Plan a trip."],
    ["Is it cold?  Bring a coat!", "Is it cold?"],
    ["no punctuation at all", "no punctuation at all"],
    ["  Spread\nover\n\nlines. Second.", "Spread over lines."],
    ["Version 2.5 is out. Yes.", "Version 2.5 is out."],
    [`${"x".repeat(200)}.`, `${"x".repeat(159)}…`],
  ];
  test.each(CASES)("%j → %j", (text, expected) => {
    expect(firstSentence(text)).toBe(expected);
  });
});

describe("offlineSummary", () => {
  test("one line per user turn; consecutive user messages are one turn; media-only messages give way to the next text", () => {
    const messages = [
      message("user", "Hello there. How are you?"),
      message("persona", "Fine, thanks. And you?"),
      message("user", "I want pasta."),
      message("user", "Also wine.", "Bob"),
      message("persona", "Noted."),
      message("user", null),
      message("user", "This photo is my kitchen. Cook here."),
      message("persona", "Nice."),
    ];
    expect(offlineSummary({ messages })).toBe(
      [
        "Summary of 8 messages:",
        "- Ada: Hello there.",
        "- Ada: I want pasta.",
        "- Ada: This photo is my kitchen.",
      ].join("\n"),
    );
  });

  test("chains onto an offline summary's lines and counts every message condensed so far", () => {
    const previous = summary("Summary of 4 messages:\n- Ada: One.\n- Ada: Two.", 4);
    expect(
      offlineSummary({
        messages: [message("user", "Three."), message("persona", "3")],
        previousSummary: previous,
      }),
    ).toBe("Summary of 6 messages:\n- Ada: One.\n- Ada: Two.\n- Ada: Three.");
  });

  test("an edited (non-offline) previous summary becomes one 'Earlier' line", () => {
    const previous = summary("Ada is planning a trip to Rome. She likes trains.", 12);
    expect(offlineSummary({ messages: [message("user", "Book it.")], previousSummary: previous })).toBe(
      "Summary of 13 messages:\n- Earlier: Ada is planning a trip to Rome.\n- Ada: Book it.",
    );
  });

  test("over 40 lines the oldest give way, and the count carries over to the next summary", () => {
    const turns = (from: number, count: number) =>
      Array.from({ length: count }, (_, k) => [
        message("user", `Point ${from + k}.`),
        message("persona", "ok"),
      ]).flat();
    /** 41 lines: the count, how many points were omitted, then the kept ones up to `lastKept`. */
    const expectLines = (text: string, messages: number, omitted: number, lastKept: number) => {
      const lines = text.split("\n");
      expect(lines).toHaveLength(41);
      expect(lines.slice(0, 3)).toEqual([
        `Summary of ${messages} messages:`,
        `- (${omitted} earlier points omitted)`,
        `- Ada: Point ${omitted + 1}.`,
      ]);
      expect(lines.at(-1)).toBe(`- Ada: Point ${lastKept}.`);
    };
    const first = offlineSummary({ messages: turns(1, 45) });
    expectLines(first, 90, 6, 45);
    expectLines(offlineSummary({ messages: turns(46, 2), previousSummary: summary(first, 90) }), 94, 8, 47);
  });

  test("deterministic: the same input gives the same text", () => {
    const messages = [message("user", "Same. Again."), message("persona", "Yes.")];
    expect(offlineSummary({ messages })).toBe(offlineSummary({ messages }));
  });
});
