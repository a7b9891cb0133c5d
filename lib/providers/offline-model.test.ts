// The offline model streams its reply a word at a time, each word after a pause that an abort ends: a pause must
// not leave its abort listener on the call's signal (a 200-word reply left 200, and Node's leak warning).
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, test } from "vitest";
import { createOfflineModel, describePrompt } from "./offline-model";

async function streamedText(signal: AbortSignal): Promise<string> {
  const model = createOfflineModel("offline:echo");
  const { stream } = await model.doStream({
    prompt: [
      { role: "user", content: [{ type: "text", text: "one two three four five six seven eight nine ten" }] },
    ],
    abortSignal: signal,
  });
  let text = "";
  const reader = stream.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    if (part.value.type === "text-delta") text += part.value.delta;
  }
  return text;
}

describe("the offline model's pauses", () => {
  test("a whole reply leaves no abort listener on the signal", async () => {
    const controller = new AbortController();
    const text = await streamedText(controller.signal);
    expect(text.split(/\s+/).length).toBeGreaterThan(10);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  test("an abort mid-reply still ends the stream early", async () => {
    const controller = new AbortController();
    const pending = streamedText(controller.signal);
    controller.abort();
    const text = await pending;
    expect(text).toBe("");
  });
});

// Its first line says why it answers: a persona may use it by choice while keys are configured, and then "no provider
// key is configured" would be false.
describe("the offline model's first line", () => {
  const keys = [
    "OPENAI_API_KEY",
    "GOOGLE_GENERATIVE_AI_API_KEY",
    "ANTHROPIC_API_KEY",
    "OPENAI_COMPATIBLE_BASE_URL",
  ] as const;
  const saved = Object.fromEntries(keys.map((key) => [key, process.env[key]]));
  afterEach(() => {
    for (const key of keys) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  function firstLine(): string {
    return describePrompt({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] }).split(
      "\n",
    )[0];
  }

  test("with no provider configured it says so", () => {
    for (const key of keys) delete process.env[key];
    expect(firstLine()).toBe(
      "Offline model here: no provider key is configured, so I describe what I received instead of answering.",
    );
  });

  test("with a key configured it says the conversation uses it", () => {
    for (const key of keys) delete process.env[key];
    process.env.ANTHROPIC_API_KEY = "sk-test";
    expect(firstLine()).toBe(
      "Offline model here: this conversation uses the offline model, so I describe what I received instead of answering.",
    );
  });

  test("an OpenAI-compatible base URL counts as configured", () => {
    for (const key of keys) delete process.env[key];
    process.env.OPENAI_COMPATIBLE_BASE_URL = "http://127.0.0.1:9/v1";
    expect(firstLine()).toBe(
      "Offline model here: this conversation uses the offline model, so I describe what I received instead of answering.",
    );
  });
});
