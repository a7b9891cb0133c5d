// JSONL lines: every attempt becomes one, and a call that recorded no items (a title, a draft) takes its messages
// from the request body it sent, in whichever wire format that was.
import { describe, expect, test } from "vitest";
import { attemptAsJsonlLine, requestBodyMessages } from "./openai-chat-example";

const SYSTEM = "Name the conversation.";
const QUESTION = "Tulips: how deep?";
const SENT = [
  { role: "system", content: SYSTEM },
  { role: "user", content: QUESTION },
];
/** The user's question as one content part of the given type. */
const asked = (type: string) => ({ role: "user", content: [{ type, text: QUESTION }] });

describe("requestBodyMessages", () => {
  test.each([
    {
      format: "OpenAI chat",
      body: { model: "m", messages: [{ role: "system", content: SYSTEM }, asked("text")] },
    },
    {
      format: "OpenAI Responses",
      body: { model: "m", input: [{ role: "developer", content: SYSTEM }, asked("input_text")] },
    },
    {
      format: "Anthropic",
      body: { model: "m", system: [{ type: "text", text: SYSTEM }], messages: [asked("text")] },
    },
    {
      format: "Gemini",
      body: {
        systemInstruction: { parts: [{ text: SYSTEM }] },
        contents: [{ role: "user", parts: [{ text: QUESTION }] }],
      },
    },
    {
      format: "the offline model's SDK prompt",
      body: { prompt: [{ role: "system", content: SYSTEM }, asked("text")] },
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
  /** The line of a reply on the base's model. */
  const replyLine = (status: string, messages: unknown[], error: unknown = null) => ({
    messages,
    kind: "reply",
    status,
    modelId: "openai:gpt-4.1-mini",
    error,
  });
  test.each([
    {
      name: "answered: the reply closes the messages",
      attempt: { ...base, status: "ok", error: null, response: { text: "20 cm." } },
      line: replyLine("ok", [
        { role: "user", content: "Tulips: how deep?" },
        { role: "assistant", content: "20 cm." },
      ]),
    },
    {
      name: "stopped part-way: the text it got so far",
      attempt: { ...base, status: "stopped", error: null, response: { text: "20" } },
      line: replyLine("stopped", [
        { role: "user", content: "Tulips: how deep?" },
        { role: "assistant", content: "20" },
      ]),
    },
    {
      name: "failed before any text: no reply, the error kept",
      attempt: { ...base, status: "error", error: { code: "bad_request", message: "no" }, response: null },
      line: replyLine("error", [{ role: "user", content: "Tulips: how deep?" }], {
        code: "bad_request",
        message: "no",
      }),
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
