// Phase B's tool pairing over the whole request (docs/architecture.md#tool-pairing), after the Open WebUI pipe's
// tool-call pair validation. Providers reject a call without its output and an output without its call, so:
// an interior call with no output gets a stub output right after it; an output with no call earlier in the same
// exchange (since the last user or system item) is dropped; a call at the very end (the current step, still
// running) is left alone. One forward pass plus one assembly pass.

import type { PhaseBContext } from "./phases";
import type { Stage, StageResult } from "./stage";
import type { ContextItem, ItemPart, TraceEvent } from "./types";

/** Seed 004's stub text for a call whose output was never recorded. */
export const MISSING_TOOL_OUTPUT_TEXT = "[Tool output unavailable -- not recorded in conversation history.]";

interface OpenCall {
  itemIndex: number;
  toolName: string;
  answered: boolean;
}

function closesExchange(item: ContextItem): boolean {
  return item.role === "user" || item.role === "system";
}

export function pairToolCalls(items: readonly ContextItem[]): StageResult<readonly ContextItem[]> {
  // Which tool-result parts to drop (by item index → part indexes) and which stubs to add after which item.
  const droppedParts = new Map<number, Set<number>>();
  const droppedCallIds: string[] = [];
  const droppedFromItems: string[] = [];
  const stubsAfter = new Map<number, { toolCallId: string; toolName: string }[]>();
  const open = new Map<string, OpenCall>();

  const stubUnanswered = (calls: Map<string, OpenCall>, keep: (call: OpenCall) => boolean) => {
    for (const [toolCallId, call] of calls) {
      if (call.answered || keep(call)) continue;
      const list = stubsAfter.get(call.itemIndex) ?? [];
      list.push({ toolCallId, toolName: call.toolName });
      stubsAfter.set(call.itemIndex, list);
    }
  };

  let lastNonToolIndex = -1;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    if (item.role !== "tool") lastNonToolIndex = index;
    if (closesExchange(item) && open.size > 0) {
      stubUnanswered(open, () => false);
      open.clear();
    }
    for (let partIndex = 0; partIndex < item.parts.length; partIndex += 1) {
      const part = item.parts[partIndex];
      if (part.type === "tool-call") {
        if (!open.has(part.toolCallId))
          open.set(part.toolCallId, { itemIndex: index, toolName: part.toolName, answered: false });
      } else if (part.type === "tool-result") {
        const call = open.get(part.toolCallId);
        if (call && !call.answered) {
          call.answered = true;
          continue;
        }
        const set = droppedParts.get(index) ?? new Set<number>();
        set.add(partIndex);
        droppedParts.set(index, set);
        droppedCallIds.push(part.toolCallId);
        droppedFromItems.push(item.id);
      }
    }
  }
  // Calls after the last non-tool item belong to the step still running: the SDK adds their outputs itself.
  stubUnanswered(open, (call) => call.itemIndex >= lastNonToolIndex);

  if (droppedParts.size === 0 && stubsAfter.size === 0) return { value: items, trace: [] };

  const out: ContextItem[] = [];
  const stubbedItemIds: string[] = [];
  const stubbedCallIds: string[] = [];
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    const drop = droppedParts.get(index);
    if (drop) {
      const parts = item.parts.filter((_, partIndex) => !drop.has(partIndex));
      if (parts.length > 0) out.push({ ...item, parts, tokens: 0 });
    } else out.push(item);

    const stubs = stubsAfter.get(index);
    if (stubs) {
      const parts: ItemPart[] = stubs.map((stub) => ({
        type: "tool-result",
        toolCallId: stub.toolCallId,
        toolName: stub.toolName,
        output: MISSING_TOOL_OUTPUT_TEXT,
      }));
      out.push({
        id: `${item.id}:missing-output`,
        role: "tool",
        tag: "TOOL_RESULT",
        parts,
        sourceMessageIds: item.sourceMessageIds,
        tokens: 0,
      });
      stubbedItemIds.push(item.id);
      for (const stub of stubs) stubbedCallIds.push(stub.toolCallId);
    }
  }

  const events: TraceEvent[] = [];
  if (stubbedCallIds.length > 0) {
    events.push({
      stage: "normalise",
      action: "stubbed-missing-tool-output",
      reason: `${stubbedCallIds.length} tool call(s) had no recorded output; a stub output saying so was added after each`,
      level: "warning",
      itemIds: stubbedItemIds,
      counts: { calls: stubbedCallIds.length },
      details: { toolCallIds: stubbedCallIds },
    });
  }
  if (droppedCallIds.length > 0) {
    events.push({
      stage: "normalise",
      action: "dropped-orphan-tool-output",
      reason: `${droppedCallIds.length} tool output(s) had no matching call before them and were dropped`,
      level: "warning",
      itemIds: [...new Set(droppedFromItems)],
      counts: { outputs: droppedCallIds.length },
      details: { toolCallIds: droppedCallIds },
    });
  }
  return { value: out, trace: events };
}

/** Phase B: every tool call has its output and every output its call, before anything is merged or cut. */
export const toolPairingStage: Stage<readonly ContextItem[], readonly ContextItem[], PhaseBContext> = {
  name: "tool-pairing",
  run: (items) => pairToolCalls(items),
};
