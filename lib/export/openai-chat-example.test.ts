// JSONL lines: every attempt becomes one, and a call that recorded no items (a title, a draft) takes its messages
// from the request body it sent, in whichever wire format that was.
import { describe, expect, test } from "vitest";
import { attemptAsJsonlLine, requestBodyMessages } from "./openai-chat-example";

const SENT = [
  { role: "system", content: "Name the conversation." },
  { role: "user", content: "Tulips: how deep?" },
];

describe("requestBodyMessages", () => {
  test.each([
    {
      format: "OpenAI chat",
      body: {
        model: "m",
        messages: [
          { role: "system", content: "Name the conversation." },
          { role: "user", content: [{ type: "text", text: "Tulips: how deep?" }] },
        ],
      },
    },
    {
      format: "OpenAI Responses",
      body: {
        model: "m",
        input: [
          { role: "developer", content: "Name the conversation." },
          { role: "user", content: [{ type: "input_text", text: "Tulips: how deep?" }] },
        ],
      },
    },
    {
      format: "Anthropic",
      body: {
        model: "m",
        system: [{ type: "text", text: "Name the conversation." }],
        messages: [{ role: "user", content: [{ type: "text", text: "Tulips: how deep?" }] }],
      },
    },
    {
      format: "Gemini",
      body: {
        systemInstruction: { parts: [{ text: "Name the conversation." }] },
        contents: [{ role: "user", parts: [{ text: "Tulips: how deep?" }] }],
      },
    },
    {
      format: "the offline model's SDK prompt",
      body: {
        prompt: [
          { role: "system", content: "Name the conversation." },
          { role: "user", content: [{ type: "text", text: "Tulips: how deep?" }] },
        ],
      },
    },
  ])("$format", ({ body }) => {
    expect(requestBodyMessages(JSON.stringify(body))).toEqual(SENT);
  });

  test("a Gemini model turn is an assistant message; a body that is not JSON has none", () => {
    const body = {
      contents: [
        { role: "user", parts: [{ text: "Hi" }] },
        { role: "model", parts: [{ text: "Hello" }] },
      ],
    };
    expect(requestBodyMessages(JSON.stringify(body))).toEqual([
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello" },
    ]);
    expect(requestBodyMessages("[unrecorded stream]")).toEqual([]);
    expect(requestBodyMessages(null)).toEqual([]);
  });
});

describe("attemptAsJsonlLine", () => {
  const items = [
    { id: "u1", role: "user", tag: "message", parts: [{ type: "text", text: "Tulips: how deep?" }] },
  ];
  const base = { kind: "reply", modelId: "openai:gpt-4.1-mini", items, request: null };
  test.each([
    {
      name: "answered: the reply closes the messages",
      attempt: { ...base, status: "ok", error: null, response: { text: "20 cm." } },
      line: {
        messages: [
          { role: "user", content: "Tulips: how deep?" },
          { role: "assistant", content: "20 cm." },
        ],
        kind: "reply",
        status: "ok",
        modelId: "openai:gpt-4.1-mini",
        error: null,
      },
    },
    {
      name: "stopped part-way: the text it got so far",
      attempt: { ...base, status: "stopped", error: null, response: { text: "20" } },
      line: {
        messages: [
          { role: "user", content: "Tulips: how deep?" },
          { role: "assistant", content: "20" },
        ],
        kind: "reply",
        status: "stopped",
        modelId: "openai:gpt-4.1-mini",
        error: null,
      },
    },
    {
      name: "failed before any text: no reply, the error kept",
      attempt: { ...base, status: "error", error: { code: "bad_request", message: "no" }, response: null },
      line: {
        messages: [{ role: "user", content: "Tulips: how deep?" }],
        kind: "reply",
        status: "error",
        modelId: "openai:gpt-4.1-mini",
        error: { code: "bad_request", message: "no" },
      },
    },
    {
      name: "a title call with no items: the messages its body sent",
      attempt: {
        kind: "title",
        modelId: "offline:echo",
        items: [],
        request: { body: JSON.stringify({ prompt: SENT }) },
        status: "ok",
        error: null,
        response: { text: "Tulip depth" },
      },
      line: {
        messages: [...SENT, { role: "assistant", content: "Tulip depth" }],
        kind: "title",
        status: "ok",
        modelId: "offline:echo",
        error: null,
      },
    },
  ])("$name", ({ attempt, line }) => {
    expect(attemptAsJsonlLine(attempt)).toEqual(line);
  });
});
