import { describe, expect, it } from "vitest";
import { defaultSettings, type ResolvedSettings } from "@/lib/domain/settings";
import type {
  ContextItem,
  ItemPart,
  ModelCapabilities,
  ModelDescriptor,
  ProviderName,
} from "@/lib/domain/types";
import { dialogueItem, modelDescriptor, textPart } from "@/tests/context/fixtures";
import { reasoningEffortFor, serialiseRequest, thinkingProviderOptions, toolResultOutput } from "./serialise";

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

function model(
  provider: ProviderName = "openai",
  capabilities: Partial<ModelCapabilities> = {},
  maxOutputTokens = 16_384,
): ModelDescriptor {
  return modelDescriptor({ id: `${provider}-model`, provider, maxOutputTokens }, capabilities);
}
function settings(change: (value: ResolvedSettings) => void = () => {}): ResolvedSettings {
  const value = defaultSettings();
  change(value);
  return value;
}
/** Counted items (1 tokens each unless given). */
const item = (id: string, role: ContextItem["role"], parts: ItemPart[], extra: Partial<ContextItem> = {}) =>
  dialogueItem(id, role, parts, { tokens: 1, ...extra });
const text = textPart;

describe("serialiseRequest", () => {
  it("joins system items into one instructions block and maps the rest to messages", () => {
    const items = [
      item("sys", "system", [text("You are Tomori.")], { tag: "SYSTEM_PROMPT" }),
      item("mem", "system", [text("# CORE MEMORIES"), text("- tea")], { tag: "CORE_MEMORIES" }),
      item("u1", "user", [text("hi")]),
      item("a1", "assistant", [text("hello")]),
    ];
    const { value: request, trace: events } = serialiseRequest(items, model(), settings());
    expect(request.instructions).toBe("You are Tomori.\n\n# CORE MEMORIES\n- tea");
    expect(request.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "assistant", content: [{ type: "text", text: "hello" }] },
    ]);
    expect(request.providerOptions).toEqual({});
    expect(request.stopSequences).toBeUndefined();
    expect(request.maxOutputTokens).toBe(4_096);
    expect(events).toEqual([]);
  });

  it("leaves instructions undefined without system items", () => {
    expect(
      serialiseRequest([item("u1", "user", [text("hi")])], model(), settings()).value.instructions,
    ).toBeUndefined();
  });

  it("sends media as file parts with the data URL", () => {
    const image: ItemPart = {
      type: "image",
      mediaType: "image/png",
      url: PNG,
      attachmentId: "a",
      handle: "media_1",
    };
    const { value: request } = serialiseRequest(
      [item("u1", "user", [image, text("what is it?")])],
      model(),
      settings(),
    );
    expect(request.messages[0]).toEqual({
      role: "user",
      content: [
        { type: "file", mediaType: "image/png", data: PNG },
        { type: "text", text: "what is it?" },
      ],
    });
  });

  it("writes tool calls, results and reasoning in AI SDK 7 shape", () => {
    const items = [
      item("a1", "assistant", [
        { type: "reasoning", text: "need the time", providerMetadata: { openai: { itemId: "rs_1" } } },
        text("checking"),
        { type: "tool-call", toolCallId: "c1", toolName: "current_time", input: '{"tz":"UTC"}' },
        { type: "tool-call", toolCallId: "c2", toolName: "current_time", input: { tz: "CET" } },
      ]),
      item("t1", "tool", [
        { type: "tool-result", toolCallId: "c1", toolName: "current_time", output: { time: "12:00" } },
        { type: "tool-result", toolCallId: "c2", toolName: "current_time", output: "13:00" },
      ]),
    ];
    const { value: request } = serialiseRequest(items, model(), settings());
    expect(request.messages).toEqual([
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "need the time", providerOptions: { openai: { itemId: "rs_1" } } },
          { type: "text", text: "checking" },
          { type: "tool-call", toolCallId: "c1", toolName: "current_time", input: { tz: "UTC" } },
          { type: "tool-call", toolCallId: "c2", toolName: "current_time", input: { tz: "CET" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "current_time",
            output: { type: "json", value: { time: "12:00" } },
          },
          {
            type: "tool-result",
            toolCallId: "c2",
            toolName: "current_time",
            output: { type: "text", value: "13:00" },
          },
        ],
      },
    ]);
  });

  it("puts tool results found on an assistant item into a following tool message", () => {
    const items = [
      item("a1", "assistant", [
        { type: "tool-call", toolCallId: "c1", toolName: "t", input: {} },
        { type: "tool-result", toolCallId: "c1", toolName: "t", output: "ok" },
      ]),
    ];
    expect(
      serialiseRequest(items, model(), settings()).value.messages.map((message) => message.role),
    ).toEqual(["assistant", "tool"]);
  });

  it("maps tool outputs: strings to text, everything else to json", () => {
    expect(toolResultOutput("x")).toEqual({ type: "text", value: "x" });
    expect(toolResultOutput(undefined)).toEqual({ type: "text", value: "" });
    expect(toolResultOutput([1, 2])).toEqual({ type: "json", value: [1, 2] });
    expect(toolResultOutput(null)).toEqual({ type: "json", value: null });
  });

  it("never emits an empty message, and traces what it left out", () => {
    const descriptor = {
      handle: "media_1",
      attachmentId: "a",
      kind: "image" as const,
      mime: "image/png",
      url: PNG,
      sha256: "s",
      state: "render" as const,
      senderName: "Ada",
      messageSeq: 1,
    };
    const items = [
      item("blank", "user", [text("   ")]),
      item("empty-assistant", "assistant", []),
      item("placeholder-only", "user", [{ type: "media", descriptor }]),
      item("empty-system", "system", [text("")]),
      item("u1", "user", [text("real")]),
    ];
    const { value: request, trace: events } = serialiseRequest(items, model(), settings());
    expect(request.messages).toEqual([{ role: "user", content: [{ type: "text", text: "real" }] }]);
    expect(request.instructions).toBeUndefined();
    expect(events).toMatchObject([
      {
        stage: "serialise",
        action: "skipped-empty-items",
        itemIds: ["blank", "empty-assistant", "placeholder-only", "empty-system"],
      },
    ]);
  });

  it("passes stop sequences and the reserved output budget", () => {
    const { value: request } = serialiseRequest(
      [item("u1", "user", [text("hi")])],
      model("openai", {}, 1_000),
      settings(),
      ["\nAda:"],
    );
    expect(request.stopSequences).toEqual(["\nAda:"]);
    expect(request.maxOutputTokens).toBe(1_000);
    const none = serialiseRequest(
      [item("u1", "user", [text("hi")])],
      model(),
      settings((value) => {
        value.budget.reservedOutputTokens = 0;
      }),
    );
    expect(none.value.maxOutputTokens).toBeUndefined();
  });
});

