import { describe, expect, it } from "vitest";
import type { SettingsOverride } from "@/lib/domain/settings";
import type { StoredMessage } from "@/lib/domain/types";
import {
  BOB,
  functionCallArtifact,
  personaMessage,
  settingsWith,
  summaryRecord,
  userMessage,
} from "@/tests/context/fixtures";
import {
  buildSummariserInput,
  planSummary,
  SUMMARISER_SYSTEM_PROMPT,
  truncateForSummary,
  usableWindow,
  userTurnStarts,
} from "./summary-plan";
import { countTextTokens, TOKENS_PER_MESSAGE } from "./tokens";

const MODEL = { contextWindow: 10_000, maxOutputTokens: 1_000, tokenizer: "o200k_base" as const };

/** `turns` user/persona exchanges, each message with a cached count of `tokens`. */
function exchanges(turns: number, tokens = 10): StoredMessage[] {
  const messages: StoredMessage[] = [];
  for (let i = 0; i < turns; i++) {
    messages.push(
      userMessage(i * 2 + 1, `q${i}`, { tokenCounts: { o200k_base: tokens } }),
      personaMessage(i * 2 + 2, `a${i}`, { tokenCounts: { o200k_base: tokens } }),
    );
  }
  return messages;
}

function plan(
  messages: StoredMessage[],
  settings: SettingsOverride = {},
  extra: {
    manual?: boolean;
    systemTokens?: number;
    currentInputTokens?: number;
    currentInputId?: string;
  } = {},
) {
  return planSummary({
    messages,
    summary: null,
    settings: settingsWith(settings),
    model: MODEL,
    systemTokens: extra.systemTokens ?? 0,
    currentInputTokens: extra.currentInputTokens ?? 0,
    manual: extra.manual,
    currentInputId: extra.currentInputId,
  });
}

