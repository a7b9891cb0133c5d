// Documents, audio and video through phase B (docs/features.md#documents-audio-and-video): for each kind and
// each kind of model, what the model receives (the media part) or the notice it gets instead, the trace event
// that says which, and what the item costs in the budget.
import { describe, expect, it } from "vitest";
import { defaultSettings } from "@/lib/domain/settings";
import type { ContextItem, MediaDescriptor, MediaKind, ModelCapabilities } from "@/lib/domain/types";
import { dialogueItem, modelDescriptor, textPart } from "@/tests/context/fixtures";
import {
  blindAudioNotice,
  blindDocumentNotice,
  blindVideoNotice,
  mediaCountPhrase,
  outOfWindowNotice,
  resolveMedia,
  unsupportedMediaNotice,
} from "./media-resolution";
import { resolveForModel } from "./resolve-for-model";
import { mediaTokens, TOKENS_PER_MESSAGE } from "./tokens";

const KINDS = {
  pdf: { kind: "file", mime: "application/pdf", sizeBytes: 120_000, filename: "report.pdf" },
  audio: { kind: "audio", mime: "audio/mpeg", sizeBytes: 480_000 },
  video: { kind: "video", mime: "video/mp4", sizeBytes: 2_500_000 },
} as const satisfies Record<string, { kind: MediaKind; mime: string; sizeBytes: number; filename?: string }>;
type KindName = keyof typeof KINDS;

function descriptor(name: KindName, overrides: Partial<MediaDescriptor> = {}): MediaDescriptor {
  const spec = KINDS[name];
  return {
    handle: "media_1",
    attachmentId: `att-${name}`,
    kind: spec.kind,
    mime: spec.mime,
    url: `data:${spec.mime};base64,AAAA`,
    sha256: `sha-${name}`,
    state: "render",
    senderName: "Ada",
    messageSeq: 1,
    sizeBytes: spec.sizeBytes,
    ...("filename" in spec ? { filename: spec.filename } : {}),
    ...overrides,
  };
}

function input(media: MediaDescriptor): ContextItem {
  return dialogueItem("msg:1", "user", [{ type: "media", descriptor: media }, textPart("What is this?")], {
    tag: "CURRENT_INPUT",
    mediaDescriptors: [media],
  });
}

/** The catalogue's capabilities per model family (lib/domain/model-catalog.ts). */
const MODELS: Record<string, Partial<ModelCapabilities>> = {
  "openai chat": { vision: true, video: false, audio: false, documents: true },
  "openai responses": { vision: true, video: false, audio: false, documents: true },
  gemini: { vision: true, video: true, audio: true, documents: true },
  "gemma (text and images only)": { vision: true, video: false, audio: false, documents: false },
};

const NOTICES: Record<KindName, (media: MediaDescriptor) => string> = {
  pdf: blindDocumentNotice,
  audio: blindAudioNotice,
  video: blindVideoNotice,
};

const TAKES: Record<KindName, keyof ModelCapabilities> = { pdf: "documents", audio: "audio", video: "video" };

const cases = Object.entries(MODELS).flatMap(([modelName, capabilities]) =>
  (Object.keys(KINDS) as KindName[]).map((kind) => ({
    modelName,
    capabilities,
    kind,
    received: capabilities[TAKES[kind]] === true,
  })),
);

