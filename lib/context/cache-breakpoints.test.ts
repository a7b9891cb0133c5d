// The prompt-cache breakpoint stage: a scenario table through both phases for a Claude model (where the
// breakpoints land, and why), the limit, `cache.breakpoints: off`, providers without breakpoints, and what the
// serialised request carries (Anthropic's cacheControl, OpenAI's prompt cache key).
import { describe, expect, it } from "vitest";
import type { SettingsOverride } from "@/lib/domain/settings";
import { defaultSettings } from "@/lib/domain/settings";
import type { BuildInput, ContextItem } from "@/lib/domain/types";
import {
  alternatingMessages,
  buildInput,
  CONVERSATION_ID,
  deepFreeze,
  modelDescriptor,
  summaryRecord,
} from "@/tests/context/fixtures";
import { buildContext } from "./build-context";
import { placeCacheBreakpoints } from "./cache-breakpoints";
import { resolveForModel } from "./resolve-for-model";

const claude = modelDescriptor(
  { id: "claude", provider: "anthropic", providerModelName: "claude-sonnet-4-5", contextWindow: 200_000 },
  { strictAlternation: true, maxStopSequences: 16 },
);
const gpt = modelDescriptor({ id: "gpt" });

function marked(items: readonly ContextItem[]) {
  return items
    .filter((item) => item.cacheBreakpoint !== undefined)
    .map((item) => [item.id, item.cacheBreakpoint]);
}

function resolve(input: BuildInput, model = claude) {
  return resolveForModel(buildContext(input), model);
}

const withSummary = (override: SettingsOverride = {}) =>
  buildInput({
    messages: alternatingMessages(4, 11),
    summary: summaryRecord({ coversThroughSeq: 10 }),
    settings: override,
  });

describe("prompt-cache breakpoints", () => {
  it.each([
    {
      name: "first turn: only the system block is a stable prefix",
      input: buildInput(),
      expected: [["system:SYSTEM_PROMPT", "system"]],
    },
    {
      name: "history, no summary: after the system block and after the last history item",
      input: buildInput({ messages: alternatingMessages(4) }),
      expected: [
        ["system:SYSTEM_PROMPT", "system"],
        ["msg:m4", "history"],
      ],
    },
    {
      name: "a summary: after the system block, after the summary, after the history",
      input: withSummary(),
      expected: [
        ["system:SYSTEM_PROMPT", "system"],
        ["summary:s1", "summary"],
        ["msg:m14", "history"],
      ],
    },
    {
      name: "short history: Claude's strict alternation merges the summary into the input, so it closes nothing",
      input: buildInput({ summary: summaryRecord({ coversThroughSeq: 10 }) }),
      expected: [["system:SYSTEM_PROMPT", "system"]],
    },
    {
      name: "cache.breakpoints off: none",
      input: withSummary({ cache: { breakpoints: "off" } }),
      expected: [],
    },
  ])("$name", ({ input, expected }) => {
    const resolved = resolve(input);
    expect(marked(resolved.items)).toEqual(expected);
    const events = resolved.trace.filter((event) => event.stage === "cache");
    expect(events).toHaveLength(1);
    if (expected.length === 0) {
      expect(events[0]).toMatchObject({ action: "breakpoints-off" });
    } else {
      expect(events[0]).toMatchObject({
        action: "placed-breakpoints",
        itemIds: expected.map(([id]) => id),
        counts: { breakpoints: expected.length, limit: 4 },
      });
    }
  });

  it("says why in words", () => {
    const [event] = resolve(withSummary()).trace.filter((entry) => entry.stage === "cache");
    expect(event?.reason).toBe(
      "3 prompt-cache breakpoints where the prefix is stable: after the system block, after the summary, after the history",
    );
  });

  it("never places more than the limit: the history one first, then the system block", () => {
    const items = resolve(withSummary()).items.map(({ cacheBreakpoint: _, ...item }) => item);
    const { value, trace } = placeCacheBreakpoints(items, claude, defaultSettings(), 2);
    expect(marked(value)).toEqual([
      ["system:SYSTEM_PROMPT", "system"],
      ["msg:m14", "history"],
    ]);
    expect(trace.map((event) => event.action)).toEqual(["placed-breakpoints", "dropped-breakpoints"]);
    expect(trace[1]).toMatchObject({ level: "warning", counts: { dropped: 1, limit: 2 } });
  });

  it("with a summary right before the input (no merge): the summary breakpoint covers the history", () => {
    const loose = { ...claude, capabilities: { ...claude.capabilities, strictAlternation: false } };
    const resolved = resolve(buildInput({ summary: summaryRecord({ coversThroughSeq: 10 }) }), loose);
    expect(marked(resolved.items)).toEqual([
      ["system:SYSTEM_PROMPT", "system"],
      ["summary:s1", "summary"],
    ]);
  });

  it("places none for a provider without breakpoints, and says nothing", () => {
    const resolved = resolve(withSummary(), gpt);
    expect(marked(resolved.items)).toEqual([]);
    expect(resolved.trace.filter((event) => event.stage === "cache")).toEqual([]);
  });

  it("never modifies the phase-A items (a fallback model re-resolves the same base)", () => {
    const base = deepFreeze(buildContext(withSummary()));
    expect(() => resolveForModel(base, claude)).not.toThrow();
    expect(base.items.some((item) => item.cacheBreakpoint !== undefined)).toBe(false);
  });

  it("serialises a breakpoint as cacheControl on the item's last message, the system one on the instructions", () => {
    const { request } = resolve(buildInput({ messages: alternatingMessages(2) }));
    const breakpoint = { anthropic: { cacheControl: { type: "ephemeral" } } };
    expect(request.instructions).toEqual({
      role: "system",
      content: "You are Aria, a helpful guide.",
      providerOptions: breakpoint,
    });
    expect(request.messages.map((message) => message.providerOptions)).toEqual([
      undefined,
      breakpoint,
      undefined,
    ]);
  });

  it("gives OpenAI the conversation as its prompt cache key, unless caching is off", () => {
    const on = resolve(buildInput(), gpt).request;
    expect(on.providerOptions).toEqual({ openai: { promptCacheKey: `conversation:${CONVERSATION_ID}` } });
    expect(typeof on.instructions).toBe("string");
    const off = resolve(buildInput({ settings: { cache: { breakpoints: "off" } } }), gpt).request;
    expect(off.providerOptions).toEqual({});
    // An OpenAI-compatible server may refuse the field: never sent there.
    const compatible = modelDescriptor({ id: "local", provider: "openai-compatible" });
    expect(resolve(buildInput(), compatible).request.providerOptions).toEqual({});
  });

  it("keeps the key beside thinking options under the same provider", () => {
    const reasoning = modelDescriptor({ id: "o4" }, { reasoning: true });
    const { request } = resolve(buildInput({ settings: { thinking: { enabled: true } } }), reasoning);
    expect(request.providerOptions).toEqual({
      openai: { reasoningEffort: "low", promptCacheKey: `conversation:${CONVERSATION_ID}` },
    });
  });

  it("asks Claude to think with at least Anthropic's minimum budget", () => {
    const thinker = { ...claude, capabilities: { ...claude.capabilities, reasoning: true } };
    const input = buildInput({ settings: { thinking: { enabled: true, budgetTokens: 500 } } });
    expect(resolve(input, thinker).request.providerOptions).toEqual({
      anthropic: { thinking: { type: "enabled", budgetTokens: 1_024 } },
    });
  });
});
