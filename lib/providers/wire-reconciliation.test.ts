import { describe, expect, it } from "vitest";
import type { ContextItem, ItemPart } from "@/lib/domain/types";
import { valueAtPointer, type WireFormat, wireFormatOfUrl } from "./wire-elements";
import { reconcileWire, type WireMap, warningText, wireMapProblems } from "./wire-reconciliation";

function item(id: string, role: ContextItem["role"], ...parts: ItemPart[]): ContextItem {
  const tag = role === "system" ? "SYSTEM_PROMPT" : role === "tool" ? "TOOL_RESULT" : "DIALOGUE_HISTORY";
  return { id, role, tag, parts, sourceMessageIds: [], tokens: 1 };
}
const text = (value: string): ItemPart => ({ type: "text", text: value });
const call = (toolCallId: string, toolName = "lookup"): ItemPart => ({
  type: "tool-call",
  toolCallId,
  toolName,
  input: {},
});
const result = (toolCallId: string, toolName = "lookup"): ItemPart => ({
  type: "tool-result",
  toolCallId,
  toolName,
  output: "ok",
});
const PNG = `data:image/png;base64,${"iVBORw0KGgo".repeat(60)}`;

interface Scenario {
  name: string;
  format: WireFormat;
  items: ContextItem[];
  body: unknown;
  warnings?: string[];
  expected: WireMap;
}

