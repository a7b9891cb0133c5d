import { describe, expect, test } from "vitest";
import { prefixStability } from "./payload-diff";
import { formatUsd } from "./pricing";
import {
  cacheHitRatio,
  compareCacheWithPrefix,
  describeAttemptCache,
  describeCacheHitRatio,
  describeCacheMiss,
  explainCacheMiss,
  stablePrefixTokens,
} from "./prompt-cache";

describe("prompt cache figures", () => {
  test("an attempt's reads, writes and breakpoints in words", () => {
    expect(
      describeAttemptCache({ inputTokens: 2_000, cachedInputTokens: 1_200, cacheWriteTokens: 300 }, [
        "system",
        "summary",
        "history",
      ]),
    ).toBe(
      "cache: 1,200 read, 300 written; 3 breakpoints: after the system block, after the summary, after the history",
    );
    expect(describeAttemptCache({ inputTokens: 10, cachedInputTokens: 0 }, [])).toBe(
      "cache: 0 read; no breakpoints sent",
    );
    expect(describeAttemptCache(null, ["system"])).toBe(
      "cache: nothing reported; 1 breakpoint: after the system block",
    );
  });

  test("the hit ratio is cached input over input, across the calls that reported input", () => {
    const hit = cacheHitRatio([
      { inputTokens: 1_000, cachedInputTokens: 0 },
      { inputTokens: 2_000, cachedInputTokens: 1_500 },
      null,
      { outputTokens: 5 },
    ]);
    expect(hit).toEqual({ cachedTokens: 1_500, inputTokens: 3_000, ratio: 0.5 });
    expect(hit && describeCacheHitRatio(hit)).toBe(
      "cache hit ratio 50% (1,500 of 3,000 input tokens read from the cache)",
    );
    expect(cacheHitRatio([null, {}])).toBeNull();
  });

  test("the stable prefix is the leading run of unchanged items", () => {
    const entry = (change: string, tokens: number) => ({ change, item: { tokens } });
    expect(
      stablePrefixTokens([entry("same", 800), entry("same", 200), entry("changed", 50), entry("same", 9)]),
    ).toBe(1_000);
    expect(stablePrefixTokens([entry("added", 5), entry("same", 800)])).toBe(0);
  });

  test("reads and the unchanged prefix agree within a quarter, and disagreement is said in words", () => {
    expect(compareCacheWithPrefix(1_000, { inputTokens: 1_500, cachedInputTokens: 900 })).toMatchObject({
      agree: true,
    });
    expect(compareCacheWithPrefix(1_800, { inputTokens: 2_000, cachedInputTokens: 0 })).toEqual({
      agree: false,
      message:
        "The provider read 0 cached tokens although 1,800 tokens of prefix were unchanged. The cache may have expired (minutes), another model may have answered before, or the provider was not asked to cache it.",
    });
    expect(compareCacheWithPrefix(300, { inputTokens: 500, cachedInputTokens: 0 })?.message).toContain(
      "usually too short to cache",
    );
    expect(compareCacheWithPrefix(100, { inputTokens: 5_000, cachedInputTokens: 4_000 })).toMatchObject({
      agree: false,
    });
    expect(compareCacheWithPrefix(100, null)).toBeNull();
  });
});

