import { describe, expect, it } from "vitest";
import type { ContextItem, ItemPart, ModelCapabilities, ModelDescriptor } from "@/lib/domain/types";
import { dialogueItem, modelDescriptor, textPart } from "@/tests/context/fixtures";
import {
  CONVERSATION_START_TEXT,
  enforceAlternation,
  normaliseForModel,
  relocatedMediaNotice,
  SYSTEM_AS_USER_PREFIX,
} from "./normalise-strict";

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

function model(capabilities: Partial<ModelCapabilities> = {}): ModelDescriptor {
  return modelDescriptor(
    {
      id: "strict-model",
      provider: "openai-compatible",
      providerModelName: "strict-model",
      contextWindow: 32_000,
      maxOutputTokens: 2_048,
    },
    { strictAlternation: true, ...capabilities },
  );
}
const lenient = model({ strictAlternation: false });

const item = dialogueItem;
const text = textPart;
const image = (handle: string): ItemPart => ({
  type: "image",
  mediaType: "image/png",
  url: PNG,
  attachmentId: `att-${handle}`,
  handle,
});
const call = (id: string): ItemPart => ({
  type: "tool-call",
  toolCallId: id,
  toolName: "current_time",
  input: {},
});
const result = (id: string): ItemPart => ({
  type: "tool-result",
  toolCallId: id,
  toolName: "current_time",
  output: "noon",
});

const shape = (items: readonly ContextItem[]) => items.map((entry) => `${entry.role}:${entry.id}`);

describe("merge same-role runs (strict alternation)", () => {
  it("leaves an empty list empty", () => {
    expect(normaliseForModel([], model())).toEqual({ value: [], trace: [] });
  });

  it("leaves an already alternating conversation unchanged, item for item", () => {
    const items = [
      item("u1", "user", [text("a")]),
      item("a1", "assistant", [text("b")]),
      item("u2", "user", [text("c")]),
    ];
    const out = normaliseForModel(items, model());
    expect(out.value).toEqual(items);
    out.value.forEach((entry, index) => {
      expect(entry).toBe(items[index]);
    });
    expect(out.trace).toEqual([]);
  });

  it("joins text runs with a newline and keeps the first item's metadata", () => {
    const sender = { type: "user" as const, name: "Ada" };
    const items = [
      item("u1", "user", [text("one")], { sender }),
      item("u2", "user", [text("two")]),
      item("a1", "assistant", [text("ok")]),
    ];
    const out = normaliseForModel(items, model());
    expect(shape(out.value)).toEqual(["user:u1", "assistant:a1"]);
    expect(out.value[0]?.parts).toEqual([{ type: "text", text: "one\ntwo" }]);
    expect(out.value[0]?.sender).toEqual(sender);
    expect(out.value[0]?.sourceMessageIds).toEqual(["u1", "u2"]);
    expect(out.trace).toMatchObject([
      { stage: "normalise", action: "merged-same-role", itemIds: ["u1", "u2"] },
    ]);
  });

  it("concatenates mixed parts", () => {
    const items = [
      item("u1", "user", [text("see"), image("media_1")]),
      item("u2", "user", [image("media_2"), text("and this")]),
    ];
    const out = normaliseForModel(items, model());
    expect(out.value[0]?.parts.map((part) => part.type)).toEqual(["text", "image", "image", "text"]);
  });

  it("never merges across tool calls or results", () => {
    const items = [
      item("u1", "user", [text("time?")]),
      item("a1", "assistant", [text("checking")]),
      item("a2", "assistant", [call("c1")], { tag: "TOOL_CALL" }),
      item("t1", "tool", [result("c1")], { tag: "TOOL_RESULT" }),
      item("a3", "assistant", [text("it is noon")]),
      item("a4", "assistant", [text("anything else?")]),
    ];
    const out = normaliseForModel(items, model());
    expect(shape(out.value)).toEqual(["user:u1", "assistant:a1", "assistant:a2", "tool:t1", "assistant:a3"]);
    expect(out.value[4]?.parts).toEqual([{ type: "text", text: "it is noon\nanything else?" }]);
  });

  it("keeps the current input's identity when it merges with the history before it (after the budget)", () => {
    const items = [
      item("a1", "assistant", [text("hi")]),
      item("u1", "user", [text("earlier")]),
      item("input", "user", [text("now")], { tag: "CURRENT_INPUT" }),
    ];
    const out = enforceAlternation(items, model());
    const last = out.value.at(-1);
    expect(last).toMatchObject({ id: "input", tag: "CURRENT_INPUT", sourceMessageIds: ["u1", "input"] });
    expect(last?.parts).toEqual([{ type: "text", text: "earlier\nnow" }]);
  });

  it.each([
    { pinned: "CURRENT_INPUT" as const, before: false },
    { pinned: "SUMMARY" as const, before: true },
    { pinned: "CONTEXT_NOTE" as const, before: true },
  ])(
    "before the budget, a droppable user turn does not merge into the $pinned item",
    ({ pinned, before }) => {
      const pinnedItem = item("p", "user", [text("pinned")], { tag: pinned });
      const history = item("u1", "user", [text("earlier")]);
      const items = [
        item("a0", "assistant", [text("hi")]),
        ...(before ? [pinnedItem, history] : [history, pinnedItem]),
      ];
      // Merged, the dialogue turn would take the pinned tag and the budget could never drop it.
      expect(shape(normaliseForModel(items, model()).value)).toEqual(
        before
          ? ["user:conversation-start", "assistant:a0", "user:p", "user:u1"]
          : ["user:conversation-start", "assistant:a0", "user:u1", "user:p"],
      );
      // Pinned items still merge with each other (system text sent as a user turn and the summary, say).
      const twoPinned = [
        item("s", "user", [text("system text")], { tag: "SYSTEM_PROMPT" }),
        item("sum", "user", [text("summary")], { tag: "SUMMARY" }),
        item("a1", "assistant", [text("hi")]),
      ];
      expect(shape(normaliseForModel(twoPinned, model()).value)).toEqual(["user:sum", "assistant:a1"]);
    },
  );

  it("derives a merged item's tokens from its parts' counts instead of re-tokenising", () => {
    const items = [
      item("u1", "user", [text("one")], { tokens: 10 }),
      item("u2", "user", [text("two")], { tokens: 20 }),
    ];
    expect(normaliseForModel(items, model()).value[0]?.tokens).toBe(26);
  });

  it("does not merge for a lenient model", () => {
    const items = [item("u1", "user", [text("one")]), item("u2", "user", [text("two")])];
    expect(shape(normaliseForModel(items, lenient).value)).toEqual(["user:u1", "user:u2"]);
  });
});

