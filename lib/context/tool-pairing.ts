// Phase B's tool pairing over the whole request (docs/pipeline.md#tool-pairing): every tool
// call must have its output and every output its call. Providers reject a call without its output and an output without its call, so:
// an interior call with no output gets a stub output right after it; an output with no call earlier in the same
// exchange (since the last user or system item) is dropped; a call at the very end (the current step, still
// running) is left alone. One forward pass plus one assembly pass.

import type { ContextItem, ItemPart, TraceEvent } from "@/lib/domain/types";
import type { PhaseBContext } from "./phases";
import type { Stage, StageResult } from "./stage";

/** Seed 004's stub text for a call whose output was never recorded. */
export const MISSING_TOOL_OUTPUT_TEXT = "[Tool output unavailable -- not recorded in conversation history.]";

interface OpenCall {
  itemIndex: number;
  toolName: string;
  answered: boolean;
}

/** The calls of the exchange so far, by tool call id. */
type OpenCalls = Map<string, OpenCall>;

function closesExchange(item: ContextItem): boolean {
  return item.role === "user" || item.role === "system";
}

/** What the forward pass found: the outputs to drop and the stubs to add. */
interface PairingPlan {
  /** Tool-result parts to drop: item index → part indexes. */
  droppedParts: Map<number, Set<number>>;
  droppedCallIds: string[];
  droppedFromItems: string[];
  /** Stub outputs to add right after an item: item index → the calls it left unanswered. */
  stubsAfter: Map<number, { toolCallId: string; toolName: string }[]>;
}

export function pairToolCalls(items: readonly ContextItem[]): StageResult<readonly ContextItem[]> {
  const plan = planPairing(items);
  if (plan.droppedParts.size === 0 && plan.stubsAfter.size === 0) return { value: items, trace: [] };
  const { out, stubbedItemIds, stubbedCallIds } = assemblePairs(items, plan);
  return { value: out, trace: pairingEvents(plan, stubbedItemIds, stubbedCallIds) };
}

/** The forward pass: each exchange's calls are opened, answered by their outputs, and closed by the next turn. */
function planPairing(items: readonly ContextItem[]): PairingPlan {
  const plan: PairingPlan = {
    droppedParts: new Map(),
    droppedCallIds: [],
    droppedFromItems: [],
    stubsAfter: new Map(),
  };
  const open: OpenCalls = new Map();
  let lastNonToolIndex = -1;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    if (item === undefined) continue;
    if (item.role !== "tool") lastNonToolIndex = index;
    if (closesExchange(item) && open.size > 0) {
      stubUnanswered(plan, open, () => false);
      open.clear();
    }
    pairItemParts(plan, open, item, index);
  }
  // Calls after the last non-tool item belong to the step still running: the SDK adds their outputs itself.
  stubUnanswered(plan, open, (call) => call.itemIndex >= lastNonToolIndex);
  return plan;
}

/** One item's tool parts: a call opens; an output answers its open call once, any other output is dropped. */
function pairItemParts(plan: PairingPlan, open: OpenCalls, item: ContextItem, index: number): void {
  for (let partIndex = 0; partIndex < item.parts.length; partIndex += 1) {
    const part = item.parts[partIndex];
    if (part?.type === "tool-call") {
      if (!open.has(part.toolCallId))
        open.set(part.toolCallId, { itemIndex: index, toolName: part.toolName, answered: false });
      continue;
    }
    if (part?.type !== "tool-result") continue;
    const call = open.get(part.toolCallId);
    if (call && !call.answered) {
      call.answered = true;
      continue;
    }
    const set = plan.droppedParts.get(index) ?? new Set<number>();
    set.add(partIndex);
    plan.droppedParts.set(index, set);
    plan.droppedCallIds.push(part.toolCallId);
    plan.droppedFromItems.push(item.id);
  }
}

/** Every unanswered call that `keep` does not spare gets a stub output after its item. */
function stubUnanswered(
  plan: PairingPlan,
  calls: ReadonlyMap<string, OpenCall>,
  keep: (call: OpenCall) => boolean,
): void {
  for (const [toolCallId, call] of calls) {
    if (call.answered || keep(call)) continue;
    const list = plan.stubsAfter.get(call.itemIndex) ?? [];
    list.push({ toolCallId, toolName: call.toolName });
    plan.stubsAfter.set(call.itemIndex, list);
  }
}

/** The assembly pass: items without their dropped outputs (gone when nothing is left), stubs after their calls. */
function assemblePairs(
  items: readonly ContextItem[],
  plan: PairingPlan,
): { out: ContextItem[]; stubbedItemIds: string[]; stubbedCallIds: string[] } {
  const out: ContextItem[] = [];
  const stubbedItemIds: string[] = [];
  const stubbedCallIds: string[] = [];
  items.forEach((item, index) => {
    const drop = plan.droppedParts.get(index);
    if (drop) {
      const parts = item.parts.filter((_, partIndex) => !drop.has(partIndex));
      if (parts.length > 0) out.push({ ...item, parts, tokens: 0 });
    } else out.push(item);

    const stubs = plan.stubsAfter.get(index);
    if (stubs) {
      out.push(stubItem(item, stubs));
      stubbedItemIds.push(item.id);
      for (const stub of stubs) stubbedCallIds.push(stub.toolCallId);
    }
  });
  return { out, stubbedItemIds, stubbedCallIds };
}

/** The tool item that answers an item's unanswered calls with the "not recorded" output. */
function stubItem(
  item: ContextItem,
  stubs: readonly { toolCallId: string; toolName: string }[],
): ContextItem {
  const parts: ItemPart[] = stubs.map((stub) => ({
    type: "tool-result",
    toolCallId: stub.toolCallId,
    toolName: stub.toolName,
    output: MISSING_TOOL_OUTPUT_TEXT,
  }));
  return {
    id: `${item.id}:missing-output`,
    role: "tool",
    tag: "TOOL_RESULT",
    parts,
    sourceMessageIds: item.sourceMessageIds,
    tokens: 0,
  };
}

function pairingEvents(plan: PairingPlan, stubbedItemIds: string[], stubbedCallIds: string[]): TraceEvent[] {
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
  const { droppedCallIds } = plan;
  if (droppedCallIds.length > 0) {
    events.push({
      stage: "normalise",
      action: "dropped-orphan-tool-output",
      reason: `${droppedCallIds.length} tool output(s) had no matching call before them and were dropped`,
      level: "warning",
      itemIds: [...new Set(plan.droppedFromItems)],
      counts: { outputs: droppedCallIds.length },
      details: { toolCallIds: droppedCallIds },
    });
  }
  return events;
}

/** Phase B: every tool call has its output and every output its call, before anything is merged or cut. */
export const toolPairingStage: Stage<readonly ContextItem[], readonly ContextItem[], PhaseBContext> = {
  name: "tool-pairing",
  run: (items) => pairToolCalls(items),
};