const SCENARIOS: Scenario[] = [
  {
    name: "OpenAI chat: system items share the one system message; calls and results by id",
    format: "openai-chat",
    items: [
      item("system", "system", text("Be brief.")),
      item("rules", "system", text("# TOOLS")),
      item("question", "user", text("Ada: time?")),
      item("calls", "assistant", call("c1"), call("c2")),
      item("results", "tool", result("c1"), result("c2")),
    ],
    body: {
      model: "m",
      messages: [
        { role: "system", content: "Be brief.\n\n# TOOLS" },
        { role: "user", content: "Ada: time?" },
        {
          role: "assistant",
          content: "",
          tool_calls: [
            { id: "c1", type: "function", function: { name: "lookup", arguments: "{}" } },
            { id: "c2", type: "function", function: { name: "lookup", arguments: "{}" } },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: "ok" },
        { role: "tool", tool_call_id: "c2", content: "ok" },
      ],
    },
    expected: {
      addresses: [
        { wirePaths: ["/messages/0"], merged: true },
        { wirePaths: ["/messages/0"], merged: true },
        { wirePaths: ["/messages/1"] },
        { wirePaths: ["/messages/2/tool_calls/0", "/messages/2/tool_calls/1"] },
        { wirePaths: ["/messages/3", "/messages/4"] },
      ],
      unclaimed: [],
    },
  },
  {
    name: "OpenAI Responses: reasoning the adapter skipped is dropped with its warning",
    format: "openai-responses",
    items: [
      item("question", "user", text("Sum it")),
      item("thought", "assistant", { type: "reasoning", text: "Add them." }),
      item("answer", "assistant", text("570")),
    ],
    body: {
      input: [
        { role: "user", content: [{ type: "input_text", text: "Sum it" }] },
        { role: "assistant", content: [{ type: "output_text", text: "570" }] },
      ],
    },
    warnings: [
      warningText({
        type: "other",
        message: "Reasoning parts without encrypted content are not supported when store is false.",
      }),
    ],
    expected: {
      addresses: [
        { wirePaths: ["/input/0/content/0"] },
        {
          wirePaths: [],
          dropped: {
            reason:
              "The OpenAI Responses adapter left it out: Reasoning parts without encrypted content are not supported when store is false.",
          },
        },
        { wirePaths: ["/input/1/content/0"] },
      ],
      unclaimed: [],
    },
  },
  {
    name: "OpenAI Responses: a provider-run file search carries its call and its result in one element",
    format: "openai-responses",
    items: [
      item(
        "search",
        "assistant",
        call("fs_1", "file_search"),
        result("fs_1", "file_search"),
        text("Found it."),
      ),
    ],
    body: {
      input: [
        { type: "file_search_call", id: "fs_1", status: "completed", queries: ["q"], results: null },
        { role: "assistant", content: [{ type: "output_text", text: "Found it." }] },
      ],
    },
    expected: { addresses: [{ wirePaths: ["/input/0", "/input/1/content/0"] }], unclaimed: [] },
  },
  {
    name: "Anthropic: a provider-run code execution and its result, thinking by signature",
    format: "anthropic",
    items: [
      item("question", "user", text("Run it")),
      item(
        "work",
        "assistant",
        {
          type: "reasoning",
          text: "",
          providerMetadata: { anthropic: { signature: "EqQBCkYIBxgCKkA-signature" } },
        },
        call("srvtoolu_1", "bash_code_execution"),
        result("srvtoolu_1", "bash_code_execution"),
        text("Done."),
      ),
    ],
    body: {
      system: [{ type: "text", text: "x" }],
      messages: [
        { role: "user", content: [{ type: "text", text: "Run it" }] },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "", signature: "EqQBCkYIBxgCKkA-signature" },
            { type: "server_tool_use", id: "srvtoolu_1", name: "bash_code_execution", input: {} },
            { type: "bash_code_execution_tool_result", tool_use_id: "srvtoolu_1", content: {} },
            { type: "text", text: "Done." },
          ],
        },
      ],
    },
    expected: {
      addresses: [
        { wirePaths: ["/messages/0/content/0"] },
        {
          wirePaths: [
            "/messages/1/content/0",
            "/messages/1/content/1",
            "/messages/1/content/2",
            "/messages/1/content/3",
          ],
        },
      ],
      // The system block came from no item here.
      unclaimed: [{ pointer: "/system/0", what: "system text: “x”" }],
    },
  },
  {
    name: "Gemini: parallel calls without ids are told apart by name, in order; a signed empty part goes with its call",
    format: "gemini",
    items: [
      item("question", "user", text("Look")),
      item(
        "calls",
        "assistant",
        {
          type: "tool-call",
          toolCallId: "a",
          toolName: "read_theme",
          input: {},
          providerMetadata: { google: { thoughtSignature: "sig-read-theme-0001" } },
        },
        call("b", "read_screen"),
        call("c", "read_screen"),
      ),
      item(
        "results",
        "tool",
        result("a", "read_theme"),
        result("b", "read_screen"),
        result("c", "read_screen"),
      ),
    ],
    body: {
      contents: [
        { role: "user", parts: [{ text: "Look" }] },
        {
          role: "model",
          parts: [
            { functionCall: { name: "read_theme", args: {} }, thoughtSignature: "sig-read-theme-0001" },
            { functionCall: { name: "read_screen", args: {} } },
            { functionCall: { name: "read_screen", args: {} } },
            { text: "", thoughtSignature: "sig-read-theme-0001" },
          ],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { name: "read_theme", response: {} } },
            { functionResponse: { name: "read_screen", response: {} } },
            { functionResponse: { name: "read_screen", response: {} } },
          ],
        },
      ],
    },
    expected: {
      addresses: [
        { wirePaths: ["/contents/0/parts/0"] },
        {
          wirePaths: [
            "/contents/1/parts/0",
            "/contents/1/parts/1",
            "/contents/1/parts/2",
            "/contents/1/parts/3",
          ],
        },
        { wirePaths: ["/contents/2/parts/0", "/contents/2/parts/1", "/contents/2/parts/2"] },
      ],
      unclaimed: [],
    },
  },
  {
    name: "a media part the adapter left out is named; an item with nothing sendable is dropped",
    format: "openai-chat",
    items: [
      item("photo", "user", text("See this"), {
        type: "image",
        mediaType: "image/png",
        url: PNG,
        attachmentId: "a1",
        handle: "media_1",
      }),
      item("blank", "assistant", text("   ")),
    ],
    body: { messages: [{ role: "user", content: "See this" }] },
    warnings: ["file part media type image/png is not supported"],
    expected: {
      addresses: [
        {
          wirePaths: ["/messages/0"],
          droppedParts: [
            {
              part: 1,
              reason:
                "The OpenAI chat completions adapter left it out: file part media type image/png is not supported",
            },
          ],
        },
        {
          wirePaths: [],
          dropped: { reason: "It has nothing a provider can be sent (no text, media or tool part)." },
        },
      ],
      unclaimed: [],
    },
  },
  {
    name: "a stored body's elided media is found by its byte count",
    format: "anthropic",
    items: [
      item("photo", "user", {
        type: "image",
        mediaType: "image/png",
        url: PNG,
        attachmentId: "a1",
        handle: "m1",
      }),
    ],
    body: {
      messages: [
        {
          role: "user",
          content: [
            {
              type: "image",
              source: {
                type: "base64",
                media_type: "image/png",
                data: `[elided-media sha256=${"0".repeat(64)} bytes=${(PNG.length - 22) * 0.75}]`,
              },
            },
          ],
        },
      ],
    },
    expected: { addresses: [{ wirePaths: ["/messages/0/content/0"] }], unclaimed: [] },
  },
  {
    name: "the offline model's prompt",
    format: "offline",
    items: [item("system", "system", text("Be kind.")), item("question", "user", text("Hi"))],
    body: {
      prompt: [
        { role: "system", content: "Be kind." },
        { role: "user", content: [{ type: "text", text: "Hi" }] },
      ],
    },
    expected: {
      addresses: [{ wirePaths: ["/prompt/0"] }, { wirePaths: ["/prompt/1/content/0"] }],
      unclaimed: [],
    },
  },
];