describe("leading user turn", () => {
  it("prepends [System: Conversation start] before a leading assistant turn", () => {
    const items = [item("a1", "assistant", [text("Hello, I am Tomori.")]), item("u1", "user", [text("hi")])];
    const out = normaliseForModel(items, model());
    expect(shape(out.value)).toEqual(["user:conversation-start", "assistant:a1", "user:u1"]);
    expect(out.value[0]?.parts).toEqual([{ type: "text", text: CONVERSATION_START_TEXT }]);
    expect(out.trace.map((event) => event.action)).toEqual(["inserted-conversation-start"]);
  });

  it("is a no-op when the dialogue opens with a user turn", () => {
    const items = [item("u1", "user", [text("hi")]), item("a1", "assistant", [text("hello")])];
    expect(shape(normaliseForModel(items, model()).value)).toEqual(["user:u1", "assistant:a1"]);
  });

  it("skips leading system items", () => {
    const items = [
      item("sys", "system", [text("be kind")], { tag: "SYSTEM_PROMPT" }),
      item("a1", "assistant", [text("hello")]),
    ];
    expect(shape(normaliseForModel(items, model()).value)).toEqual([
      "system:sys",
      "user:conversation-start",
      "assistant:a1",
    ]);
  });

  it("is not applied for a lenient model", () => {
    const items = [item("a1", "assistant", [text("hello")])];
    expect(shape(normaliseForModel(items, lenient).value)).toEqual(["assistant:a1"]);
  });
});