describe("thinking options", () => {
  const thinking = settings((value) => {
    value.thinking.enabled = true;
    value.thinking.budgetTokens = 10_000;
  });

  it("maps budgets onto OpenAI effort levels", () => {
    expect([0, 2_048, 2_049, 8_192, 8_193].map(reasoningEffortFor)).toEqual([
      "low",
      "low",
      "medium",
      "medium",
      "high",
    ]);
  });

  it("uses reasoningEffort for OpenAI and OpenAI-compatible models", () => {
    expect(thinkingProviderOptions(model("openai", { reasoning: true }), thinking)).toEqual({
      openai: { reasoningEffort: "high" },
    });
    expect(thinkingProviderOptions(model("openai-compatible", { reasoning: true }), thinking)).toEqual({
      openai: { reasoningEffort: "high" },
    });
  });

  it("uses thinkingConfig.thinkingBudget for Gemini", () => {
    expect(thinkingProviderOptions(model("google", { reasoning: true }), thinking)).toEqual({
      google: { thinkingConfig: { thinkingBudget: 10_000, includeThoughts: true } },
    });
  });

  it("sends nothing when thinking is off or the model does not reason, and says so", () => {
    expect(thinkingProviderOptions(model("google", { reasoning: true }), settings())).toEqual({});
    const { value: request, trace: events } = serialiseRequest(
      [item("u1", "user", [text("hi")])],
      model("openai", { reasoning: false }),
      thinking,
    );
    expect(request.providerOptions).toEqual({});
    expect(events.map((event) => event.action)).toEqual(["thinking-not-sent"]);
  });

  it("traces the options it sends", () => {
    const { trace: events } = serialiseRequest(
      [item("u1", "user", [text("hi")])],
      model("google", { reasoning: true }),
      thinking,
    );
    expect(events).toMatchObject([
      {
        action: "thinking-enabled",
        details: {
          providerOptions: { google: { thinkingConfig: { thinkingBudget: 10_000, includeThoughts: true } } },
        },
      },
    ]);
  });
});

