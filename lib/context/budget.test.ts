import { describe, expect, it } from "vitest";
import { defaultSettings, type ResolvedSettings } from "@/lib/domain/settings";
import type { ContextItem, ItemPart, ModelDescriptor } from "@/lib/domain/types";
import { modelDescriptor } from "@/tests/context/fixtures";
import { fitToBudget } from "./budget";
import { ContextBudgetError, usableTokenBudget } from "./budget-limits";
import { trimToolText } from "./budget-trims";
import { elementAt } from "./indexing";
import { isPinned } from "./pinned";
import { countItemTokens } from "./tokens";

function model(contextWindow: number, maxOutputTokens = 1_000): ModelDescriptor {
  return modelDescriptor({ id: "budget-model", contextWindow, maxOutputTokens });
}
/** No reserve and no margin: usable = the context window, so the arithmetic below is plain. */
function exact(): ResolvedSettings {
  const base = defaultSettings();
  return { ...base, budget: { reservedOutputTokens: 0, safetyMarginPercent: 0 } };
}
function item(
  id: string,
  role: ContextItem["role"],
  parts: ItemPart[],
  tokens: number,
  extra: Partial<ContextItem> = {},
): ContextItem {
  return { id, role, tag: "DIALOGUE_HISTORY", parts, sourceMessageIds: [id], tokens, ...extra };
}
const text = (value: string): ItemPart => ({ type: "text", text: value });
const call = (id: string): ItemPart => ({
  type: "tool-call",
  toolCallId: id,
  toolName: "search",
  input: { q: "x" },
});
const result = (id: string, output: unknown): ItemPart => ({
  type: "tool-result",
  toolCallId: id,
  toolName: "search",
  output,
});
const ids = (items: readonly ContextItem[]) => items.map((entry) => entry.id);
const long = (size: number, fill = "x") => `HEAD${fill.repeat(size - 8)}TAIL`;

const system = item("sys", "system", [text("rules")], 10, { tag: "SYSTEM_PROMPT" });
const summary = item("summary", "user", [text("[CONVERSATION SUMMARY]")], 10, { tag: "SUMMARY" });
const input = item("input", "user", [text("now?")], 10, { tag: "CURRENT_INPUT" });

/** A past turn: user asks, assistant calls a tool, the tool answers with `resultChars` characters, assistant replies. */
function turn(n: number, resultChars: number, resultTokens: number): ContextItem[] {
  return [
    item(`u${n}`, "user", [text(`question ${n}`)], 10),
    item(`a${n}`, "assistant", [call(`c${n}`)], 10, { tag: "TOOL_CALL" }),
    item(`t${n}`, "tool", [result(`c${n}`, long(resultChars))], resultTokens, { tag: "TOOL_RESULT" }),
    item(`r${n}`, "assistant", [text(`answer ${n}`)], 10),
  ];
}

describe("usable budget", () => {
  it("is (window − reserved output) × (1 − margin), the reserve capped at 4 096 by default", () => {
    expect(usableTokenBudget(model(10_000, 8_192), defaultSettings())).toEqual({
      usable: 4_723,
      reserved: 4_096,
    });
    expect(usableTokenBudget(model(10_000, 1_000), defaultSettings())).toEqual({
      usable: 7_200,
      reserved: 1_000,
    });
  });
});

describe("trimToolText", () => {
  it("keeps 400 head + 100 tail with the trimmed-chars marker", () => {
    const trimmed = trimToolText(long(2_000), 500, 100);
    expect(trimmed.startsWith(`HEAD${"x".repeat(396)}\n\n[... trimmed 2000 chars to 500 ...]\n\n`)).toBe(
      true,
    );
    expect(trimmed.endsWith(`${"x".repeat(96)}TAIL`)).toBe(true);
    expect(trimmed.length).toBe(400 + 100 + "\n\n[... trimmed 2000 chars to 500 ...]\n\n".length);
  });
});