describe("each kind per model: received, or its own notice", () => {
  it.each(cases)("$kind to $modelName: received = $received", ({ capabilities, kind, received }) => {
    const model = modelDescriptor({ id: "m" }, capabilities);
    const media = descriptor(kind);
    const { value, trace } = resolveMedia([input(media)], model, defaultSettings());
    const [item] = value;
    const spec = KINDS[kind];
    if (received) {
      expect(item?.parts[0]).toEqual({
        type: spec.kind,
        mediaType: spec.mime,
        url: media.url,
        attachmentId: media.attachmentId,
        handle: "media_1",
        sizeBytes: spec.sizeBytes,
        ...(kind === "pdf" ? { filename: "report.pdf" } : {}),
      });
      expect(trace.map((event) => event.action)).toEqual(["attached-media"]);
    } else {
      expect(item?.parts[0]).toEqual({ type: "text", text: NOTICES[kind](media) });
      expect(trace.map((event) => event.action)).toEqual(["blind-media-notice"]);
    }
    expect(item?.parts[1]).toEqual(textPart("What is this?"));
  });

  it("the notices say what the model cannot take, keeping the media ID", () => {
    expect(blindDocumentNotice(descriptor("pdf"))).toBe(
      "[System: This message (ID: media_1) contains a PDF document. Current model cannot read documents, please do not describe or claim to know the document contents. If you need to read it, tell the user to switch to a model that can read PDFs.]",
    );
    expect(blindAudioNotice(descriptor("audio"))).toBe(
      "[System: This message (ID: media_1) contains an audio clip. Current model cannot hear audio, please do not describe or claim to know what the audio says. If you need to hear it, tell the user to switch to a model that can take audio.]",
    );
  });

  it("a file that is not a PDF is never sent, even to a model that reads documents", () => {
    const zip = descriptor("pdf", { mime: "application/zip", filename: "a.zip" });
    const { value, trace } = resolveMedia(
      [input(zip)],
      modelDescriptor({}, MODELS.gemini),
      defaultSettings(),
    );
    expect(value[0]?.parts[0]).toEqual({ type: "text", text: unsupportedMediaNotice(zip) });
    expect(trace.map((event) => event.action)).toEqual(["unsupported-media-notice"]);
  });

  it("out of the media window: one notice naming each kind, worded for whether the model could take them", () => {
    const old = [
      descriptor("pdf", { state: "out_of_window" }),
      descriptor("audio", { state: "out_of_window", attachmentId: "att-audio-2" }),
    ];
    expect(mediaCountPhrase(old)).toBe("1 audio clip and 1 PDF document");
    const item = dialogueItem("msg:0", "user", [textPart("Old")], { mediaDescriptors: old });
    const gemini = resolveMedia([item], modelDescriptor({}, MODELS.gemini), defaultSettings());
    expect(gemini.value[0]?.parts[0]).toEqual({ type: "text", text: outOfWindowNotice(old, true) });
    const chat = resolveMedia([item], modelDescriptor({}, MODELS["openai chat"]), defaultSettings());
    expect(chat.value[0]?.parts[0]).toEqual({ type: "text", text: outOfWindowNotice(old, false) });
  });

  it("one event names every kind attached", () => {
    const media = [descriptor("pdf"), descriptor("audio", { attachmentId: "att-a2", handle: "media_2" })];
    const item = dialogueItem("msg:1", "user", [textPart("Both")], { mediaDescriptors: media });
    const { trace } = resolveMedia(
      [item],
      modelDescriptor({ id: "gemini" }, MODELS.gemini),
      defaultSettings(),
    );
    expect(trace).toEqual([
      expect.objectContaining({
        action: "attached-media",
        reason: "1 audio clip and 1 PDF document attached for gemini, which can take them",
        counts: { images: 0, videos: 0, audio: 1, documents: 1 },
        details: { handles: ["media_2", "media_1"] },
      }),
    ]);
  });
});

describe("the budget counts each kind from its size", () => {
  it("estimates: audio by duration at 128 kbit/s, video at 1 Mbit/s, a PDF by pages of 50 KB; 258 at least", () => {
    expect(mediaTokens("audio", 16_000 * 60)).toBe(32 * 60); // a minute of audio
    expect(mediaTokens("video", 125_000 * 10)).toBe(300 * 10); // ten seconds of video
    expect(mediaTokens("file", 120_000)).toBe(3 * 800); // three pages
    expect(mediaTokens("audio", 1_000)).toBe(258);
    expect(mediaTokens("file", undefined)).toBe(258);
  });

  it.each(cases)(
    "$kind to $modelName: the item costs the part or the notice",
    ({ capabilities, kind, received }) => {
      const model = modelDescriptor({ id: "m", tokenizer: "o200k_base" }, capabilities);
      const media = descriptor(kind);
      const resolved = resolveForModel(
        { items: [input(media)], trace: [], settings: defaultSettings() },
        model,
      );
      const sent = resolved.items.find((item) => item.id === "msg:1");
      const spec = KINDS[kind];
      const fixed = TOKENS_PER_MESSAGE;
      if (received) {
        expect(sent?.tokens).toBeGreaterThanOrEqual(fixed + mediaTokens(spec.kind, spec.sizeBytes));
        expect(sent?.tokens).toBeLessThan(fixed + mediaTokens(spec.kind, spec.sizeBytes) + 10);
      } else {
        expect(sent?.tokens).toBeLessThan(fixed + 80);
      }
    },
  );
});