describe("why the cache missed: the first change against the previous payload", () => {
  type Item = {
    id: string;
    role: string;
    tag: string;
    parts: { type: "text"; text: string }[];
    tokens: number;
  };
  const item = (id: string, tag: string, text: string, tokens = 100, role = "user"): Item => ({
    id,
    role,
    tag,
    parts: [{ type: "text", text }],
    tokens,
  });
  const body = (items: Item[]) =>
    JSON.stringify({ messages: items.map((entry) => ({ role: entry.role, content: entry.parts[0].text })) });

  const system = item("system", "SYSTEM_PROMPT", "You are a guide.", 500, "system");
  const memories = item("memories", "CORE_MEMORIES", "Ada likes trams.", 50, "system");
  const summary = item("summary", "SUMMARY", "Earlier: Lisbon.", 300, "system");
  const history = [
    item("m1", "DIALOGUE_HISTORY", "Q1"),
    item("m2", "DIALOGUE_HISTORY", "A1", 100, "assistant"),
  ];
  const note = item("note", "CONTEXT_NOTE", "Be brief.", 20, "system");
  const asked = item("m3", "CURRENT_INPUT", "Q2", 10);
  const previous = [system, summary, history[0], note, history[1], asked];
  // The next turn, unchanged: Q2 is history now, its reply and Q3 are added after it.
  /** `items` with the text of item `id` replaced by `value`. */
  const withText = (items: Item[], id: string, value: string) =>
    items.map((entry) =>
      entry.id === id ? { ...entry, parts: [{ type: "text" as const, text: value }] } : entry,
    );
  const movedOn = [
    system,
    summary,
    history[0],
    note,
    history[1],
    { ...asked, tag: "DIALOGUE_HISTORY" },
    item("m4", "DIALOGUE_HISTORY", "A2", 100, "assistant"),
    item("m5", "CURRENT_INPUT", "Q3", 10),
  ];
  const prices = { inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 8 };

  const cases: Array<{
    name: string;
    current: Item[];
    reason: string | null;
    itemId?: string;
    tokens: number;
  }> = [
    { name: "nothing changed", current: movedOn, reason: null, tokens: 0 },
    {
      name: "summary replaced",
      current: withText(movedOn, "summary", "Earlier: Porto."),
      reason: "the summary changed",
      itemId: "summary",
      tokens: 300 + 100 + 20 + 100 + 10,
    },
    {
      name: "note moved",
      current: [
        system,
        summary,
        history[0],
        history[1],
        { ...asked, tag: "DIALOGUE_HISTORY" },
        note,
        item("m5", "CURRENT_INPUT", "Q3", 10),
      ],
      reason: "the context note moved",
      itemId: "note",
      tokens: 100 + 10 + 20,
    },
    {
      name: "memory added",
      current: [system, memories, ...movedOn.slice(1)],
      reason: "the memory block appeared",
      itemId: "memories",
      tokens: 50 + 300 + 100 + 20 + 100 + 10,
    },
    {
      name: "persona edited",
      current: withText(movedOn, "system", "You are a strict guide."),
      reason: "the persona's prompt changed",
      itemId: "system",
      tokens: 500 + 300 + 100 + 20 + 100 + 10,
    },
  ];

  test.each(cases)("$name", ({ current, reason, itemId, tokens }) => {
    const stableBytes = prefixStability(body(previous), body(current)).stableBytes;
    const explanation = explainCacheMiss(previous, current, stableBytes, prices);
    expect(explanation.reusablePrefixBytes).toBe(stableBytes);
    expect(explanation.missedInputTokens).toBe(tokens);
    expect(explanation.missCostUsd).toBeCloseTo((tokens * 1.5) / 1_000_000, 12);
    if (reason === null) {
      expect(explanation.firstDivergence).toBeNull();
      expect(describeCacheMiss(explanation)).toBe(
        "cache: nothing before the new turn changed since the previous request",
      );
      return;
    }
    // The bodies first differ inside the changed item's message.
    const changedText = (current.find((entry) => entry.id === itemId) as Item).parts[0].text;
    expect(body(current).indexOf(changedText) + changedText.length).toBeGreaterThan(stableBytes);
    expect(explanation.firstDivergence).toEqual({ byteOffset: stableBytes, itemId, reason });
    expect(describeCacheMiss(explanation)).toBe(
      `cache miss: ${reason} at byte ${stableBytes.toLocaleString("en-US")}; about ${tokens.toLocaleString("en-US")} tokens sent again, ${formatUsd((tokens * 1.5) / 1_000_000)}`,
    );
  });
});

describe("the cache-miss sentence", () => {
  const summaryChanged = { byteOffset: 4_211, itemId: "summary", reason: "the summary changed" };
  test.each([
    {
      name: "the issue's example: tokens and dollars",
      missedInputTokens: 3_100,
      missCostUsd: 0.009,
      sentence: "cache miss: the summary changed at byte 4,211; about 3,100 tokens sent again, $0.009",
    },
    {
      name: "a fraction of a cent, never in exponent notation",
      missedInputTokens: 12,
      missCostUsd: 0.00000012,
      sentence: "cache miss: the summary changed at byte 4,211; about 12 tokens sent again, $0.00000012",
    },
    {
      name: "a dollar and more, to the cent",
      missedInputTokens: 800_000,
      missCostUsd: 1.2,
      sentence: "cache miss: the summary changed at byte 4,211; about 800,000 tokens sent again, $1.20",
    },
    {
      name: "no prices: the tokens alone",
      missedInputTokens: 3_100,
      missCostUsd: null,
      sentence: "cache miss: the summary changed at byte 4,211; about 3,100 tokens sent again",
    },
  ])("$name", ({ missedInputTokens, missCostUsd, sentence }) => {
    expect(
      describeCacheMiss({
        reusablePrefixBytes: 4_211,
        firstDivergence: summaryChanged,
        missedInputTokens,
        missCostUsd,
      }),
    ).toBe(sentence);
  });
});
