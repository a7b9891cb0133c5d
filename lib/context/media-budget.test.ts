import { describe, expect, it } from "vitest";
import type { SettingsOverride } from "@/lib/domain/settings";
import type { StoredAttachment, StoredMessage } from "@/lib/domain/types";
import {
  deepFreeze,
  imageAttachment,
  PERSONA,
  personaMessage,
  settingsWith,
  userMessage,
  videoAttachment,
  view,
  viewItems,
} from "@/tests/context/fixtures";
import { collapseRuns } from "./collapse-runs";
import { applyMediaBudget, attributionHint, mediaOnlyText, omittedImagesNotice } from "./media-budget";
import { mapRoles } from "./role-mapping";

/** The notice that stands for one image left out, as the model reads it. */
const ONE_IMAGE_OMITTED = "[System: 1 image omitted due to rendered-image limit. Do not claim to see it.]";

function runMedia(
  messages: StoredMessage[],
  attachments: StoredAttachment[],
  settings: SettingsOverride = {},
  current?: StoredMessage,
) {
  deepFreeze(messages);
  deepFreeze(attachments);
  const currentInput = current ?? userMessage(1_000, "now?");
  const resolved = settingsWith(settings);
  const { value: entries } = collapseRuns(messages);
  const mapped = mapRoles({
    entries,
    currentInput,
    persona: PERSONA,
    participants: [],
    allMessages: messages,
    settings: resolved,
  });
  const messagesById = new Map([...messages, currentInput].map((message) => [message.id, message]));
  const attachmentsById = new Map(attachments.map((attachment) => [attachment.id, attachment]));
  const result = applyMediaBudget({
    history: mapped.value.history,
    current: mapped.value.current,
    messagesById,
    attachmentsById,
    settings: resolved,
  });
  return {
    ...result,
    view: viewItems(result.value.history),
    currentView: viewItems([result.value.current])[0],
  };
}

/** n user messages with one image each at seqs 1, 3, 5, … with persona replies between. */
function imageConversation(count: number) {
  const messages: StoredMessage[] = [];
  const attachments: StoredAttachment[] = [];
  for (let i = 0; i < count; i++) {
    const seq = i * 2 + 1;
    messages.push(
      userMessage(seq, `pic ${seq}`, { media: [`i${seq}`] }),
      personaMessage(seq + 1, `nice ${seq}`),
    );
    attachments.push(imageAttachment(`i${seq}`, `m${seq}`));
  }
  return { messages, attachments };
}

