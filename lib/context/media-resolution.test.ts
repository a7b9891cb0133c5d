import { describe, expect, it } from "vitest";
import { defaultSettings, type ResolvedSettings } from "@/lib/domain/settings";
import type {
  ContextItem,
  ItemPart,
  MediaDescriptor,
  ModelCapabilities,
  ModelDescriptor,
} from "@/lib/domain/types";
import {
  dialogueItem,
  mediaDescriptor,
  modelDescriptor,
  PNG_DATA_URL,
  textPart,
} from "@/tests/context/fixtures";
import { elementAt } from "./indexing";
import {
  blindImageNotice,
  mediaCountPhrase,
  mediaIdLabel,
  outOfWindowNotice,
  resolveMedia,
} from "./media-resolution";
import { TOKENS_PER_IMAGE } from "./tokens";

function model(capabilities: Partial<ModelCapabilities> = {}, id = "test-model"): ModelDescriptor {
  return modelDescriptor({ id, providerModelName: id }, capabilities);
}

const media = mediaDescriptor;

const item = dialogueItem;
const text = textPart;
const placeholder = (descriptor: MediaDescriptor): ItemPart => ({ type: "media", descriptor });

function settingsWith(mediaOverrides: Partial<ResolvedSettings["media"]> = {}): ResolvedSettings {
  const settings = defaultSettings();
  return { ...settings, media: { ...settings.media, ...mediaOverrides } };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function texts(entry: ContextItem): string[] {
  return entry.parts.flatMap((part) => (part.type === "text" ? [part.text] : []));
}

describe("notice texts", () => {
  it("labels one id, several ids (de-duplicated) and none", () => {
    expect(mediaIdLabel([])).toBe("ID: unknown");
    expect(mediaIdLabel(["media_1"])).toBe("ID: media_1");
    expect(mediaIdLabel(["media_1", "media_2", "media_1"])).toBe("IDs: media_1, media_2");
  });

  it("counts images and GIFs in singular and plural", () => {
    expect(mediaCountPhrase([media("media_1")])).toBe("1 image");
    expect(mediaCountPhrase([media("media_1"), media("media_2")])).toBe("2 images");
    expect(mediaCountPhrase([media("media_1", { mime: "image/gif" })])).toBe("1 GIF");
    expect(mediaCountPhrase([media("media_1", { mime: "image/gif" }), media("media_2")])).toBe(
      "2 images (including GIF)",
    );
    expect(mediaCountPhrase([media("media_1"), media("media_2", { kind: "video", mime: "video/mp4" })])).toBe(
      "1 image and 1 video",
    );
    expect(mediaCountPhrase([media("a", { kind: "video" }), media("b", { kind: "video" })])).toBe("2 videos");
  });

  it("writes the out-of-window notice for a model that can view the media", () => {
    expect(outOfWindowNotice([media("media_4", { state: "out_of_window" })], true)).toBe(
      "[System: This message (ID: media_4) contained 1 image, but it is outside the current media context window. Ask the user to reply to that message if you need to see it. The media ID can still be used with tools that accept media references.]",
    );
  });

  it("writes the out-of-window notice for a blind model", () => {
    expect(outOfWindowNotice([media("media_4", { state: "out_of_window" })], false)).toBe(
      "[System: This message (ID: media_4) contained 1 image, but it is outside the current media context window and cannot be viewed by the current model. The media ID can still be used with tools that accept media references.]",
    );
  });
});

describe("resolveMedia", () => {
  it("materialises in-window images and videos first, then the other parts, and strips descriptors", () => {
    const image = media("media_1");
    const video = media("media_2", { kind: "video", mime: "video/mp4", url: "https://example.test/v.mp4" });
    const base = [
      item("m1", "user", [text("look"), placeholder(image), placeholder(video)], {
        mediaDescriptors: [image, video],
      }),
    ];
    const { value: items, trace: events } = resolveMedia(
      base,
      model({ vision: true, video: true }),
      settingsWith(),
    );
    expect(items).toHaveLength(1);
    expect(items[0]?.parts).toEqual([
      {
        type: "image",
        mediaType: "image/png",
        url: PNG_DATA_URL,
        attachmentId: "att-media_1",
        handle: "media_1",
      },
      {
        type: "video",
        mediaType: "video/mp4",
        url: "https://example.test/v.mp4",
        attachmentId: "att-media_2",
        handle: "media_2",
      },
      { type: "text", text: "look" },
    ]);
    expect(items[0]).not.toHaveProperty("mediaDescriptors");
    expect(events.map((event) => event.action)).toEqual(["attached-media"]);
    expect(events[0]?.counts).toEqual({ images: 1, videos: 1 });
  });

  it("tells a blind model to use analyze_image when that tool is enabled", () => {
    const base = [item("m1", "user", [placeholder(media("media_1")), text("what is this?")])];
    const { value: items } = resolveMedia(base, model({ vision: false }), settingsWith(), {
      enabledToolNames: ["analyze_image"],
    });
    expect(texts(elementAt(items, 0))).toEqual([
      "[System: This message (ID: media_1) contains an image. Do not guess the image contents. Use the `analyze_image` tool with this media ID only if the user explicitly asks about the image or if unseen visual details are necessary to answer.]",
      "what is this?",
    ]);
  });

  it("tells a blind model without the tool not to claim to see the image", () => {
    const base = [item("m1", "user", [placeholder(media("media_1"))])];
    const { value: items, trace: events } = resolveMedia(base, model({ vision: false }), settingsWith(), {
      enabledToolNames: ["current_time"],
    });
    expect(texts(elementAt(items, 0))).toEqual([
      "[System: This message (ID: media_1) contains an image. Current model cannot see images, please do not describe or claim to see the image contents. If you need to see images, tell the user to switch to a model that can see images.]",
    ]);
    expect(events.map((event) => event.action)).toEqual(["blind-media-notice"]);
    expect(events[0]?.details).toEqual({ handles: ["media_1"] });
  });

  it("uses GIF wording for a blind GIF", () => {
    expect(blindImageNotice(media("media_9", { mime: "image/gif" }), false)).toContain("contains a GIF.");
  });

  it("gives a blind-video notice on a model without video", () => {
    const base = [item("m1", "user", [placeholder(media("media_3", { kind: "video", mime: "video/mp4" }))])];
    const { value: items } = resolveMedia(base, model({ vision: true, video: false }), settingsWith());
    expect(texts(elementAt(items, 0))).toEqual([
      "[System: This message (ID: media_3) contains a video. Current model cannot see videos, please do not describe or claim to see the video contents.]",
    ]);
  });

  it("covers all out-of-window media of an item with one notice, and keeps the reply escape hatch for a viewer", () => {
    const old = [
      media("media_1", { state: "out_of_window" }),
      media("media_2", { state: "out_of_window", kind: "video", mime: "video/mp4" }),
    ];
    const base = [item("m1", "user", [text("old"), ...old.map(placeholder)])];
    const viewer = resolveMedia(base, model({ vision: true, video: true }), settingsWith());
    expect(texts(elementAt(viewer.value, 0))).toEqual([
      "[System: This message (IDs: media_1, media_2) contained 1 image and 1 video, but it is outside the current media context window. Ask the user to reply to that message if you need to see them. The media IDs can still be used with tools that accept media references.]",
      "old",
    ]);
    const blind = resolveMedia(base, model({ vision: true, video: false }), settingsWith());
    expect(texts(elementAt(blind.value, 0))[0]).toContain("cannot be viewed by the current model");
    expect(blind.trace.map((event) => event.action)).toEqual(["out-of-window-notice"]);
  });

  it("orders 2 images + 1 video on an image-only model as [image, image, video notice, text]", () => {
    const parts = [
      text("three things"),
      placeholder(media("media_1")),
      placeholder(media("media_2")),
      placeholder(media("media_3", { kind: "video", mime: "video/mp4" })),
    ];
    const { value: items } = resolveMedia(
      [item("m1", "user", parts)],
      model({ vision: true, video: false }),
      settingsWith(),
    );
    expect(
      items[0]?.parts.map((part) => (part.type === "text" ? part.text.slice(0, 40) : `${part.type}`)),
    ).toEqual(["image", "image", "[System: This message (ID: media_3) cont", "three things"]);
  });

  it("moves a model-authored item's notices into a preceding user item", () => {
    const sender = { type: "persona" as const, name: "Tomori" };
    const base = [item("a1", "assistant", [text("here it is"), placeholder(media("media_5"))], { sender })];
    const { value: items } = resolveMedia(base, model({ vision: false }), settingsWith());
    expect(items.map((entry) => [entry.id, entry.role, entry.tag])).toEqual([
      ["a1:media-notice", "user", "MEDIA_NOTICE"],
      ["a1", "assistant", "DIALOGUE_HISTORY"],
    ]);
    expect(items[0]?.sender).toEqual(sender);
    expect(items[0]?.sourceMessageIds).toEqual(["a1"]);
    expect(items[1]?.parts).toEqual([{ type: "text", text: "here it is" }]);
  });

  it("drops an image-only model item once its image became a notice", () => {
    const base = [item("a1", "assistant", [placeholder(media("media_5"))])];
    const { value: items } = resolveMedia(base, model({ vision: false }), settingsWith());
    expect(items.map((entry) => entry.id)).toEqual(["a1:media-notice"]);
  });

  it("resolves the same base differently for a vision and a blind attempt, without mutating it", () => {
    const base = deepFreeze([
      item("m1", "user", [text("hi"), placeholder(media("media_1"))], {
        mediaDescriptors: [media("media_1")],
        tokens: 300,
      }),
    ]);
    const snapshot = JSON.stringify(base);
    const vision = resolveMedia(base, model({ vision: true }), settingsWith());
    const blind = resolveMedia(base, model({ vision: false }), settingsWith());
    const again = resolveMedia(base, model({ vision: true }), settingsWith());
    expect(vision.value[0]?.parts[0]?.type).toBe("image");
    expect(blind.value[0]?.parts[0]?.type).toBe("text");
    expect(JSON.stringify(again)).toBe(JSON.stringify(vision));
    expect(JSON.stringify(base)).toBe(snapshot);
  });

  it("adjusts a counted item's tokens instead of zeroing them", () => {
    const base = [item("m1", "user", [text("hi"), placeholder(media("media_1"))], { tokens: 300 })];
    const { value: items } = resolveMedia(base, model({ vision: true }), settingsWith());
    expect(items[0]?.tokens).toBe(300 - 258 + TOKENS_PER_IMAGE);
  });

  it("applies media.maxImagesPerRequest newest first with a notice for the rest", () => {
    const base = [
      item("m1", "user", [placeholder(media("media_1")), placeholder(media("media_2"))]),
      item("m2", "user", [placeholder(media("media_3")), placeholder(media("media_4"))]),
    ];
    const { value: items, trace: events } = resolveMedia(
      base,
      model(),
      settingsWith({ maxImagesPerRequest: 3 }),
    );
    expect(items[1]?.parts.map((part) => part.type)).toEqual(["image", "image"]);
    expect(items[0]?.parts.map((part) => part.type)).toEqual(["image", "text"]);
    expect(texts(elementAt(items, 0))).toEqual([
      "[System: 1 image (ID: media_2) omitted due to the per-request image limit of 3. Do not claim to see it.]",
    ]);
    const omitted = events.find((event) => event.action === "omitted-images-request-limit");
    expect(omitted?.details).toEqual({ handles: ["media_2"] });
    expect(omitted?.itemIds).toEqual(["m1"]);
  });

  it("sends no image at all with a limit of 0", () => {
    const base = [item("m1", "user", [placeholder(media("media_1")), placeholder(media("media_2"))])];
    const { value: items } = resolveMedia(base, model(), settingsWith({ maxImagesPerRequest: 0 }));
    expect(texts(elementAt(items, 0))).toEqual([
      "[System: 2 images (IDs: media_1, media_2) omitted due to the per-request image limit of 0. Do not claim to see them.]",
    ]);
  });

  it("gives user-turn images the slots first, then assistant images with user_then_assistant", () => {
    const base = [
      item("u1", "user", [placeholder(media("media_1"))]),
      item("a1", "assistant", [placeholder(media("media_2"))]),
      item("u2", "user", [placeholder(media("media_3"))]),
    ];
    const { value: items } = resolveMedia(base, model(), settingsWith({ maxImagesPerRequest: 2 }));
    const byId = Object.fromEntries(items.map((entry) => [entry.id, entry.parts.map((part) => part.type)]));
    expect(byId).toEqual({ u1: ["image"], "a1:media-notice": ["text"], u2: ["image"] });
  });

  it("never sends assistant images with user_turn_only", () => {
    const base = [
      item("a1", "assistant", [text("drawn"), placeholder(media("media_2"))]),
      item("u2", "user", [placeholder(media("media_3"))]),
    ];
    const { value: items, trace: events } = resolveMedia(
      base,
      model(),
      settingsWith({ imageInputSelection: "user_turn_only" }),
    );
    expect(texts(elementAt(items, 0))).toEqual([
      "[System: 1 image (ID: media_2) omitted because only images from user turns are sent. Do not claim to see it.]",
    ]);
    expect(items[1]?.parts).toEqual([{ type: "text", text: "drawn" }]);
    expect(items[2]?.parts[0]?.type).toBe("image");
    expect(events.map((event) => event.action)).toEqual(["attached-media", "omitted-assistant-images"]);
  });

  it("resolves descriptors listed only in mediaDescriptors once, without doubling placeholders", () => {
    const first = media("media_1");
    const second = media("media_2");
    const base = [item("m1", "user", [placeholder(first), text("x")], { mediaDescriptors: [first, second] })];
    const { value: items } = resolveMedia(base, model(), settingsWith());
    expect(items[0]?.parts.map((part) => (part.type === "image" ? part.handle : part.type))).toEqual([
      "media_1",
      "media_2",
      "text",
    ]);
  });

  it("turns audio into a notice for a model that cannot hear it", () => {
    const base = [item("m1", "user", [placeholder(media("media_7", { kind: "audio", mime: "audio/mpeg" }))])];
    const { value: items } = resolveMedia(base, model(), settingsWith());
    expect(texts(elementAt(items, 0))).toEqual([
      "[System: This message (ID: media_7) contains an audio clip. Current model cannot hear audio, please do not describe or claim to know what the audio says. If you need to hear it, tell the user to switch to a model that can take audio.]",
    ]);
  });

  it("says nothing and keeps the item objects when there is no media", () => {
    const base = [item("m1", "user", [text("hello")])];
    const { value: items, trace: events } = resolveMedia(base, model(), settingsWith());
    expect(items[0]).toBe(base[0]);
    expect(events).toEqual([]);
  });
});