describe("fitToBudget", () => {
  it("counts uncounted items, trusts counted ones, and changes nothing when the items fit", () => {
    const items = [system, item("u1", "user", [text("hello there")], 0), input];
    const out = fitToBudget(items, model(1_000), exact());
    expect(out.trace).toEqual([]);
    expect(out.value.items[0]).toBe(system);
    expect(out.value.items[1]?.tokens).toBe(countItemTokens(elementAt(items, 1), "estimate"));
    expect(out.value.budget).toEqual({
      usableTokens: 1_000,
      totalTokens: 20 + elementAt(out.value.items, 1).tokens,
      reservedOutputTokens: 0,
      contextWindow: 1_000,
    });
  });

  it("trims old tool results first, oldest first, and stops as soon as the items fit", () => {
    const items = [system, ...turn(1, 2_000, 500), ...turn(2, 2_000, 500), input];
    // 20 + 2 × 530 = 1 080; trimming t1 (2 000 → ~540 chars) saves ~365 tokens.
    const out = fitToBudget(items, model(1_000), exact());
    expect(ids(out.value.items)).toEqual(ids(items));
    const t1 = out.value.items.find((entry) => entry.id === "t1");
    const t2 = out.value.items.find((entry) => entry.id === "t2");
    expect(JSON.stringify(t1?.parts[0])).toContain("[... trimmed 2000 chars to 500 ...]");
    expect(t2).toBe(items[7]);
    expect(out.value.budget.totalTokens).toBeLessThanOrEqual(1_000);
    expect(out.trace).toMatchObject([
      {
        stage: "budget",
        action: "trimmed-tool-result",
        itemIds: ["t1"],
        counts: { originalChars: 2_000, maxChars: 500 },
      },
    ]);
  });

  it("then drops the oldest whole turns, tool pairs together, never system, summary or current input", () => {
    const items = [
      system,
      summary,
      ...turn(1, 2_000, 500),
      ...turn(2, 2_000, 500),
      ...turn(3, 100, 30),
      input,
    ];
    const out = fitToBudget(items, model(150), exact());
    expect(ids(out.value.items)).toEqual(["sys", "summary", "u3", "a3", "t3", "r3", "input"]);
    const drop = out.trace.find((event) => event.action === "dropped-oldest-turns");
    expect(drop).toMatchObject({
      counts: { turns: 2, items: 8 },
      itemIds: ["u1", "a1", "t1", "r1", "u2", "a2", "t2", "r2"],
    });
    // Trims of results that were dropped afterwards reach no one and are not reported.
    expect(out.trace.filter((event) => event.action === "trimmed-tool-result")).toEqual([]);
  });

  it("trims again to 150 + 50 when dropping turns was not enough", () => {
    // The only tool result lives in the current turn (the running tool loop), which is never dropped.
    const items = [
      system,
      ...turn(1, 100, 40),
      input,
      item("a9", "assistant", [call("c9")], 10),
      item("t9", "tool", [result("c9", long(3_000))], 750),
    ];
    const out = fitToBudget(items, model(120), exact());
    expect(ids(out.value.items)).toEqual(["sys", "input", "a9", "t9"]);
    const output = (elementAt(out.value.items, 3).parts[0] as { output: string }).output;
    expect(output).toContain("[... trimmed 3000 chars to 200 ...]");
    expect(output.startsWith(`HEAD${"x".repeat(146)}\n\n`)).toBe(true);
    expect(output.endsWith(`${"x".repeat(46)}TAIL`)).toBe(true);
    expect(out.trace.map((event) => `${event.action}:${event.counts?.maxChars ?? ""}`)).toEqual([
      "trimmed-tool-result:500",
      "dropped-oldest-turns:",
      "trimmed-tool-result:200",
    ]);
  });

  it("trims JSON tool outputs on their JSON text", () => {
    const items = [
      item("a1", "assistant", [call("c1")], 10),
      item("t1", "tool", [result("c1", { rows: "y".repeat(3_000) })], 800),
      input,
    ];
    const out = fitToBudget(items, model(300), exact());
    expect(typeof (elementAt(out.value.items, 1).parts[0] as { output: unknown }).output).toBe("string");
  });

  it("fails with a typed error when the current input and system items alone do not fit", () => {
    const items = [
      item("sys", "system", [text("rules")], 600, { tag: "SYSTEM_PROMPT" }),
      ...turn(1, 100, 40),
      item("input", "user", [text("x")], 500, { tag: "CURRENT_INPUT" }),
    ];
    let error: unknown;
    try {
      fitToBudget(items, model(2_000, 1_000), defaultSettings());
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ContextBudgetError);
    const budgetError = error as ContextBudgetError;
    expect(budgetError.code).toBe("context_too_large");
    expect(budgetError.message).toBe(
      "Context too large for budget-model: the current input and system prompt need 1100 tokens but only 800 of the 2000-token window are usable (1000 reserved for output, 20% safety margin).",
    );
    expect(budgetError.details).toMatchObject({ requiredTokens: 1_100, usableTokens: 800 });
  });

  it("fails rather than send an over-long request when pinned items still overflow after every cut", () => {
    const items = [
      system,
      item("summary", "user", [text("huge")], 5_000, { tag: "SUMMARY" }),
      ...turn(1, 100, 40),
      input,
    ];
    expect(() => fitToBudget(items, model(1_000), exact())).toThrow(
      /after trimming tool results and dropping every droppable turn, 5020 tokens remain/,
    );
  });

  it("pins system, summary, current input and context notes", () => {
    expect([system, summary, input, item("n", "user", [], 1, { tag: "CONTEXT_NOTE" })].every(isPinned)).toBe(
      true,
    );
    expect(isPinned(item("h", "user", [], 1))).toBe(false);
  });

  it("keeps relocated media with the turn it came from", () => {
    const items = [
      item("u1", "user", [text("draw")], 10),
      item("a1", "assistant", [text("done")], 10),
      item("a1:media", "user", [text("[System: The following image was sent by T.]")], 800, {
        sourceMessageIds: ["a1"],
      }),
      item("u2", "user", [text("nice")], 10),
      item("a2", "assistant", [text("thanks")], 10),
      input,
    ];
    const out = fitToBudget(items, model(100), exact());
    expect(ids(out.value.items)).toEqual(["u2", "a2", "input"]);
  });

  it("drops consecutive user messages as one turn, but never with the current input", () => {
    const items = [
      item("u1", "user", [text("one")], 100),
      item("u2", "user", [text("two")], 100),
      item("a1", "assistant", [text("reply")], 100),
      item("u3", "user", [text("unanswered")], 100),
      input,
    ];
    const some = fitToBudget(items, model(150), exact());
    expect(ids(some.value.items)).toEqual(["u3", "input"]);
    expect(some.trace.find((event) => event.action === "dropped-oldest-turns")?.counts).toMatchObject({
      turns: 1,
      items: 3,
    });
    const most = fitToBudget(items, model(50), exact());
    expect(ids(most.value.items)).toEqual(["input"]);
    expect(most.trace.find((event) => event.action === "dropped-oldest-turns")?.counts).toMatchObject({
      turns: 2,
      items: 4,
    });
  });

  it("keeps a media notice with the assistant turn it precedes", () => {
    const items = [
      item("u1", "user", [text("q")], 10),
      item("a1", "assistant", [text("old")], 10),
      item("a2:media-notice", "user", [text("[System: …]")], 10, {
        tag: "MEDIA_NOTICE",
        sourceMessageIds: ["a2"],
      }),
      item("a2", "assistant", [text("drawn")], 10),
      item("u3", "user", [text("nice")], 10),
      input,
    ];
    const out = fitToBudget(items, model(35), exact());
    expect(ids(out.value.items)).toEqual(["u3", "input"]);
    expect(fitToBudget(items, model(45), exact()).value.items.map((entry) => entry.id)).toEqual([
      "a2:media-notice",
      "a2",
      "u3",
      "input",
    ]);
  });

  it("never mutates its input and is deterministic", () => {
    const items = Object.freeze(
      [system, ...turn(1, 2_000, 500), ...turn(2, 2_000, 500), input].map((entry) => Object.freeze(entry)),
    );
    const before = JSON.stringify(items);
    const first = fitToBudget(items, model(500), exact());
    const second = fitToBudget(items, model(500), exact());
    expect(JSON.stringify(items)).toBe(before);
    expect(JSON.stringify(first)).toBe(JSON.stringify(second));
  });
});
