import { describe, expect, it } from "vitest";
import type { ContextItem, ItemPart } from "@/lib/domain/types";
import { dialogueItem, textPart } from "@/tests/context/fixtures";
import { MISSING_TOOL_OUTPUT_TEXT, pairToolCalls } from "./tool-pairing";

/** Counted items (5 tokens each unless given). */
const item = (id: string, role: ContextItem["role"], parts: ItemPart[], extra: Partial<ContextItem> = {}) =>
  dialogueItem(id, role, parts, { tokens: 5, ...extra });
const text = textPart;
const call = (id: string, name = "current_time"): ItemPart => ({
  type: "tool-call",
  toolCallId: id,
  toolName: name,
  input: {},
});
const result = (id: string, output: unknown = "noon"): ItemPart => ({
  type: "tool-result",
  toolCallId: id,
  toolName: "current_time",
  output,
});
const shape = (items: readonly ContextItem[]) => items.map((entry) => `${entry.role}:${entry.id}`);

describe("pairToolCalls", () => {
  it("keeps complete pairs untouched and says nothing", () => {
    const items = [
      item("u1", "user", [text("time?")]),
      item("a1", "assistant", [call("c1"), call("c2")]),
      item("t1", "tool", [result("c1")]),
      item("t2", "tool", [result("c2")]),
      item("a2", "assistant", [text("noon")]),
      item("input", "user", [text("thanks")], { tag: "CURRENT_INPUT" }),
    ];
    const out = pairToolCalls(items);
    expect(out.trace).toEqual([]);
    out.value.forEach((entry, index) => {
      expect(entry).toBe(items[index]);
    });
  });

  it("adds a stub output right after an interior call that has none", () => {
    const items = [
      item("u1", "user", [text("time?")]),
      item("a1", "assistant", [text("checking"), call("c1"), call("c2")]),
      item("t1", "tool", [result("c1")]),
      item("input", "user", [text("well?")], { tag: "CURRENT_INPUT" }),
    ];
    const out = pairToolCalls(items);
    expect(shape(out.value)).toEqual([
      "user:u1",
      "assistant:a1",
      "tool:a1:missing-output",
      "tool:t1",
      "user:input",
    ]);
    expect(out.value[2]).toMatchObject({
      tag: "TOOL_RESULT",
      sourceMessageIds: ["a1"],
      parts: [
        { type: "tool-result", toolCallId: "c2", toolName: "current_time", output: MISSING_TOOL_OUTPUT_TEXT },
      ],
    });
    expect(out.trace).toMatchObject([
      { action: "stubbed-missing-tool-output", details: { toolCallIds: ["c2"] } },
    ]);
  });

  it("drops an output with no call, and the item when nothing is left", () => {
    const items = [
      item("u1", "user", [text("hi")]),
      item("t0", "tool", [result("ghost")]),
      item("a1", "assistant", [call("c1")]),
      item("t1", "tool", [result("c1"), result("ghost2")]),
    ];
    const out = pairToolCalls(items);
    expect(shape(out.value)).toEqual(["user:u1", "assistant:a1", "tool:t1"]);
    expect(out.value[2]?.parts).toEqual([result("c1")]);
    expect(out.value[2]?.tokens).toBe(0);
    expect(out.trace).toMatchObject([
      { action: "dropped-orphan-tool-output", counts: { outputs: 2 }, itemIds: ["t0", "t1"] },
    ]);
  });

  it("treats an output after a user turn as orphaned and stubs its call (providers need them adjacent)", () => {
    const items = [
      item("a1", "assistant", [call("c1")]),
      item("u1", "user", [text("interrupting")]),
      item("t1", "tool", [result("c1")]),
    ];
    const out = pairToolCalls(items);
    expect(shape(out.value)).toEqual(["assistant:a1", "tool:a1:missing-output", "user:u1"]);
  });

  it("drops a duplicate output for the same call", () => {
    const items = [
      item("a1", "assistant", [call("c1")]),
      item("t1", "tool", [result("c1", "a")]),
      item("t2", "tool", [result("c1", "b")]),
    ];
    expect(shape(pairToolCalls(items).value)).toEqual(["assistant:a1", "tool:t1"]);
  });

  it("leaves a call of the current step alone at the very end", () => {
    const items = [
      item("input", "user", [text("time?")], { tag: "CURRENT_INPUT" }),
      item("a1", "assistant", [call("c1"), call("c2")]),
      item("t1", "tool", [result("c1")]),
    ];
    const out = pairToolCalls(items);
    expect(shape(out.value)).toEqual(["user:input", "assistant:a1", "tool:t1"]);
    expect(out.trace).toEqual([]);
  });

  it("stubs a call followed by more assistant text (not the frontier)", () => {
    const items = [item("a1", "assistant", [call("c1")]), item("a2", "assistant", [text("never mind")])];
    expect(shape(pairToolCalls(items).value)).toEqual([
      "assistant:a1",
      "tool:a1:missing-output",
      "assistant:a2",
    ]);
  });

  it("does not mutate its input", () => {
    const items = Object.freeze([
      Object.freeze(item("t0", "tool", [result("ghost")])),
      Object.freeze(item("u1", "user", [text("x")])),
    ]);
    const before = JSON.stringify(items);
    pairToolCalls(items);
    expect(JSON.stringify(items)).toBe(before);
  });
});
