import type { ModelMessage } from "ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultSettings, type ResolvedSettings } from "@/lib/domain/settings";
import type {
  BaseContext,
  ContextItem,
  ItemPart,
  MediaDescriptor,
  ModelCapabilities,
  ModelDescriptor,
  TraceEvent,
} from "@/lib/domain/types";
import { dialogueItem, mediaDescriptor, modelDescriptor, textPart } from "@/tests/context/fixtures";
import { elementAt } from "./indexing";
import { ContextBudgetError, resolveForModel } from "./resolve-for-model";

const INPUT_TEXT = "CURRENT-INPUT-7f3a";

function model(
  capabilities: Partial<ModelCapabilities> = {},
  extra: Partial<ModelDescriptor> = {},
): ModelDescriptor {
  return modelDescriptor(
    {
      id: "model-a",
      providerModelName: "gpt-4.1-mini",
      maxOutputTokens: 16_384,
      tokenizer: "o200k_base",
      ...extra,
    },
    capabilities,
  );
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const item = dialogueItem;
const text = textPart;
function image(handle: string): MediaDescriptor {
  return mediaDescriptor(handle, { sha256: handle });
}

const baseTrace: TraceEvent[] = [
  { stage: "collapse", action: "collapsed", reason: "3 consecutive text messages by Ada" },
];

function sampleBase(settings: ResolvedSettings = defaultSettings()): BaseContext {
  const photo = image("media_1");
  return {
    settings,
    trace: baseTrace,
    items: [
      item("system-prompt", "system", [text("You are Tomori.")], { tag: "SYSTEM_PROMPT" }),
      item("msg:1", "user", [text("look"), { type: "media", descriptor: photo }], {
        mediaDescriptors: [photo],
        sender: { type: "user", name: "Ada" },
      }),
      item(
        "msg:2",
        "assistant",
        [{ type: "tool-call", toolCallId: "c1", toolName: "analyze_image", input: { id: "media_1" } }],
        { tag: "TOOL_CALL" },
      ),
      item(
        "msg:2:result",
        "tool",
        [{ type: "tool-result", toolCallId: "c1", toolName: "analyze_image", output: "a cat" }],
        { tag: "TOOL_RESULT" },
      ),
      item("msg:3", "assistant", [text("A cat!")], { sender: { type: "persona", name: "Tomori" } }),
      item("msg:input", "user", [text(INPUT_TEXT)], {
        tag: "CURRENT_INPUT",
        sender: { type: "user", name: "Ada" },
      }),
    ],
  };
}

describe("resolveForModel", () => {
  it("never mutates a deep-frozen base and resolves it differently for a vision and a blind fallback", () => {
    const base = deepFreeze(sampleBase());
    const before = JSON.stringify(base);
    const vision = resolveForModel(base, model({ vision: true }));
    const blind = resolveForModel(base, model({ vision: false }, { id: "model-b" }), {
      enabledToolNames: ["analyze_image"],
    });
    expect(JSON.stringify(base)).toBe(before);
    expect(JSON.stringify(vision.request.messages)).toContain('"type":"file"');
    expect(JSON.stringify(blind.request.messages)).not.toContain('"type":"file"');
    expect(JSON.stringify(blind.request.messages)).toContain("analyze_image");
    expect(blind.model.id).toBe("model-b");
  });

  it("is deterministic: same inputs, byte-identical output", () => {
    const base = sampleBase();
    expect(JSON.stringify(resolveForModel(base, model()))).toBe(
      JSON.stringify(resolveForModel(structuredClone(base), model())),
    );
  });

  it("returns the base trace followed by this attempt's events, items with counts, and the budget", () => {
    const resolved = resolveForModel(sampleBase(), model());
    expect(resolved.trace[0]).toBe(baseTrace[0]);
    expect(resolved.trace.map((event) => event.stage)).toEqual(["collapse", "media-resolution"]);
    expect(resolved.items.every((entry) => entry.tokens > 0)).toBe(true);
    const total = resolved.items.reduce((sum, entry) => sum + entry.tokens, 0);
    expect(resolved.budget).toEqual({
      usableTokens: Math.floor((128_000 - 4_096) * 0.8),
      totalTokens: total,
      reservedOutputTokens: 4_096,
      contextWindow: 128_000,
    });
    expect(resolved.request.instructions).toBe("You are Tomori.");
  });

  it("fails with context_too_large when the current input cannot fit", () => {
    const base = sampleBase();
    const huge = {
      ...base,
      items: [
        ...base.items.slice(0, -1),
        item("msg:input", "user", [text("word ".repeat(5_000))], { tag: "CURRENT_INPUT" }),
      ],
    };
    expect(() => resolveForModel(huge, model({}, { contextWindow: 4_000, maxOutputTokens: 1_000 }))).toThrow(
      ContextBudgetError,
    );
    try {
      resolveForModel(huge, model({}, { contextWindow: 4_000, maxOutputTokens: 1_000 }));
    } catch (error) {
      expect((error as ContextBudgetError).code).toBe("context_too_large");
    }
  });

  it("handles a long conversation in one pass (cuts most of it)", () => {
    const settings = defaultSettings();
    const items: ContextItem[] = [
      item("system-prompt", "system", [text("You are Tomori.")], { tag: "SYSTEM_PROMPT", tokens: 8 }),
    ];
    for (let turn = 0; turn < 20_000; turn += 1) {
      items.push(item(`u${turn}`, "user", [text(`question ${turn}`)], { tokens: 9 }));
      items.push(item(`a${turn}`, "assistant", [text(`answer ${turn}`)], { tokens: 9 }));
    }
    items.push(item("input", "user", [text(INPUT_TEXT)], { tag: "CURRENT_INPUT", tokens: 10 }));
    const resolved = resolveForModel({ items, trace: [], settings }, model({}, { contextWindow: 128_000 }));
    expect(resolved.budget.totalTokens).toBeLessThanOrEqual(resolved.budget.usableTokens);
    expect(resolved.items[resolved.items.length - 1]?.id).toBe("input");
    expect(resolved.trace.map((event) => event.action)).toEqual(["dropped-oldest-turns"]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The invariants (docs/pipeline.md#invariants) as properties over random conversations

type Step =
  | { kind: "user"; text: string; images: number; speaker: number }
  | { kind: "assistant"; text: string; images: number }
  | { kind: "tool"; withResult: boolean; outputSize: number }
  | { kind: "orphan-output" }
  | { kind: "note" }
  | { kind: "system-note" };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant("user" as const),
    text: fc.string({ maxLength: 40 }),
    images: fc.integer({ min: 0, max: 3 }),
    speaker: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({
    kind: fc.constant("assistant" as const),
    text: fc.string({ maxLength: 40 }),
    images: fc.integer({ min: 0, max: 1 }),
  }),
  fc.record({
    kind: fc.constant("tool" as const),
    withResult: fc.boolean(),
    outputSize: fc.integer({ min: 0, max: 3_000 }),
  }),
  fc.constant({ kind: "orphan-output" as const }),
  fc.constant({ kind: "note" as const }),
  fc.constant({ kind: "system-note" as const }),
);

const speakers = ["Ada", "Bob", "Cleo"];

function buildBase(steps: Step[], settings: ResolvedSettings, frontier = false): BaseContext {
  const items: ContextItem[] = [
    item("system-prompt", "system", [text("You are Tomori.")], { tag: "SYSTEM_PROMPT" }),
  ];
  let media = 0;
  steps.forEach((step, index) => {
    const id = `msg:${index}`;
    const descriptors = (count: number) => Array.from({ length: count }, () => image(`media_${++media}`));
    switch (step.kind) {
      case "user":
      case "assistant": {
        const attached = descriptors(step.images);
        const sender =
          step.kind === "user"
            ? { type: "user" as const, name: elementAt(speakers, step.speaker) }
            : { type: "persona" as const, name: "Tomori" };
        const mediaParts = attached.map((descriptor): ItemPart => ({ type: "media", descriptor }));
        items.push(item(id, step.kind, [text(step.text), ...mediaParts], { sender }));
        break;
      }
      case "tool":
        items.push(
          item(
            `${id}:call`,
            "assistant",
            [{ type: "tool-call", toolCallId: `call_${index}`, toolName: "lookup", input: { index } }],
            { tag: "TOOL_CALL" },
          ),
        );
        if (step.withResult) {
          items.push(
            item(
              `${id}:result`,
              "tool",
              [
                {
                  type: "tool-result",
                  toolCallId: `call_${index}`,
                  toolName: "lookup",
                  output: "r".repeat(step.outputSize),
                },
              ],
              { tag: "TOOL_RESULT" },
            ),
          );
        }
        break;
      case "orphan-output":
        items.push(
          item(
            id,
            "tool",
            [{ type: "tool-result", toolCallId: `ghost_${index}`, toolName: "lookup", output: "?" }],
            { tag: "TOOL_RESULT" },
          ),
        );
        break;
      case "note":
      case "system-note": {
        const [role, note] =
          step.kind === "note" ? (["user", "be kind"] as const) : (["system", "stay brief"] as const);
        items.push(
          item(`note:${index}`, role, [text(`[System: ${note}]`)], {
            tag: "CONTEXT_NOTE",
            sourceMessageIds: [],
          }),
        );
        break;
      }
    }
  });
  items.push(
    item("msg:input", "user", [text(INPUT_TEXT)], {
      tag: "CURRENT_INPUT",
      sender: { type: "user", name: "Ada" },
    }),
  );
  // The current step's call, still running: the only call allowed without an output.
  if (frontier)
    items.push(
      item("frontier", "assistant", [
        { type: "tool-call", toolCallId: "call_frontier", toolName: "lookup", input: {} },
      ]),
    );
  return { items, trace: [], settings };
}

function isEmptyMessage(message: ModelMessage): boolean {
  return typeof message.content === "string" ? message.content.length === 0 : message.content.length === 0;
}

/** Every call has its result in the tool messages right after it; every result answers such a call. */
function checkToolPairing(messages: ModelMessage[]): void {
  for (const [index, message] of messages.entries()) {
    if (message.role === "tool") {
      let owner = index - 1;
      while (messages[owner]?.role === "tool") owner -= 1;
      const calls = new Set<string>();
      const ownerMessage = messages[owner];
      if (ownerMessage && ownerMessage.role === "assistant" && Array.isArray(ownerMessage.content)) {
        for (const part of ownerMessage.content) if (part.type === "tool-call") calls.add(part.toolCallId);
      }
      for (const part of message.content)
        if (part.type === "tool-result") expect(calls.has(part.toolCallId)).toBe(true);
    }
    if (message.role === "assistant" && Array.isArray(message.content)) {
      const calls = message.content.flatMap((part) => (part.type === "tool-call" ? [part.toolCallId] : []));
      if (calls.length === 0) continue;
      const answered = new Set<string>();
      for (const following of messages.slice(index + 1)) {
        if (following.role !== "tool") break;
        for (const part of following.content) if (part.type === "tool-result") answered.add(part.toolCallId);
      }
      for (const call of calls) if (call !== "call_frontier") expect(answered.has(call)).toBe(true);
    }
  }
}

describe("strict models and the budget", () => {
  // A strict model merges same-role neighbours. Merged before the budget, the first user turn after the summary
  // would become part of the summary item, which the budget never drops: one huge old message would then make
  // every attempt fail. Pinned and droppable items stay apart until the budget has run.
  const strict = model({ strictAlternation: true }, { contextWindow: 8_000, maxOutputTokens: 1_000 });
  const base = (): BaseContext => ({
    items: [
      item("system", "system", [text("You are Aria.")], {
        tag: "SYSTEM_PROMPT",
        sourceMessageIds: [],
        tokens: 10,
      }),
      item("summary", "user", [text("Summary of earlier turns.")], { tag: "SUMMARY", tokens: 20 }),
      item("u1", "user", [text("a very long paste")], { tokens: 50_000 }),
      item("a1", "assistant", [text("Noted.")], { tokens: 10 }),
      item("u2", "user", [text("And now?")], { tokens: 10 }),
      item("a2", "assistant", [text("Now this.")], { tokens: 10 }),
      item("input", "user", [text(INPUT_TEXT)], { tag: "CURRENT_INPUT", tokens: 10 }),
    ],
    trace: [],
    settings: defaultSettings(),
  });

  it("drops an oversized first turn after the summary instead of failing", () => {
    const resolved = resolveForModel(base(), strict);
    // u1 and a1 go as a turn; u2, left beside the summary, merges into it after the budget.
    expect(resolved.items.map((entry) => [entry.id, entry.sourceMessageIds])).toEqual([
      ["system", []],
      ["summary", ["summary", "u2"]],
      ["a2", ["a2"]],
      ["input", ["input"]],
    ]);
    const sent = JSON.stringify(resolved.request.messages);
    expect(sent).not.toContain("a very long paste");
    expect(sent).toContain("Summary of earlier turns.");
    expect(sent).toContain(INPUT_TEXT);
    const drop = resolved.trace.find((event) => event.action === "dropped-oldest-turns");
    expect(drop?.itemIds).toContain("u1");
    expect(resolved.budget.totalTokens).toBeLessThanOrEqual(resolved.budget.usableTokens);
  });
});

describe("phase B invariants over random conversations", () => {
  it("holds the invariants for every model shape", () => {
    fc.assert(
      fc.property(
        fc.array(stepArbitrary, { maxLength: 40 }),
        fc.record({
          vision: fc.boolean(),
          strictAlternation: fc.boolean(),
          systemInstruction: fc.boolean(),
          maxStopSequences: fc.integer({ min: 0, max: 5 }),
        }),
        fc.integer({ min: 1_500, max: 20_000 }),
        fc.record({
          speakerPattern: fc.boolean(),
          maxImages: fc.integer({ min: 0, max: 3 }),
          userTurnOnly: fc.boolean(),
          frontier: fc.boolean(),
        }),
        (steps, capabilities, contextWindow, options) => {
          const settings = defaultSettings();
          settings.stop.speakerPattern = options.speakerPattern;
          settings.media.maxImagesPerRequest = options.maxImages;
          settings.media.imageInputSelection = options.userTurnOnly
            ? "user_turn_only"
            : "user_then_assistant";
          const base = deepFreeze(buildBase(steps, settings, options.frontier));
          const before = JSON.stringify(base);
          const target = model(capabilities, {
            contextWindow,
            maxOutputTokens: 1_000,
            tokenizer: "estimate",
          });
          let resolved: ReturnType<typeof resolveForModel>;
          try {
            resolved = resolveForModel(base, target, { enabledToolNames: ["analyze_image"] });
          } catch (error) {
            expect(error).toBeInstanceOf(ContextBudgetError);
            return;
          }
          // Stored input untouched; deterministic.
          expect(JSON.stringify(base)).toBe(before);
          expect(JSON.stringify(resolveForModel(base, target, { enabledToolNames: ["analyze_image"] }))).toBe(
            JSON.stringify(resolved),
          );

          const { messages, instructions, stopSequences } = resolved.request;
          // One system block at most, first: only `instructions`, never a system message.
          expect(messages.some((message) => message.role === "system")).toBe(false);
          if (!capabilities.systemInstruction) expect(instructions).toBeUndefined();
          // No empty message.
          expect(messages.some(isEmptyMessage)).toBe(false);
          // The current input is last and appears once.
          const serialised = JSON.stringify(messages);
          expect(serialised.split(INPUT_TEXT).length - 1).toBe(1);
          const last = messages[messages.length - 1];
          if (options.frontier) {
            expect(JSON.stringify(last)).toContain("call_frontier");
            expect(JSON.stringify(messages[messages.length - 2])).toContain(INPUT_TEXT);
          } else expect(JSON.stringify(last)).toContain(INPUT_TEXT);
          // Tool wiring is whole.
          checkToolPairing(messages);
          // Within budget; images within the cap; stop sequences within the model's limit.
          expect(resolved.budget.totalTokens).toBeLessThanOrEqual(resolved.budget.usableTokens);
          expect(serialised.split('"type":"file"').length - 1).toBeLessThanOrEqual(options.maxImages);
          expect((stopSequences ?? []).length).toBeLessThanOrEqual(capabilities.maxStopSequences);
          // Strict models alternate.
          if (capabilities.strictAlternation) {
            const dialogue = messages.filter((message) => message.role !== "tool");
            expect(dialogue[0]?.role).toBe("user");
            const wired = (message: ModelMessage) =>
              Array.isArray(message.content) && message.content.some((part) => part.type === "tool-call");
            for (let index = 1; index < dialogue.length; index += 1) {
              const [previous, current] = [elementAt(dialogue, index - 1), elementAt(dialogue, index)];
              if (previous.role === current.role) expect(wired(previous) || wired(current)).toBe(true);
            }
          }
        },
      ),
      { numRuns: 300, seed: 20_260_501 },
    );
  });
});