describe("assistant media relocation (always on)", () => {
  it("words the notice singular, plural and without a sender (no trailing period)", () => {
    const one = [image("media_1")] as Parameters<typeof relocatedMediaNotice>[0];
    const two = [image("media_1"), image("media_2")] as Parameters<typeof relocatedMediaNotice>[0];
    expect(relocatedMediaNotice(one, "Tomori")).toBe("[System: The following image was sent by Tomori.]");
    expect(relocatedMediaNotice(two, "Tomori")).toBe("[System: The following images were sent by Tomori.]");
    expect(relocatedMediaNotice(one, undefined)).toBe("[System: The following image was sent]");
  });

  it("moves images into a following user item that keeps tag, source and sender", () => {
    const sender = { type: "persona" as const, name: "Tomori", personaId: "p1" };
    const items = [
      item("u1", "user", [text("draw")]),
      item("a1", "assistant", [text("done"), image("media_1")], { sender, tokens: 800 }),
      item("u2", "user", [text("nice")]),
    ];
    const out = normaliseForModel(items, lenient);
    expect(shape(out.value)).toEqual(["user:u1", "assistant:a1", "user:a1:media", "user:u2"]);
    expect(out.value[1]?.parts).toEqual([{ type: "text", text: "done" }]);
    expect(out.value[1]?.tokens).toBe(800 - 765);
    expect(out.value[2]).toMatchObject({ tag: "DIALOGUE_HISTORY", sourceMessageIds: ["a1"], sender });
    expect(out.value[2]?.parts).toEqual([
      { type: "text", text: "[System: The following image was sent by Tomori.]" },
      image("media_1"),
    ]);
    expect(out.trace.map((event) => event.action)).toEqual(["relocated-assistant-media"]);
  });

  it("turns an image-only model turn into a single user item", () => {
    const items = [item("u1", "user", [text("draw")]), item("a1", "assistant", [image("media_1")])];
    const out = normaliseForModel(items, lenient);
    expect(shape(out.value)).toEqual(["user:u1", "user:a1:media"]);
  });

  it("places the relocated item after the turn's tool results, so pairs stay adjacent", () => {
    const items = [
      item("u1", "user", [text("go")]),
      item("a1", "assistant", [call("c1"), image("media_1")]),
      item("t1", "tool", [result("c1")]),
      item("a2", "assistant", [text("done")]),
    ];
    expect(shape(normaliseForModel(items, lenient).value)).toEqual([
      "user:u1",
      "assistant:a1",
      "tool:t1",
      "user:a1:media",
      "assistant:a2",
    ]);
  });

  it("relocates video too", () => {
    const video: ItemPart = {
      type: "video",
      mediaType: "video/mp4",
      url: "https://x.test/v.mp4",
      attachmentId: "v",
      handle: "media_2",
    };
    const out = normaliseForModel(
      [item("a1", "assistant", [video], { sender: { type: "persona", name: "Tomori" } })],
      lenient,
    );
    expect(out.value[0]?.parts[0]).toEqual({
      type: "text",
      text: "[System: The following video was sent by Tomori.]",
    });
  });

  it("merges the relocated media with the next user turn for a strict model", () => {
    const items = [
      item("u1", "user", [text("draw")]),
      item("a1", "assistant", [text("done"), image("media_1")]),
      item("u2", "user", [text("nice")]),
    ];
    const out = normaliseForModel(items, model());
    expect(shape(out.value)).toEqual(["user:u1", "assistant:a1", "user:a1:media"]);
    expect(out.value[2]?.parts.map((part) => part.type)).toEqual(["text", "image", "text"]);
  });
});

describe("system items", () => {
  it("sends system items inside the dialogue as user turns", () => {
    const items = [
      item("sys", "system", [text("rules")], { tag: "SYSTEM_PROMPT" }),
      item("u1", "user", [text("hi")]),
      item("note", "system", [text("[System: be brief]")], { tag: "CONTEXT_NOTE" }),
      item("a1", "assistant", [text("hello")]),
    ];
    const out = normaliseForModel(items, lenient);
    expect(shape(out.value)).toEqual(["system:sys", "user:u1", "user:note", "assistant:a1"]);
    expect(out.trace.map((event) => event.action)).toEqual(["system-item-as-user"]);
  });

  it("moves the system block into the first user turn for a model without system instructions", () => {
    const items = [
      item("sys", "system", [text("You are Tomori.")], { tag: "SYSTEM_PROMPT" }),
      item("mem", "system", [text("# CORE MEMORIES\n- likes tea")], { tag: "CORE_MEMORIES" }),
      item("u1", "user", [text("hi")]),
    ];
    const out = normaliseForModel(items, model({ systemInstruction: false, strictAlternation: false }));
    expect(shape(out.value)).toEqual(["user:system-as-user", "user:u1"]);
    expect(out.value[0]?.tag).toBe("SYSTEM_PROMPT");
    expect(out.value[0]?.parts).toEqual([
      { type: "text", text: `${SYSTEM_AS_USER_PREFIX}\n\nYou are Tomori.\n\n# CORE MEMORIES\n- likes tea` },
    ]);
    expect(out.trace.map((event) => event.action)).toEqual(["system-to-first-user-turn"]);
  });

  it("merges that turn with the first user turn for a strict model, so no conversation-start is needed", () => {
    const items = [
      item("sys", "system", [text("You are Tomori.")], { tag: "SYSTEM_PROMPT" }),
      item("a1", "assistant", [text("hello")]),
      item("u1", "user", [text("hi")]),
    ];
    const out = normaliseForModel(items, model({ systemInstruction: false }));
    expect(shape(out.value)).toEqual(["user:system-as-user", "assistant:a1", "user:u1"]);
  });
});

// Which reasoning a model is sent is replayable-reasoning.ts's decision; normalisation only keeps what it is given.
describe("reasoning", () => {
  const reasoning = (text: string): ItemPart => ({ type: "reasoning", text });
  const items = [
    item("u1", "user", [text("q")]),
    item("r1", "assistant", [reasoning("thinking")]),
    item("a1", "assistant", [reasoning("more"), text("answer")]),
    item("u2", "user", [text("next")]),
  ];

  it("is kept as it comes, hidden reasoning included", () => {
    const hidden = item("h1", "assistant", [
      { type: "reasoning", text: "", providerMetadata: { openai: { itemId: "rs_1" } } },
    ]);
    const { value, trace } = normaliseForModel(
      [...items, hidden],
      model({ reasoning: true, strictAlternation: false }),
    );
    expect(shape(value)).toEqual(["user:u1", "assistant:r1", "assistant:a1", "user:u2", "assistant:h1"]);
    expect(trace).toEqual([]);
  });
});
