import { describe, expect, it } from "vitest";
import type { ContextItem, ItemPart } from "@/lib/domain/types";
import { deepFreeze, dialogueItem, textPart } from "@/tests/context/fixtures";
import { MAX_EXPANSION_MULTIPLE, stripUnresolvedToolParts, windowHistory } from "./history-window";

/** A dialogue item of message `u1`, `a2`…: its id is `msg:` and the message id, its text the message id. */
const message = (role: "user" | "assistant", messageId: string): ContextItem => ({
  ...dialogueItem(`msg:${messageId}`, role, [textPart(messageId)]),
  sourceMessageIds: [messageId],
});
const user = (n: number) => message("user", `u${n}`);
const assistant = (n: number) => message("assistant", `a${n}`);
/** Half of tool exchange `n`: the call or its output, both from message `t<n>`. */
const toolItem = (id: string, role: "assistant" | "tool", part: ItemPart, n: number): ContextItem => ({
  id,
  role,
  tag: part.type === "tool-call" ? "TOOL_CALL" : "TOOL_RESULT",
  parts: [part],
  sourceMessageIds: [`t${n}`],
  tokens: 0,
});
const call = (n: number, callId = `k${n}`) =>
  toolItem(
    `artifact:c${n}`,
    "assistant",
    { type: "tool-call", toolCallId: callId, toolName: "t", input: {} },
    n,
  );
const output = (n: number, callId = `k${n}`) =>
  toolItem(
    `artifact:o${n}`,
    "tool",
    { type: "tool-result", toolCallId: callId, toolName: "t", output: "r" },
    n,
  );
const storedSystem = (): ContextItem => ({
  id: "msg:s0",
  role: "user",
  tag: "DIALOGUE_HISTORY",
  parts: [{ type: "text", text: "[System: scenario]" }],
  sourceMessageIds: ["s0"],
  sender: { type: "system", name: "System" },
  tokens: 0,
});
const systemRole = (): ContextItem => ({
  id: "sys",
  role: "system",
  tag: "SYSTEM_PROMPT",
  parts: [{ type: "text", text: "anchor" }],
  sourceMessageIds: [],
  tokens: 0,
});

function alternating(pairs: number): ContextItem[] {
  const items: ContextItem[] = [];
  for (let i = 1; i <= pairs; i++) items.push(user(i), assistant(i));
  return items;
}

const ids = (items: ContextItem[]) => items.map((item) => item.id);

