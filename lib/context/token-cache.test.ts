import { describe, expect, it } from "vitest";
import type { StoredArtifact, StoredMessage, StoredPart } from "@/lib/domain/types";
import {
  artifactOfType,
  buildInput,
  functionCallArtifact,
  functionOutputArtifact,
  PERSONA,
  personaMessage,
  reasoningArtifact,
  userMessage,
} from "@/tests/context/fixtures";
import { storedArtifact, storedMedia, storedText } from "@/tests/context/stored-parts";
import { buildContext } from "./build-context";
import { artifactTokenCounts, CACHED_TOKENIZERS, messageTokenCounts } from "./token-cache";
import { countItemTokens, countPartTokens, countTextTokens } from "./tokens";

const o200k = (text: string) => countTextTokens(text, "o200k_base");

describe("cached token counts", () => {
  it("caches the OpenAI tokenizer and the estimate", () => {
    expect(CACHED_TOKENIZERS).toEqual(["o200k_base", "estimate"]);
  });

  it("counts a plain text message's text, with no segments", () => {
    const text = "Hello there, how was the trip to Lisbon?"; // 40 characters
    expect(messageTokenCounts([{ type: "text", text }])).toEqual({
      tokenCounts: { o200k_base: o200k(text), estimate: 10 },
      segmentTokenCounts: null,
    });
  });

  it("joins text parts with a newline; media does not split the text", () => {
    const parts: StoredPart[] = [
      storedText("Look at this:"),
      storedMedia("i1"),
      storedText("the view from the castle."),
    ];
    const joined = "Look at this:\nthe view from the castle."; // 39 characters
    expect(messageTokenCounts(parts)).toEqual({
      tokenCounts: { o200k_base: o200k(joined), estimate: 10 },
      segmentTokenCounts: null,
    });
  });

  it("counts each text segment of a message split by artifacts (text / artifact / text)", () => {
    const before = "Let me check the forecast for you."; // 34 characters
    const after = "It will be sunny all week in Lisbon, around 24 degrees."; // 55 characters
    const parts: StoredPart[] = [
      { type: "text", text: before },
      { type: "artifact", artifactId: "c1" },
      { type: "artifact", artifactId: "o1" },
      { type: "text", text: after },
    ];
    const result = messageTokenCounts(parts);
    expect(result).toEqual({
      tokenCounts: { o200k_base: o200k(`${before}\n${after}`), estimate: 23 },
      segmentTokenCounts: { o200k_base: [o200k(before), o200k(after)], estimate: [9, 14] },
    });
    // The segments are the split text: they add up to the whole text less the joining newline, give or take.
    const [first = Number.NaN, second = Number.NaN] = result.segmentTokenCounts?.o200k_base ?? [];
    expect(Math.abs(first + second - (result.tokenCounts.o200k_base ?? 0))).toBeLessThanOrEqual(1);
  });

  it("joins consecutive text parts within a segment and skips blank pieces", () => {
    const parts: StoredPart[] = [
      storedText("  "),
      storedArtifact("r1"),
      storedText("First line"),
      storedMedia("i1"),
      storedText("second line"),
      storedArtifact("c1"),
      storedText("\n\t"),
      storedArtifact("o1"),
      storedText("Done."),
    ];
    const result = messageTokenCounts(parts);
    expect(result.segmentTokenCounts).toEqual({
      o200k_base: [o200k("First line\nsecond line"), o200k("Done.")],
      estimate: [6, 2],
    });
    // The whole text keeps the blank pieces: "  \nFirst line\nsecond line\n\n\t\nDone." is 34 characters.
    expect(result.tokenCounts).toEqual({
      o200k_base: o200k("  \nFirst line\nsecond line\n\n\t\nDone."),
      estimate: 9,
    });
  });

  it("an artifact-only message has no text and no segments", () => {
    expect(messageTokenCounts([storedArtifact("c1"), storedArtifact("o1")])).toEqual({
      tokenCounts: { o200k_base: 0, estimate: 0 },
      segmentTokenCounts: { o200k_base: [], estimate: [] },
    });
    expect(messageTokenCounts([])).toEqual({
      tokenCounts: { o200k_base: 0, estimate: 0 },
      segmentTokenCounts: null,
    });
  });

  it("counts only the tokenizers asked for", () => {
    const parts: StoredPart[] = [storedText("abcdefghi"), storedArtifact("c1"), storedText("jk")];
    expect(messageTokenCounts(parts, ["estimate"])).toEqual({
      tokenCounts: { estimate: 3 },
      segmentTokenCounts: { estimate: [3, 1] },
    });
    expect(messageTokenCounts(parts, ["cl100k_base"]).tokenCounts).toEqual({
      cl100k_base: countTextTokens("abcdefghi\njk", "cl100k_base"),
    });
  });

  describe("artifacts: the count of the part each replays as", () => {
    it("a call: its name plus its arguments, a JSON string parsed (and re-serialised compactly)", () => {
      const args = '{\n  "city":   "Lisbon",\n  "days": 3\n}'; // 37 characters as written
      const compact = '{"city":"Lisbon","days":3}'; // 26 characters
      const counts = artifactTokenCounts(functionCallArtifact("c1", "m1", "k1", "weather_forecast", args));
      expect(counts).toEqual({
        o200k_base: o200k("weather_forecast") + o200k(compact),
        // "weather_forecast" is 16 characters: 4; the compact arguments 7 (the text as written would be 10).
        estimate: 11,
      });
      expect(counts.o200k_base).toBe(
        countPartTokens(
          {
            type: "tool-call",
            toolCallId: "k1",
            toolName: "weather_forecast",
            input: { city: "Lisbon", days: 3 },
          },
          "o200k_base",
        ),
      );
    });

    it("a call with object arguments, and with a string that is not JSON", () => {
      expect(
        artifactTokenCounts(functionCallArtifact("c1", "m1", "k1", "search", { q: "fado bars" })),
      ).toEqual({
        o200k_base: o200k("search") + o200k('{"q":"fado bars"}'),
        estimate: 2 + 5,
      });
      expect(
        artifactTokenCounts(functionCallArtifact("c1", "m1", "k1", "search", "fado bars, {not json")),
      ).toEqual({
        o200k_base: o200k("search") + o200k("fado bars, {not json"),
        estimate: 2 + 5,
      });
    });

    it("an output: a string as it is, JSON as its JSON text, a missing output as nothing", () => {
      const text = "Sunny, 24 degrees, light wind from the north-west."; // 50 characters
      expect(artifactTokenCounts(functionOutputArtifact("o1", "m1", "k1", text))).toEqual({
        o200k_base: o200k(text),
        estimate: 13,
      });
      const output = { temperature: 24, sky: "clear", hourly: [21, 22, 24] };
      const json = '{"temperature":24,"sky":"clear","hourly":[21,22,24]}'; // 52 characters
      expect(JSON.stringify(output)).toBe(json);
      expect(artifactTokenCounts(functionOutputArtifact("o1", "m1", "k1", output, "weather"))).toEqual({
        o200k_base: o200k(json),
        estimate: 13,
      });
      expect(
        artifactTokenCounts(artifactOfType("o1", "m1", "function_call_output", { callId: "k1" })),
      ).toEqual({
        o200k_base: 0,
        estimate: 0,
      });
    });

    it("reasoning: its text", () => {
      const text = "The user wants the weather; call the forecast tool first."; // 57 characters
      expect(artifactTokenCounts(reasoningArtifact("r1", "m1", text))).toEqual({
        o200k_base: o200k(text),
        estimate: 15,
      });
      expect(artifactTokenCounts(reasoningArtifact("r1", "m1", text), ["cl100k_base"])).toEqual({
        cl100k_base: countTextTokens(text, "cl100k_base"),
      });
    });

    it.each([
      ["web_search_call", { query: "lisbon weather" }],
      ["image_generation_call", { prompt: "a tram" }],
      ["openrouter:web_search", { text: "x" }],
    ])("a type never replayed (%s) has no count", (type, payload) => {
      expect(artifactTokenCounts(artifactOfType("w1", "m1", type, payload))).toEqual({});
    });

    it.each<[string, StoredArtifact]>([
      [
        "a call without a name",
        artifactOfType("c1", "m1", "function_call", { callId: "k", arguments: "{}" }),
      ],
      [
        "a call without a call id",
        artifactOfType("c1", "m1", "function_call", { name: "f", arguments: "{}" }),
      ],
      [
        "a call with null arguments",
        artifactOfType("c1", "m1", "function_call", { callId: "k", name: "f", arguments: null }),
      ],
      ["an output without a call id", artifactOfType("o1", "m1", "function_call_output", { output: "x" })],
      ["reasoning without text", artifactOfType("r1", "m1", "reasoning", { summary: "x" })],
    ])("a malformed artifact (%s) has no count", (_name, artifact) => {
      expect(artifactTokenCounts(artifact)).toEqual({});
    });
  });

  it("phase A's counts from cached messages and artifacts are within 2 tokens an item of a full recount", () => {
    // Cache every message and artifact the way the writers do (appendMessage / artifact inserts).
    const cacheMessage = (message: StoredMessage): StoredMessage => {
      const { tokenCounts, segmentTokenCounts } = messageTokenCounts(message.parts);
      return { ...message, tokenCounts, segmentTokenCounts };
    };
    const cacheArtifact = (artifact: StoredArtifact): StoredArtifact => ({
      ...artifact,
      tokenCounts: artifactTokenCounts(artifact),
    });
    const turn = (seq: number, city: string) => ({
      message: personaMessage(seq, "", {
        parts: [
          storedText(`Let me look up the weather in ${city} for you.`),
          storedArtifact(`r${seq}`),
          storedArtifact(`c${seq}`),
          storedArtifact(`d${seq}`),
          storedArtifact(`o${seq}`),
          storedArtifact(`p${seq}`),
          storedText(`In ${city} it will be mostly sunny, with a breeze in the afternoon.`),
          storedText("Pack a light jacket for the evenings."),
        ],
      }),
      artifacts: [
        reasoningArtifact(
          `r${seq}`,
          `m${seq}`,
          `The user asked about ${city}; check the forecast and the tides.`,
        ),
        functionCallArtifact(`c${seq}`, `m${seq}`, `k${seq}`, "weather", `{"city": "${city}", "days": 3}`),
        functionCallArtifact(`d${seq}`, `m${seq}`, `t${seq}`, "tides", { port: city }),
        functionOutputArtifact(`o${seq}`, `m${seq}`, `k${seq}`, {
          city,
          days: [
            { high: 24, low: 16, sky: "sunny" },
            { high: 22, low: 15, sky: "cloudy" },
          ],
        }),
        functionOutputArtifact(`p${seq}`, `m${seq}`, `t${seq}`, "High tide 06:12 and 18:40, low tide 12:25."),
      ],
    });
    const lisbon = turn(2, "Lisbon");
    const porto = turn(4, "Porto");
    const messages = [
      userMessage(1, "What's the weather like in Lisbon this week?"),
      lisbon.message,
      userMessage(3, "And in Porto?"),
      porto.message,
      userMessage(5, "Thanks!\nI'll pack accordingly."),
    ].map(cacheMessage);
    const input = buildInput({
      messages,
      artifacts: [...lisbon.artifacts, ...porto.artifacts].map(cacheArtifact),
      currentInput: cacheMessage(userMessage(6, "Which city is warmer?")),
      settings: { history: { speakerLabels: "always" } },
    });

    const { items, tokenizer } = buildContext(input);
    expect(tokenizer).toBe("o200k_base");
    const counted = items.filter((item) => item.tokens > 0);
    // Every dialogue and tool item of the conversation was counted from the cache, none left for later.
    expect(counted.map((item) => item.id)).toEqual([
      "msg:m1",
      "msg:m2",
      "artifact:r2",
      "artifact:c2",
      "artifact:o2",
      "msg:m2:text:1",
      "msg:m3",
      "msg:m4",
      "artifact:r4",
      "artifact:c4",
      "artifact:o4",
      "msg:m4:text:1",
      "msg:m5",
      "msg:m6",
    ]);
    const cachedSum = counted.reduce((sum, item) => sum + item.tokens, 0);
    const recountSum = counted.reduce((sum, item) => sum + countItemTokens(item, "o200k_base"), 0);
    expect(Math.abs(cachedSum - recountSum)).toBeLessThanOrEqual(2 * counted.length);
    for (const item of counted)
      expect(Math.abs(item.tokens - countItemTokens(item, "o200k_base")), item.id).toBeLessThanOrEqual(2);
    // The groups hold both parallel calls and both outputs, and the speaker label is on the first piece only.
    const byId = new Map(items.map((item) => [item.id, item]));
    expect(byId.get("artifact:c2")?.parts).toHaveLength(2);
    expect(byId.get("artifact:o4")?.parts).toHaveLength(2);
    expect(byId.get("msg:m2")?.parts).toEqual([
      { type: "text", text: `${PERSONA.name}: Let me look up the weather in Lisbon for you.` },
    ]);
  });
});
