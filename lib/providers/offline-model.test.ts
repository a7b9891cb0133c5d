// The offline model streams its reply a word at a time, each word after a pause that an abort ends: a pause must
// not leave its abort listener on the call's signal (a 200-word reply left 200, and Node's leak warning).
import { getEventListeners } from "node:events";
import { describe, expect, test } from "vitest";
import { createOfflineModel } from "./offline-model";

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