describe("provider metadata and stateless requests", () => {
  const thinking = settings((value) => {
    value.thinking.enabled = true;
    value.thinking.budgetTokens = 10_000;
  });

  it("sends each replayed part's provider metadata back as its provider options", () => {
    const google = { google: { thoughtSignature: "sig-1" } };
    const items = [
      item("u1", "user", [text("time?")]),
      item("r1", "assistant", [{ type: "reasoning", text: "", providerMetadata: google }]),
      item("c1", "assistant", [
        { type: "tool-call", toolCallId: "c1", toolName: "clock", input: "{}", providerMetadata: google },
      ]),
      item("o1", "tool", [{ type: "tool-result", toolCallId: "c1", toolName: "clock", output: "noon" }]),
      item("a1", "assistant", [{ type: "text", text: "Noon.", providerMetadata: google }]),
    ];
    const { value: request } = serialiseRequest(items, model("google", { reasoning: true }), settings());
    expect(request.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "time?" }] },
      // Hidden reasoning has no text and still goes back, with its signature.
      { role: "assistant", content: [{ type: "reasoning", text: "", providerOptions: google }] },
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "c1", toolName: "clock", input: {}, providerOptions: google },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "clock",
            output: { type: "text", value: "noon" },
          },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "Noon.", providerOptions: google }] },
    ]);
  });

  it("makes every Responses request stateless; a reasoning model's asks for its encrypted reasoning", () => {
    const responses = (reasoning: boolean) =>
      modelDescriptor({ provider: "openai", apiKind: "responses" }, { reasoning });
    const options = (descriptor: ModelDescriptor, value = settings()) =>
      serialiseRequest([item("u1", "user", [text("hi")])], descriptor, value).value.providerOptions;
    expect(options(responses(false))).toEqual({ openai: { store: false } });
    expect(options(responses(true))).toEqual({
      openai: { store: false, include: ["reasoning.encrypted_content"] },
    });
    expect(options(responses(true), thinking)).toEqual({
      openai: {
        store: false,
        include: ["reasoning.encrypted_content"],
        reasoningEffort: "high",
      },
    });
    // The chat API keeps no state to speak of.
    expect(options(model("openai", { reasoning: true }))).toEqual({});
  });
});