describe("history window", () => {
  it("caps to the trailing maxItems", () => {
    const result = windowHistory(deepFreeze(alternating(5)), 4);
    expect(ids(result.value)).toEqual(["msg:u4", "msg:a4", "msg:u5", "msg:a5"]);
    expect(result.trace).toEqual([
      {
        stage: "window",
        action: "windowed",
        reason: "windowed 10 → 4 items",
        counts: { before: 10, after: 4, maxItems: 4, dropped: 6, widenedBy: 0 },
        details: { firstDroppedItemId: "msg:u1", lastDroppedItemId: "msg:a3" },
      },
    ]);
  });

  it.each([
    { name: "uncapped (null)", maxItems: null, length: 10 },
    { name: "at max - 1", maxItems: 11, length: 10 },
    { name: "at max", maxItems: 10, length: 10 },
  ])("passes arrays at or under the cap unchanged, same reference: $name", ({ maxItems, length }) => {
    const items = alternating(length / 2);
    const result = windowHistory(items, maxItems);
    expect(result.value).toBe(items);
    expect(result.trace).toEqual([]);
  });

  it("returns a fresh array at max + 1", () => {
    const items = alternating(5).slice(0, 9);
    const result = windowHistory(items, 8);
    expect(result.value).not.toBe(items);
    expect(result.value).toHaveLength(8);
  });

  it("custom maxItems", () => {
    expect(ids(windowHistory(alternating(5), 2).value)).toEqual(["msg:u5", "msg:a5"]);
  });

  it("widens back for a missing user message", () => {
    const items = [user(1), assistant(1), assistant(2), assistant(3), assistant(4)];
    const result = windowHistory(items, 2);
    expect(ids(result.value)).toEqual(["msg:u1", "msg:a1", "msg:a2", "msg:a3", "msg:a4"]);
    expect(result.trace).toEqual([]); // widened back to the start: nothing dropped
  });

  it("widens back for a missing assistant message and says so", () => {
    const items = [user(0), assistant(1), user(2), user(3), user(4)];
    const result = windowHistory(items, 2);
    expect(ids(result.value)).toEqual(["msg:a1", "msg:u2", "msg:u3", "msg:u4"]);
    expect(result.trace[0]?.reason).toBe("windowed 5 → 2 items (expanded to 4 for the minimum exchange)");
    expect(result.trace[0]?.counts).toEqual({ before: 5, after: 4, maxItems: 2, dropped: 1, widenedBy: 2 });
  });

  it("does not widen when both roles are present", () => {
    expect(ids(windowHistory(alternating(4), 2).value)).toEqual(["msg:u4", "msg:a4"]);
  });

  it("tool items do not count as an exchange; widening is capped at 4 × maxItems (a tool-only burst)", () => {
    const items: ContextItem[] = [user(0), assistant(0)];
    for (let i = 1; i <= 20; i++) items.push(call(i), output(i));
    const result = windowHistory(items, 4);
    expect(result.value.length).toBeLessThanOrEqual(MAX_EXPANSION_MULTIPLE * 4);
    expect(ids(result.value)[0]).toBe("artifact:c13");
    expect(result.trace[0]?.reason).toBe(
      "windowed 42 → 4 items (expanded to 16 for the minimum exchange) (expansion capped at 4 × 4; the window may lack a user or assistant message)",
    );
    expect(result.trace[0]?.details).toEqual({
      firstDroppedItemId: "msg:u0",
      lastDroppedItemId: "artifact:o12",
      capped: true,
      uncappedStart: 0,
    });
  });

  it.each([
    { name: "a system-role item", anchor: systemRole() },
    { name: "a stored system message", anchor: storedSystem() },
  ])("keeps a leading system anchor that fell outside: $name", ({ anchor }) => {
    const items = [anchor, ...alternating(5)];
    const result = windowHistory(items, 4);
    expect(ids(result.value)).toEqual([anchor.id, "msg:u4", "msg:a4", "msg:u5", "msg:a5"]);
    expect(result.trace.map((event) => event.action)).toEqual(["windowed", "kept-anchor"]);
  });

  it("looks for the anchor among the first 4 items only", () => {
    const items = [...alternating(2), storedSystem(), ...alternating(5)];
    expect(ids(windowHistory(items, 2).value)).toEqual(["msg:u5", "msg:a5"]);
  });

  it("strips a call whose output is just past the slice start, and an output left behind", () => {
    // [u1, a1, c2, o2, c3, a3, u4, a4]: window 5 starts at o2's... take maxItems 5 → [o2, c3, a3, u4, a4]
    const items = [user(1), assistant(1), call(2), output(2), call(3), assistant(3), user(4), assistant(4)];
    const result = windowHistory(items, 5);
    expect(ids(result.value)).toEqual(["msg:a3", "msg:u4", "msg:a4"]);
    expect(result.trace[1]).toEqual({
      stage: "window",
      action: "stripped-orphan-tool-parts",
      reason: "dropped 2 tool calls or outputs left unpaired by the window",
      itemIds: ["artifact:o2", "artifact:c3"],
      details: { toolCallIds: ["k2", "k3"] },
    });
  });

  it("the latest user message is always kept and no orphan is ever emitted", () => {
    const items = [
      user(1),
      call(1),
      output(1),
      assistant(1),
      user(2),
      call(2),
      output(2),
      call(3),
      output(3),
      assistant(2),
      user(3),
    ];
    for (let max = 2; max <= items.length; max++) {
      const result = windowHistory(items, max).value;
      expect(result[result.length - 1]?.id).toBe("msg:u3");
      const calls = result.flatMap((item) =>
        item.parts
          .filter((part) => part.type === "tool-call")
          .map((part) => (part as { toolCallId: string }).toolCallId),
      );
      const outputs = result.flatMap((item) =>
        item.parts
          .filter((part) => part.type === "tool-result")
          .map((part) => (part as { toolCallId: string }).toolCallId),
      );
      expect(new Set(calls)).toEqual(new Set(outputs));
    }
  });

  it("stripUnresolvedToolParts keeps paired parts of a partly orphaned item", () => {
    const mixed: ContextItem = {
      ...call(1),
      parts: [
        { type: "tool-call", toolCallId: "a", toolName: "t", input: {} },
        { type: "tool-call", toolCallId: "b", toolName: "t", input: {} },
      ],
    };
    const result = stripUnresolvedToolParts([mixed, output(1, "a")]);
    expect(result.items[0]?.parts).toEqual([
      { type: "tool-call", toolCallId: "a", toolName: "t", input: {} },
    ]);
    expect(result.strippedCallIds).toEqual(["b"]);
    const paired = [call(1), output(1)];
    expect(stripUnresolvedToolParts(paired).items).toBe(paired);
  });
});