describe("summary planning", () => {
  it("usable window = (context − reserved output) × (1 − safety margin); threshold = its thresholdPercent", () => {
    expect(usableWindow(settingsWith(), MODEL)).toBe(7_200);
    expect(usableWindow(settingsWith(), { contextWindow: 128_000, maxOutputTokens: 16_384 })).toBe(
      Math.floor((128_000 - 4_096) * 0.8),
    );
    expect(plan([]).thresholdTokens).toBe(4_608);
  });

  it("token mode: under the threshold, nothing to do", () => {
    const result = plan(exchanges(20), {}, { systemTokens: 100, currentInputTokens: 10 });
    // 40 messages × (10 + 4) = 560; (100 + 560 + 10) × 1.15 = 770.5 → 771
    expect(result).toMatchObject({
      shouldSummarise: false,
      trigger: null,
      estimatedTokens: 771,
      thresholdTokens: 4_608,
      coverMessageIds: [],
    });
    expect(result.reason).toBe(
      "estimated 771 tokens is under the threshold of 4608 (64% of the usable window)",
    );
  });

  it("token mode: at the threshold, covers everything before the last keepRecentTurns user turns", () => {
    const messages = exchanges(20, 100); // 40 × 104 = 4160 × 1.15 = 4784 ≥ 4608
    const result = plan(messages, { summary: { keepRecentTurns: 15 } });
    expect(result.shouldSummarise).toBe(true);
    expect(result.trigger).toBe("token");
    expect(result.estimatedTokens).toBe(4_784);
    expect(result.coverMessageIds).toEqual(messages.slice(0, 10).map((message) => message.id));
    expect(result.coversThroughSeq).toBe(10);
    expect(result.keptFromSeq).toBe(11);
    expect(result.reason).toBe(
      "estimated 4784 tokens reaches the threshold of 4608 (64% of the usable window): summarise 10 messages, keep the last 15 user turns from #11",
    );
  });

  it("the active summary's content counts toward the estimate", () => {
    const summary = summaryRecord({ coversThroughSeq: 0, content: "word ".repeat(100) });
    const withSummary = planSummary({
      messages: [],
      summary,
      settings: settingsWith(),
      model: MODEL,
      systemTokens: 0,
      currentInputTokens: 0,
    });
    expect(withSummary.estimatedTokens).toBe(
      Math.ceil((TOKENS_PER_MESSAGE + countTextTokens(summary.content, "o200k_base")) * 1.15),
    );
  });

  it("turn mode: consecutive user messages share a turn; fires at ≥ turnThreshold", () => {
    const messages = exchanges(6);
    messages.splice(1, 0, userMessage(1.5, "more", { author: BOB }));
    expect(userTurnStarts(messages)).toEqual([0, 3, 5, 7, 9, 11]);
    expect(plan(messages, { summary: { mode: "turn", turnThreshold: 7 } })).toMatchObject({
      shouldSummarise: false,
      reason: "6 user turns is under the threshold of 7",
      userTurns: 6,
    });
    const result = plan(messages, { summary: { mode: "turn", turnThreshold: 6, keepRecentTurns: 2 } });
    expect(result).toMatchObject({
      shouldSummarise: true,
      trigger: "turn",
      coversThroughSeq: 8,
      keptFromSeq: 9,
    });
    expect(result.coverMessageIds).toHaveLength(9);
  });

  it("turn mode ignores tokens and token mode ignores turns (modes are exclusive)", () => {
    expect(plan(exchanges(40), { summary: { mode: "token" } }).shouldSummarise).toBe(false);
    expect(
      plan(exchanges(3, 2_000), { summary: { mode: "turn", turnThreshold: 5, keepRecentTurns: 1 } })
        .shouldSummarise,
    ).toBe(false);
  });

  it("nothing to summarise when there are no more user turns than kept", () => {
    const result = plan(exchanges(3, 2_000), { summary: { keepRecentTurns: 3 } });
    expect(result.shouldSummarise).toBe(false);
    expect(result.reason).toContain(
      "but there are only 3 user turns and the last 3 stay verbatim: nothing to summarise",
    );
  });

  it("manual mode only summarises when asked; asking works in any mode", () => {
    expect(plan(exchanges(40, 500), { summary: { mode: "manual" } })).toMatchObject({
      shouldSummarise: false,
      reason: "summary mode is manual: only the Compact button or API summarises",
    });
    expect(
      plan(exchanges(4), { summary: { mode: "manual", keepRecentTurns: 1 } }, { manual: true }),
    ).toMatchObject({
      shouldSummarise: true,
      trigger: "manual",
      coversThroughSeq: 6,
      keptFromSeq: 7,
    });
  });

  it("the current input, when passed among the messages, is neither counted nor covered", () => {
    const messages = [...exchanges(2), userMessage(5, "now")];
    const result = plan(
      messages,
      { summary: { mode: "turn", turnThreshold: 5, keepRecentTurns: 1 } },
      { currentInputId: "m5", manual: true },
    );
    expect(result.userTurns).toBe(2);
    expect(result.coverMessageIds).toEqual(["m1", "m2"]);
  });

  it("summariser input: truncates long texts, names the tools used, folds in the previous summary", () => {
    const long = `${"a".repeat(1_000)}${"b".repeat(1_001)}${"c".repeat(500)}`;
    expect(truncateForSummary("x".repeat(2_000))).toBe("x".repeat(2_000));
    expect(truncateForSummary(long)).toBe(`${"a".repeat(1_000)}\n[... truncated ...]\n${"c".repeat(500)}`);
    const input = buildSummariserInput({
      messages: [
        userMessage(1, "What time is it?"),
        personaMessage(2, "It is noon.", { artifacts: ["c1", "c2"] }),
        personaMessage(3, "", { parts: [] }),
      ],
      previousSummary: summaryRecord({ coversThroughSeq: 0, content: "Before: greetings." }),
      artifacts: [
        functionCallArtifact("c1", "m2", "k1", "current_time"),
        functionCallArtifact("c2", "m2", "k2", "current_time"),
      ],
    });
    expect(input.system).toBe(SUMMARISER_SYSTEM_PROMPT);
    expect(input.prompt).toBe(
      "Summarize this conversation:\n\n[PREVIOUS SUMMARY]: Before: greetings.\n\n[USER] Ada: What time is it?\n\n[ASSISTANT] Aria: It is noon.  (tools used: current_time)",
    );
  });

  it("the summariser prompt asks for topics, decisions, open questions, next steps and preferences in under 500 words", () => {
    for (const phrase of [
      "topics",
      "decisions",
      "open questions",
      "next steps",
      "preferences",
      "under 500 words",
    ]) {
      expect(SUMMARISER_SYSTEM_PROMPT).toContain(phrase);
    }
  });
});