describe("media budget", () => {
  it("an image and a PDF in one message get a handle each (media_<seq>_<n>), in part order, missing ones counted", () => {
    const pdf: StoredAttachment = {
      ...imageAttachment("d1", "m1"),
      kind: "file",
      mime: "application/pdf",
      url: "https://media.test/d1.pdf",
      filename: "invoice.pdf",
    };
    const result = runMedia(
      [userMessage(1, "both", { media: ["i1", "gone", "d1"] })],
      [imageAttachment("i1", "m1"), pdf],
    );
    expect(result.value.history[0]?.mediaDescriptors?.map((descriptor) => descriptor.handle)).toEqual([
      "media_1_1",
      "media_1_3",
    ]);
    expect(result.view[0]?.text).toBe("«media:media_1_1:render:i1» | «media:media_1_3:render:d1» | both");
  });

  it("an in-window image becomes a render descriptor with the message's media_<seq> handle, before the text", () => {
    const result = runMedia([userMessage(1, "look", { media: ["i1"] })], [imageAttachment("i1", "m1")]);
    expect(result.view[0]).toEqual(
      view("msg:m1", "user", "DIALOGUE_HISTORY", "«media:media_1:render:i1» | look"),
    );
    expect(result.value.history[0]?.mediaDescriptors).toEqual([
      {
        handle: "media_1",
        attachmentId: "i1",
        kind: "image",
        mime: "image/png",
        url: "https://media.test/i1.png",
        sha256: "sha-i1",
        state: "render",
        attributedTo: null,
        senderName: "Ada",
        messageSeq: 1,
        counted: true,
      },
    ]);
    expect(result.trace).toEqual([]);
  });

  it("renders images of only the newest imageMessageLimit (3) messages; older ones get the omitted notice", () => {
    const { messages, attachments } = imageConversation(4);
    const result = runMedia(messages, attachments);
    expect(result.view.filter((item) => item.role === "user").map((item) => item.text)).toEqual([
      `${ONE_IMAGE_OMITTED} | pic 1`,
      "«media:media_3:render:i3» | pic 3",
      "«media:media_5:render:i5» | pic 5",
      "«media:media_7:render:i7» | pic 7",
    ]);
    expect(result.trace).toEqual([
      {
        stage: "media-budget",
        action: "omitted-images",
        reason: "omitted 1 image (limit: 3 messages with images)",
        itemIds: ["msg:m1"],
        messageIds: ["m1"],
        counts: { images: 1, limit: 3 },
      },
    ]);
  });

  it("counts messages, not images: one message with 5 photos uses one slot; the plural notice says 'them'", () => {
    const five = ["a", "b", "c", "d", "e"];
    const messages = [
      userMessage(1, "old", { media: ["x1", "x2"] }),
      userMessage(2, "five", { media: five }),
      userMessage(3, "one", { media: ["y"] }),
    ];
    const attachments = [
      imageAttachment("x1", "m1"),
      imageAttachment("x2", "m1"),
      ...five.map((id) => imageAttachment(id, "m2")),
      imageAttachment("y", "m3"),
    ];
    const result = runMedia(messages, attachments, { media: { imageMessageLimit: 2 } });
    expect(result.view.map((item) => item.text)).toEqual([
      "[System: 2 images omitted due to rendered-image limit. Do not claim to see them.] | old",
      "«media:media_2_1:render:a» | «media:media_2_2:render:b» | «media:media_2_3:render:c» | «media:media_2_4:render:d» | «media:media_2_5:render:e» | five",
      "«media:media_3:render:y» | one",
    ]);
  });

  it("the current input is the newest message: its images render and take a slot", () => {
    const { messages, attachments } = imageConversation(3);
    const current = userMessage(100, "and this", { media: ["now"] });
    const result = runMedia(messages, [...attachments, imageAttachment("now", "m100")], {}, current);
    expect(result.currentView).toEqual(
      view("msg:m100", "user", "CURRENT_INPUT", "«media:media_100:render:now» | and this"),
    );
    expect(result.view[0]?.text).toBe(`${ONE_IMAGE_OMITTED} | pic 1`);
  });

  it("imageMessageLimit 0 disables every counted image in the window", () => {
    const result = runMedia([userMessage(1, "x", { media: ["i1"] })], [imageAttachment("i1", "m1")], {
      media: { imageMessageLimit: 0 },
    });
    expect(result.view[0]?.text).toBe(`${ONE_IMAGE_OMITTED} | x`);
  });

  it("emoji are neither counted nor descriptors; stickers are descriptors but not counted", () => {
    const messages = [
      userMessage(1, "old", { media: ["old"] }),
      userMessage(2, "emoji", { media: ["e1"] }),
      userMessage(3, "sticker", { media: ["s1"] }),
    ];
    const attachments = [
      imageAttachment("old", "m1"),
      imageAttachment("e1", "m2", { isEmoji: true }),
      imageAttachment("s1", "m3", { isSticker: true }),
    ];
    const result = runMedia(messages, attachments, { media: { imageMessageLimit: 1 } });
    expect(result.view.map((item) => item.text)).toEqual([
      "«media:media_1:render:old» | old",
      "emoji",
      "«media:media_3:render:s1» | sticker",
    ]);
    expect(result.trace).toEqual([
      {
        stage: "media-budget",
        action: "skipped-emoji",
        reason: "1 emoji attachment not sent as media (emoji stay text)",
        messageIds: ["m2"],
        counts: { emoji: 1 },
      },
    ]);
  });

  it("a duplicate image (same sha256) renders only at its newest occurrence", () => {
    const messages = [
      userMessage(1, "first", { media: ["a"] }),
      personaMessage(2, "ok"),
      userMessage(3, "again", { media: ["b"] }),
    ];
    const attachments = [
      imageAttachment("a", "m1", { sha256: "same" }),
      imageAttachment("b", "m3", { sha256: "same" }),
    ];
    const result = runMedia(messages, attachments);
    expect(result.view.map((item) => item.text)).toEqual(["first", "ok", "«media:media_3:render:b» | again"]);
    expect(result.trace).toEqual([
      {
        stage: "media-budget",
        action: "dropped-duplicate-image",
        reason: "dropped 1 duplicate image: a newer message has the same image",
        itemIds: ["msg:m1"],
        messageIds: ["m1"],
        counts: { images: 1 },
        details: { attachmentIds: ["a"] },
      },
    ]);
  });

  it("media older than the window becomes out-of-window descriptors, with no budget notice and no hint", () => {
    const { messages, attachments } = imageConversation(3); // seqs 1..6, images at 1, 3, 5
    const result = runMedia(messages, attachments, { media: { window: 3, imageMessageLimit: 1 } });
    // window 3 = the current input + m6 + m5: m5 renders, m1 and m3 are out of window (not "omitted").
    expect(result.view.filter((item) => item.role === "user").map((item) => item.text)).toEqual([
      "«media:media_1:out_of_window:i1» | pic 1",
      "«media:media_3:out_of_window:i3» | pic 3",
      "«media:media_5:render:i5» | pic 5",
    ]);
    expect(result.trace).toEqual([
      {
        stage: "media-budget",
        action: "out-of-window-media",
        reason: "2 media items outside the media window of 3 messages",
        itemIds: ["msg:m1", "msg:m3"],
        messageIds: ["m1", "m3"],
        counts: { media: 2, window: 3 },
      },
    ]);
  });

  it("the effective window is min(media.window, messageFetchLimit)", () => {
    const { messages, attachments } = imageConversation(2); // images at 1 and 3
    const result = runMedia(messages, attachments, {
      media: { window: 10 },
      history: { messageFetchLimit: 2 },
    });
    expect(result.view.map((item) => item.text)).toEqual([
      "«media:media_1:out_of_window:i1» | pic 1",
      "nice 1",
      "«media:media_3:out_of_window:i3» | pic 3",
      "nice 3",
    ]);
  });

  it("window 0: every medium is out of window", () => {
    const result = runMedia([userMessage(1, "x", { media: ["i1"] })], [imageAttachment("i1", "m1")], {
      media: { window: 0 },
    });
    expect(result.view[0]?.text).toBe("«media:media_1:out_of_window:i1» | x");
  });

  it("the window counts messages inside collapsed items", () => {
    const messages = [
      userMessage(1, "pic", { media: ["i1"] }),
      personaMessage(2, "a"),
      personaMessage(3, "b"),
      personaMessage(4, "c"),
    ];
    const result = runMedia(messages, [imageAttachment("i1", "m1")], { media: { window: 4 } });
    // m1 is the 5th newest message (current, m4, m3, m2, m1): outside a window of 4.
    expect(result.view[0]?.text).toBe("«media:media_1:out_of_window:i1» | pic");
  });

  it("videos render in the window without counting against the image budget", () => {
    const messages = [userMessage(1, "clip", { media: ["v1"] }), userMessage(2, "pic", { media: ["i2"] })];
    const result = runMedia(messages, [videoAttachment("v1", "m1"), imageAttachment("i2", "m2")], {
      media: { imageMessageLimit: 1 },
    });
    expect(result.view.map((item) => item.text)).toEqual([
      "«media:media_1:render:v1» | clip",
      "«media:media_2:render:i2» | pic",
    ]);
  });

  it("an assistant turn's omitted-images notice goes into a MEDIA_NOTICE user item before it", () => {
    const messages = [
      personaMessage(1, "drew this", { media: ["p1"] }),
      userMessage(2, "mine", { media: ["u2"] }),
    ];
    const result = runMedia(messages, [imageAttachment("p1", "m1"), imageAttachment("u2", "m2")], {
      media: { imageMessageLimit: 1 },
    });
    expect(result.view).toEqual([
      view("msg:m1:media-notice", "user", "MEDIA_NOTICE", ONE_IMAGE_OMITTED),
      view("msg:m1", "assistant", "DIALOGUE_HISTORY", "drew this"),
      view("msg:m2", "user", "DIALOGUE_HISTORY", "«media:media_2:render:u2» | mine"),
    ]);
    expect(result.trace[0]?.itemIds).toEqual(["msg:m1:media-notice", "msg:m1"]);
  });

  it("replies and forwards get an attribution hint naming who sent the media", () => {
    const messages = [
      userMessage(1, "see this", { replyToMessageId: "m0", forwardedFromName: "Bob", media: ["r1"] }),
      userMessage(2, "fwd", { forwardedFromName: "Carol", media: ["f1", "f2"] }),
    ];
    const result = runMedia(messages, [
      imageAttachment("r1", "m1"),
      imageAttachment("f1", "m2"),
      videoAttachment("f2", "m2"),
    ]);
    expect(result.view.map((item) => item.text)).toEqual([
      "«media:media_1:render:r1» | see this\n[System: This image (Media ID: media_1) was included in the message being replied to, sent by Bob]",
      "«media:media_2_1:render:f1» | «media:media_2_2:render:f2» | fwd\n[System: These media files (Media IDs: media_2_1, media_2_2) were attached to the forwarded message from Carol]",
    ]);
    expect(result.value.history[0]?.mediaDescriptors?.[0]?.attributedTo).toBe("Bob");
  });

  it("a media-only message says who sent it", () => {
    const result = runMedia(
      [userMessage(1, "", { media: ["a", "b"] })],
      [imageAttachment("a", "m1"), imageAttachment("b", "m1")],
    );
    expect(result.view[0]?.text).toBe(
      "«media:media_1_1:render:a» | «media:media_1_2:render:b» | [System: Ada sent these 2 images]",
    );
  });

  it("a missing attachment is a warning; the message still replays", () => {
    const result = runMedia([userMessage(1, "x", { media: ["gone"] })], []);
    expect(result.view[0]?.text).toBe("x");
    expect(result.trace).toEqual([
      {
        stage: "media-budget",
        action: "missing-attachment",
        reason: "1 attachment not found; the message replays without it",
        level: "warning",
        itemIds: ["msg:m1"],
        messageIds: ["m1"],
        details: { attachmentIds: ["gone"] },
      },
    ]);
  });

  it("notice and hint texts", () => {
    expect(omittedImagesNotice(1)).toBe(ONE_IMAGE_OMITTED);
    expect(omittedImagesNotice(3)).toBe(
      "[System: 3 images omitted due to rendered-image limit. Do not claim to see them.]",
    );
    expect(
      attributionHint({
        kinds: ["video", "video"],
        handles: ["media_1", "media_2"],
        from: "Bob",
        isReply: true,
      }),
    ).toBe(
      "[System: These videos (Media IDs: media_1, media_2) were included in the message being replied to, sent by Bob]",
    );
    expect(mediaOnlyText("Ada", ["video"])).toBe("[System: Ada sent this video]");
  });
});
