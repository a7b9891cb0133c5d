import { describe, expect, it } from "vitest";
import type { ContextItem } from "@/lib/domain/types";
import { deepFreeze, personaMessage, summaryRecord, userMessage } from "@/tests/context/fixtures";
import { dropCoveredMessages, formatSummaryDate, placeSummary, summaryMarkerText } from "./summary-placement";

const item = (id: string, role: ContextItem["role"] = "user"): ContextItem => ({
  id,
  role,
  tag: role === "system" ? "SYSTEM_PROMPT" : "DIALOGUE_HISTORY",
  parts: [],
  sourceMessageIds: [],
  tokens: 0,
});

describe("summary placement", () => {
  it("the marker text: date, messages condensed, the summary, and the focus line", () => {
    expect(summaryMarkerText(summaryRecord({ coversThroughSeq: 40, messageCount: 40 }))).toBe(
      "[CONVERSATION SUMMARY - 2026-02-01 09:30] (40 messages condensed)\n\nEarlier, Ada planned a trip to Lisbon.\n\nFocus on the most recent messages below for the user's current intent. This summary provides background context only.",
    );
    expect(summaryMarkerText(summaryRecord({ coversThroughSeq: 1, messageCount: 1 }))).toContain(
      "(1 message condensed)",
    );
    expect(summaryMarkerText(summaryRecord({ coversThroughSeq: 1, messageCount: 0 }))).toMatch(
      /^\[CONVERSATION SUMMARY - 2026-02-01 09:30\]\n\n/,
    );
    expect(formatSummaryDate("not a date")).toBe("not a date");
  });

  it("a user-role SUMMARY item after the system items, before the history", () => {
    const summary = summaryRecord({ coversThroughSeq: 40 });
    const result = placeSummary(
      [
        item("system:SYSTEM_PROMPT", "system"),
        item("system:TOOL_RULES", "system"),
        item("note:persona"),
        item("msg:m41"),
      ],
      summary,
    );
    expect(result.value.map((each) => each.id)).toEqual([
      "system:SYSTEM_PROMPT",
      "system:TOOL_RULES",
      "summary:s1",
      "note:persona",
      "msg:m41",
    ]);
    expect(result.value[2]).toEqual({
      id: "summary:s1",
      role: "user",
      tag: "SUMMARY",
      parts: [{ type: "text", text: summaryMarkerText(summary) }],
      sourceMessageIds: [],
      tokens: 0,
    });
    expect(result.trace).toEqual([
      {
        stage: "summary",
        action: "placed-summary",
        reason: "summary covers messages through #40 (40 messages condensed)",
        itemIds: ["summary:s1"],
        counts: { coversThroughSeq: 40, messageCount: 40 },
      },
    ]);
  });

  it("first when there is no system item; nothing for no summary or an empty one", () => {
    expect(
      placeSummary([item("msg:m1")], summaryRecord({ coversThroughSeq: 0 })).value.map((each) => each.id),
    ).toEqual(["summary:s1", "msg:m1"]);
    const items = [item("msg:m1")];
    expect(placeSummary(items, null)).toEqual({ value: items, trace: [] });
    expect(placeSummary(items, summaryRecord({ coversThroughSeq: 1, content: " " })).value).toBe(items);
  });

  it("after a reload, covered messages loaded by mistake are dropped by seq, whatever their timestamps", () => {
    // The summary was written after the kept messages (createdAt later): sorting by timestamp would misplace it.
    const summary = summaryRecord({ coversThroughSeq: 2, createdAt: "2027-01-01T00:00:00.000Z" });
    const messages = deepFreeze([
      userMessage(1, "old"),
      personaMessage(2, "old reply"),
      userMessage(3, "kept"),
      personaMessage(4, "kept reply", { summarizedBy: null }),
    ]);
    const result = dropCoveredMessages(messages, summary);
    expect(result.value.map((message) => message.id)).toEqual(["m3", "m4"]);
    expect(result.trace).toEqual([
      {
        stage: "summary",
        action: "dropped-covered",
        reason: "2 loaded messages already covered by the summary left out",
        level: "warning",
        messageIds: ["m1", "m2"],
        counts: { messages: 2 },
      },
    ]);
  });

  it("drops messages marked summarizedBy even without an active summary; same array when nothing is covered", () => {
    expect(
      dropCoveredMessages([userMessage(1, "x", { summarizedBy: "s0" }), userMessage(2, "y")], null).value.map(
        (message) => message.id,
      ),
    ).toEqual(["m2"]);
    const messages = [userMessage(5, "x")];
    expect(dropCoveredMessages(messages, summaryRecord({ coversThroughSeq: 4 })).value).toBe(messages);
  });
});