describe("reconcileWire", () => {
  it.each(SCENARIOS)("$name", ({ format, items, body, warnings, expected }) => {
    const map = reconcileWire({ format, body: JSON.stringify(body), items, warnings });
    expect(map).toEqual(expected);
    expect(wireMapProblems({ format, body, items, map })).toEqual([]);
  });
});

describe("wireMapProblems: the invariants catch a wrong map", () => {
  const { format, items, body } = SCENARIOS[0];
  const good = reconcileWire({ format, body, items });
  const broken = (change: (map: WireMap) => void) => {
    const map = structuredClone(good);
    change(map);
    return wireMapProblems({ format, body, items, map });
  };

  it.each<[string, (map: WireMap) => void, string]>([
    [
      "a pointer that does not resolve",
      (map) => map.addresses[2].wirePaths.splice(0, 1, "/messages/9"),
      "does not resolve",
    ],
    [
      "text that is not at its pointer",
      (map) => map.addresses[2].wirePaths.splice(0, 1, "/messages/3"),
      "is not at",
    ],
    [
      "an element neither claimed nor listed",
      (map) => map.addresses[4].wirePaths.pop(),
      "neither claimed nor listed",
    ],
    [
      "an item with no pointer and no reason",
      (map) => map.addresses[2].wirePaths.pop(),
      "no pointer and no reason",
    ],
    [
      "a dropped item that has pointers",
      (map) => {
        map.addresses[2].dropped = { reason: "?" };
      },
      "dropped yet has pointers",
    ],
  ])("%s", (_name, change, problem) => {
    expect(broken(change).join("\n")).toContain(problem);
  });
});

describe("wireFormatOfUrl", () => {
  it.each([
    ["https://api.openai.com/v1/chat/completions", "openai-chat"],
    ["http://127.0.0.1:4010/compatible/v1/chat/completions", "openai-chat"],
    ["https://api.openai.com/v1/responses", "openai-responses"],
    ["https://api.anthropic.com/v1/messages", "anthropic"],
    ["https://generativelanguage.googleapis.com/v1beta/models/g:streamGenerateContent?alt=sse", "gemini"],
    ["https://generativelanguage.googleapis.com/v1beta/models/g:generateContent", "gemini"],
    ["offline://echo", "offline"],
    ["/v1/chat/completions", "openai-chat"],
    ["https://example.com/v1/embeddings", null],
  ])("%s → %s", (url, format) => {
    expect(wireFormatOfUrl(url)).toBe(format);
  });
});

describe("valueAtPointer", () => {
  it.each([
    ["", { a: [1, { "b/c": 2, "d~e": 3 }] }],
    ["/a/0", 1],
    ["/a/1/b~1c", 2],
    ["/a/1/d~0e", 3],
    ["/a/2", undefined],
    ["/a/01", undefined],
    ["a", undefined],
  ])("%s", (pointer, value) => {
    expect(valueAtPointer({ a: [1, { "b/c": 2, "d~e": 3 }] }, pointer)).toEqual(value);
  });
});
