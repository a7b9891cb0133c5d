import { describe, expect, it } from "vitest";
import type {
  ApiKind,
  ContextItem,
  ItemPart,
  ModelDescriptor,
  ProviderMetadata,
  ProviderName,
} from "@/lib/domain/types";
import { dialogueItem, modelDescriptor, textPart } from "@/tests/context/fixtures";
import { keepReplayableReasoning, REMOVED_PREVIEW_CHARS, reasoningRefusal } from "./replayable-reasoning";

function model(provider: ProviderName, apiKind: ApiKind = "chat", reasoning = true): ModelDescriptor {
  return modelDescriptor({ id: `${provider}-${apiKind}`, provider, apiKind }, { reasoning });
}

const MODELS = {
  "openai responses": model("openai", "responses"),
  "openai chat": model("openai", "chat"),
  "openai-compatible": model("openai-compatible"),
  anthropic: model("anthropic"),
  google: model("google"),
  offline: model("offline"),
} as const;

const METADATA: Record<string, ProviderMetadata | undefined> = {
  none: undefined,
  "openai encrypted": { openai: { itemId: "rs_1", reasoningEncryptedContent: "gAAAA-enc" } },
  "openai item id only": { openai: { itemId: "rs_1" } },
  "openai empty encrypted": { openai: { itemId: "rs_1", reasoningEncryptedContent: "" } },
  "anthropic signature": { anthropic: { signature: "sig-1" } },
  "anthropic redacted": { anthropic: { redactedData: "redacted-1" } },
  "google signature": { google: { thoughtSignature: "ts-1" } },
};

const reasoning = (text: string, providerMetadata?: ProviderMetadata): ItemPart =>
  providerMetadata === undefined
    ? { type: "reasoning", text }
    : { type: "reasoning", text, providerMetadata };

const reasoningItem = (id: string, parts: ItemPart[]): ContextItem =>
  dialogueItem(id, "assistant", parts, { tag: "REASONING" });

// Which provider takes which reasoning back: a row per model, a column per metadata case.
const KEPT: Record<keyof typeof MODELS, (keyof typeof METADATA)[]> = {
  "openai responses": ["openai encrypted"],
  "openai chat": [],
  "openai-compatible": [],
  anthropic: ["anthropic signature", "anthropic redacted"],
  google: ["google signature"],
  offline: Object.keys(METADATA),
};

const CASES = Object.entries(MODELS).flatMap(([modelName, descriptor]) =>
  Object.entries(METADATA).map(([metadataName, metadata]) => ({
    modelName,
    metadataName,
    descriptor,
    metadata,
    kept: KEPT[modelName as keyof typeof MODELS].includes(metadataName),
  })),
);

describe("which reasoning each provider takes back", () => {
  it.each(CASES)("$modelName, $metadataName: kept $kept", ({ descriptor, metadata, kept }) => {
    const items = [
      dialogueItem("u1", "user", [textPart("q")]),
      reasoningItem("r1", [reasoning("thinking hard", metadata)]),
      dialogueItem("a1", "assistant", [textPart("answer")]),
    ];
    const { value, trace } = keepReplayableReasoning(items, descriptor);
    expect(value.map((item) => item.id)).toEqual(kept ? ["u1", "r1", "a1"] : ["u1", "a1"]);
    if (kept) {
      expect(value).toBe(items);
      expect(trace).toEqual([]);
    } else {
      expect(trace).toHaveLength(1);
      expect(trace[0]?.stage).toBe("reasoning");
      expect(trace[0]?.action).toBe("not-replayable");
      expect(trace[0]?.itemIds).toEqual(["r1"]);
      // "thinking hard" is 13 characters: 4 estimated tokens, and 4 for the message framing.
      expect(trace[0]?.details).toEqual({
        removedItems: [
          {
            id: "r1",
            role: "assistant",
            tag: "REASONING",
            preview: "thinking hard",
            tokens: 8,
            partial: false,
          },
        ],
      });
      expect(trace[0]?.counts).toEqual({ items: 1, tokens: 8 });
    }
  });
});

describe("reasons", () => {
  it("name the provider, the metadata it needs and what the part carries", () => {
    const part = { type: "reasoning", text: "x", providerMetadata: { openai: { itemId: "rs_1" } } } as const;
    expect(reasoningRefusal(part, MODELS.anthropic)).toBe(
      "Anthropic takes thinking back only with its own signature (anthropic.signature or anthropic.redactedData); it carries only openai metadata",
    );
    expect(reasoningRefusal(part, MODELS["openai responses"])).toBe(
      "OpenAI Responses requests are stateless (store: false) and take reasoning back only with its encrypted content (openai.reasoningEncryptedContent); it carries only openai metadata",
    );
    expect(reasoningRefusal({ type: "reasoning", text: "x" }, MODELS.google)).toBe(
      "Google takes thoughts back only with its own thoughtSignature (google.thoughtSignature); it carries no provider metadata",
    );
    expect(reasoningRefusal(part, MODELS["openai chat"])).toBe(
      "OpenAI chat completions have no field for reasoning: it is never sent back",
    );
  });

  it("a model that does not reason is sent none, whatever the metadata (the offline model's default)", () => {
    const offline = model("offline", "chat", false);
    const signed = reasoning("thinking", METADATA["anthropic signature"]);
    const { value, trace } = keepReplayableReasoning([reasoningItem("r1", [signed])], offline);
    expect(value).toEqual([]);
    expect(trace[0]?.reason).toBe(
      "offline-chat does not reason, so it is sent no reasoning (another model's thoughts): the reasoning of 1 item is left out",
    );
  });
});