describe("history goes back in the form it came", () => {
  const call = (
    toolCallId: string,
    extra: Partial<Extract<ItemPart, { type: "tool-call" }>> = {},
  ): ItemPart => ({
    type: "tool-call",
    toolCallId,
    toolName: "read",
    input: {},
    ...extra,
  });
  const result = (
    toolCallId: string,
    output: unknown,
    extra: Partial<Extract<ItemPart, { type: "tool-result" }>> = {},
  ): ItemPart => ({ type: "tool-result", toolCallId, toolName: "read", output, ...extra });
  const step = (n: number) => ({ step: `m2:step:${n}` });

  const scenarios: Array<{
    name: string;
    model: ModelDescriptor;
    items: ContextItem[];
    /** Each message as role and its parts' types (a provider-run part marked), in order. */
    expected: Array<[string, string[]]>;
  }> = [
    {
      name: "a step's thought and parallel calls: one assistant message, one tool message",
      model: model("google"),
      items: [
        item("u", "user", [text("go")]),
        item("r", "assistant", [{ type: "reasoning", text: "hm" }], step(0)),
        item("c", "assistant", [call("a"), call("b")], step(0)),
        item("o", "tool", [result("a", "1"), result("b", "2")], step(0)),
        item("t", "assistant", [text("done")], step(1)),
      ],
      expected: [
        ["user", ["text"]],
        ["assistant", ["reasoning", "tool-call", "tool-call"]],
        ["tool", ["tool-result", "tool-result"]],
        ["assistant", ["text"]],
      ],
    },
    {
      name: "invalid calls answered at once, in one step: still one assistant and one tool message",
      model: model("anthropic"),
      items: [
        item("u", "user", [text("go")]),
        item("c1", "assistant", [call("a")], step(0)),
        item("o1", "tool", [result("a", "no", { outputType: "error-text" })], step(0)),
        item("c2", "assistant", [call("b")], step(0)),
        item("o2", "tool", [result("b", "no", { outputType: "error-text" })], step(0)),
      ],
      expected: [
        ["user", ["text"]],
        ["assistant", ["tool-call", "tool-call"]],
        ["tool", ["tool-result", "tool-result"]],
      ],
    },
    {
      name: "items without a step (older history) keep a message each",
      model: model("openai"),
      items: [
        item("u", "user", [text("go")]),
        item("t", "assistant", [text("Let me see.")]),
        item("c", "assistant", [call("a")]),
        item("o", "tool", [result("a", "1")]),
      ],
      expected: [
        ["user", ["text"]],
        ["assistant", ["text"]],
        ["assistant", ["tool-call"]],
        ["tool", ["tool-result"]],
      ],
    },
    {
      name: "Anthropic's own code execution goes back inside the assistant message, to Anthropic",
      model: model("anthropic"),
      items: [
        item("u", "user", [text("go")]),
        item("t", "assistant", [text("Running.")], step(0)),
        item(
          "c",
          "assistant",
          [
            call("srv", { providerExecuted: true, executedBy: "anthropic" }),
            result("srv", { stdout: "4" }, { providerExecuted: true, executedBy: "anthropic" }),
          ],
          step(0),
        ),
        item("t2", "assistant", [text("It is 4.")], step(0)),
      ],
      expected: [
        ["user", ["text"]],
        ["assistant", ["text", "tool-call(provider)", "tool-result", "text"]],
      ],
    },
    {
      name: "a provider-run tool is left out for a stateless Responses request",
      model: modelDescriptor({ id: "responses", provider: "openai", apiKind: "responses" }),
      items: [
        item("u", "user", [text("go")]),
        item(
          "c",
          "assistant",
          [
            call("fs", { providerExecuted: true, executedBy: "openai" }),
            result("fs", [], { providerExecuted: true, executedBy: "openai" }),
          ],
          step(0),
        ),
        item("t", "assistant", [text("The file says hi.")], step(0)),
      ],
      expected: [
        ["user", ["text"]],
        ["assistant", ["text"]],
      ],
    },
    {
      name: "another provider's tool run is left out",
      model: model("google"),
      items: [
        item("u", "user", [text("go")]),
        item(
          "c",
          "assistant",
          [
            call("srv", { providerExecuted: true, executedBy: "anthropic" }),
            result("srv", {}, { providerExecuted: true, executedBy: "anthropic" }),
          ],
          step(0),
        ),
        item("t", "assistant", [text("Done.")], step(0)),
      ],
      expected: [
        ["user", ["text"]],
        ["assistant", ["text"]],
      ],
    },
  ];

  for (const scenario of scenarios) {
    it(scenario.name, () => {
      const { messages } = serialiseRequest(scenario.items, scenario.model, settings()).value;
      const view = messages.map((message): [string, string[]] => [
        message.role,
        typeof message.content === "string"
          ? ["text"]
          : message.content.map(
              (part) =>
                `${part.type}${"providerExecuted" in part && part.providerExecuted ? "(provider)" : ""}`,
            ),
      ]);
      expect(view).toEqual(scenario.expected);
    });
  }

  it("puts a breakpoint on the step's shared message the marked item wrote to", () => {
    const items = [
      item("u", "user", [text("go")]),
      item("c", "assistant", [call("a")], { ...step(0), cacheBreakpoint: "history" }),
      item("o", "tool", [result("a", "no", { outputType: "error-text" })], step(0)),
      item("c2", "assistant", [call("b")], { ...step(0), cacheBreakpoint: "history" }),
    ];
    const { messages } = serialiseRequest(items, model("anthropic"), settings()).value;
    expect(messages.map((message) => [message.role, message.providerOptions ?? null])).toEqual([
      ["user", null],
      ["assistant", { anthropic: { cacheControl: { type: "ephemeral" } } }],
      ["tool", null],
    ]);
  });

  it("traces provider-run tools it leaves out, with the reason", () => {
    const items = [
      item("u", "user", [text("go")]),
      item("c", "assistant", [call("fs", { providerExecuted: true, executedBy: "openai" })], step(0)),
    ];
    const responses = modelDescriptor({ id: "responses", provider: "openai", apiKind: "responses" });
    const { trace } = serialiseRequest(items, responses, settings());
    const event = trace.find((entry) => entry.action === "dropped-provider-run-tools");
    expect(event?.itemIds).toEqual(["c"]);
    expect(event?.details?.toolCallIds).toEqual(["fs"]);
    expect(event?.reason).toContain("store: false");
  });

  it("sends a tool's failure as the SDK's error output, as the loop did", () => {
    expect(toolResultOutput("no such tool", "error-text")).toEqual({
      type: "error-text",
      value: "no such tool",
    });
    expect(toolResultOutput({ code: 1 }, "error-json")).toEqual({ type: "error-json", value: { code: 1 } });
    // Older rows stored an error as a JSON object: it goes back as it went then.
    expect(toolResultOutput({ error: "boom" })).toEqual({ type: "json", value: { error: "boom" } });
  });
});