describe("removal", () => {
  it("keeps an item's other parts, recounted, and reports only the removed reasoning", () => {
    const mixed = dialogueItem("a1", "assistant", [reasoning("step one"), textPart("answer")], {
      tokens: 40,
    });
    const { value, trace } = keepReplayableReasoning([mixed], MODELS.anthropic);
    expect(value).toEqual([{ ...mixed, parts: [textPart("answer")], tokens: 0 }]);
    expect(trace[0]?.details).toEqual({
      removedItems: [
        {
          id: "a1",
          role: "assistant",
          tag: "DIALOGUE_HISTORY",
          preview: "step one",
          tokens: 2,
          partial: true,
        },
      ],
    });
  });

  it("keeps a Gemini thought that came unsigned in a step whose call Gemini signed; not one from another step", () => {
    const thought = { ...reasoningItem("r1", [reasoning("Check the clock.")]), step: "m1:step:1" };
    const call = {
      ...dialogueItem("c1", "assistant", [
        {
          type: "tool-call" as const,
          toolCallId: "call-1",
          toolName: "current_time",
          input: {},
          providerMetadata: { google: { thoughtSignature: "sig-call-1" } },
        },
      ]),
      step: "m1:step:1",
    };
    const elsewhere = { ...reasoningItem("r2", [reasoning("Unrelated.")]), step: "m2:step:1" };
    const { value, trace } = keepReplayableReasoning([thought, call, elsewhere], MODELS.google);
    expect(value).toEqual([thought, call]);
    expect(trace[0]?.itemIds).toEqual(["r2"]);
    // Another provider's reasoning in that step is not Gemini's to take.
    const foreign = {
      ...reasoningItem("r3", [reasoning("x", METADATA["anthropic signature"])]),
      step: "m1:step:1",
    };
    expect(keepReplayableReasoning([foreign, call], MODELS.google).value).toEqual([call]);
  });

  it("keeps the parts the provider can take inside one item", () => {
    const signed = reasoning("signed", METADATA["anthropic signature"]);
    const item = reasoningItem("r1", [reasoning("foreign", METADATA["openai encrypted"]), signed]);
    const { value, trace } = keepReplayableReasoning([item], MODELS.anthropic);
    expect(value).toEqual([{ ...item, parts: [signed], tokens: 0 }]);
    expect(trace).toHaveLength(1);
  });

  it("keeps a Responses summary part whose reasoning item's encrypted content another part of the item carries", () => {
    const first = reasoning("Part one.", { openai: { itemId: "rs_1", reasoningEncryptedContent: null } });
    const last = reasoning("Part two.", {
      openai: { itemId: "rs_1", reasoningEncryptedContent: "gAAAA-enc" },
    });
    const other = reasoning("Another item.", { openai: { itemId: "rs_2" } });
    const item = reasoningItem("r1", [first, last, other]);
    const { value, trace } = keepReplayableReasoning([item], MODELS["openai responses"]);
    expect(value).toEqual([{ ...item, parts: [first, last], tokens: 0 }]);
    expect(trace[0]?.details).toEqual({
      removedItems: [
        { id: "r1", role: "assistant", tag: "REASONING", preview: "Another item.", tokens: 4, partial: true },
      ],
    });
    // Only within one item (one message on the wire): another item's encrypted content does not count.
    const apart = keepReplayableReasoning(
      [reasoningItem("r1", [first]), reasoningItem("r2", [last])],
      MODELS["openai responses"],
    );
    expect(apart.value.map((entry) => entry.id)).toEqual(["r2"]);
  });

  it("groups the removed items of one reason into one event, in payload order", () => {
    const items = [
      reasoningItem("r1", [reasoning("a")]),
      dialogueItem("u1", "user", [textPart("q")]),
      reasoningItem("r2", [reasoning("b", METADATA["openai item id only"])]),
      reasoningItem("r3", [reasoning("c")]),
    ];
    const { value, trace } = keepReplayableReasoning(items, MODELS["openai responses"]);
    expect(value.map((item) => item.id)).toEqual(["u1"]);
    expect(trace.map((event) => event.itemIds)).toEqual([["r1", "r3"], ["r2"]]);
    expect(trace[0]?.reason).toMatch(
      /it carries no provider metadata: the reasoning of 2 items is left out$/,
    );
  });

  it("cuts a long preview and shows hidden reasoning as an empty preview", () => {
    const long = "x".repeat(REMOVED_PREVIEW_CHARS + 10);
    const items = [reasoningItem("r1", [reasoning(long)]), reasoningItem("r2", [reasoning("")])];
    const { trace } = keepReplayableReasoning(items, MODELS.google);
    const removed = trace[0]?.details?.removedItems as { preview: string }[];
    expect(removed.map((entry) => entry.preview)).toEqual([`${"x".repeat(REMOVED_PREVIEW_CHARS)}…`, ""]);
  });
});
