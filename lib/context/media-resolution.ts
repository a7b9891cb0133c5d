// Phase B's media resolution (docs/pipeline.md#media-resolution), with a per-request image
// cap. Phase A leaves capability-neutral `media` placeholders; here they
// become image/video parts when the attempt's model can see them, or notices that keep the `media_N` handle when
// it cannot. Pure: the base items are never mutated, so a fallback model resolves the same base differently.

import type { ResolvedSettings } from "@/lib/domain/settings";
import type {
  ContextItem,
  ItemPart,
  MediaDescriptor,
  MediaKind,
  ModelDescriptor,
  TraceEvent,
} from "@/lib/domain/types";
import type { PhaseBContext } from "./phases";
import type { Stage, StageResult } from "./stage";
import { countPartTokens, TOKENS_PER_MESSAGE } from "./tokens";

/** The built-in tool a blind model is pointed to. */
export const IMAGE_ANALYSIS_TOOL = "analyze_image";

export interface MediaResolutionOptions {
  /** Names of the tools enabled for this attempt; decides whether blind notices mention the analysis tool. */
  enabledToolNames?: readonly string[];
}

// ---------------------------------------------------------------------------------------------------------------
// Notice texts (wording pinned by tests)

/** `ID: media_1` or `IDs: media_1, media_2`, de-duplicated; `ID: unknown` when there is none. */
export function mediaIdLabel(handles: readonly string[]): string {
  const unique = [...new Set(handles.filter((handle) => handle.length > 0))];
  if (unique.length === 0) return "ID: unknown";
  return unique.length === 1 ? `ID: ${unique[0]}` : `IDs: ${unique.join(", ")}`;
}

function isGif(descriptor: MediaDescriptor): boolean {
  if (descriptor.mime.toLowerCase().includes("gif")) return true;
  // Never scan a data: URL (it can be megabytes of base64); only a real path can end in .gif.
  return !descriptor.url.startsWith("data:") && /\.gif(?:$|[?#])/i.test(descriptor.url);
}

function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

function joinPhrases(phrases: string[]): string {
  if (phrases.length <= 1) return phrases[0] ?? "";
  return `${phrases.slice(0, -1).join(", ")} and ${phrases[phrases.length - 1]}`;
}

/** Seed 000 counting: "1 image", "N images", "1 GIF", "N images (including GIF)", " and N videos". */
export function mediaCountPhrase(descriptors: readonly MediaDescriptor[]): string {
  let images = 0;
  let gifs = 0;
  let videos = 0;
  let audio = 0;
  let documents = 0;
  let files = 0;
  for (const descriptor of descriptors) {
    if (descriptor.kind === "image") {
      images += 1;
      if (isGif(descriptor)) gifs += 1;
    } else if (descriptor.kind === "video") videos += 1;
    else if (descriptor.kind === "audio") audio += 1;
    else if (isPdf(descriptor)) documents += 1;
    else files += 1;
  }
  const phrases: string[] = [];
  if (images === 1) phrases.push(gifs === 1 ? "1 GIF" : "1 image");
  else if (images > 1) phrases.push(gifs > 0 ? `${images} images (including GIF)` : `${images} images`);
  if (videos > 0) phrases.push(plural(videos, "video"));
  if (audio > 0) phrases.push(plural(audio, "audio clip"));
  if (documents > 0) phrases.push(plural(documents, "PDF document"));
  if (files > 0) phrases.push(plural(files, "file"));
  return joinPhrases(phrases);
}

export function outOfWindowNotice(descriptors: readonly MediaDescriptor[], modelCanView: boolean): string {
  const label = mediaIdLabel(descriptors.map((descriptor) => descriptor.handle));
  const phrase = mediaCountPhrase(descriptors);
  const idSentence = label.startsWith("IDs:")
    ? "The media IDs can still be used with tools that accept media references."
    : "The media ID can still be used with tools that accept media references.";
  if (modelCanView) {
    const pronoun = descriptors.length === 1 ? "it" : "them";
    return `[System: This message (${label}) contained ${phrase}, but it is outside the current media context window. Ask the user to reply to that message if you need to see ${pronoun}. ${idSentence}]`;
  }
  return `[System: This message (${label}) contained ${phrase}, but it is outside the current media context window and cannot be viewed by the current model. ${idSentence}]`;
}

export function blindImageNotice(descriptor: MediaDescriptor, analysisToolEnabled: boolean): string {
  const what = isGif(descriptor) ? "a GIF" : "an image";
  const label = mediaIdLabel([descriptor.handle]);
  if (analysisToolEnabled) {
    return `[System: This message (${label}) contains ${what}. Do not guess the image contents. Use the \`${IMAGE_ANALYSIS_TOOL}\` tool with this media ID only if the user explicitly asks about the image or if unseen visual details are necessary to answer.]`;
  }
  return `[System: This message (${label}) contains ${what}. Current model cannot see images, please do not describe or claim to see the image contents. If you need to see images, tell the user to switch to a model that can see images.]`;
}

export function blindVideoNotice(descriptor: MediaDescriptor): string {
  return `[System: This message (${mediaIdLabel([descriptor.handle])}) contains a video. Current model cannot see videos, please do not describe or claim to see the video contents.]`;
}

export function blindAudioNotice(descriptor: MediaDescriptor): string {
  return `[System: This message (${mediaIdLabel([descriptor.handle])}) contains an audio clip. Current model cannot hear audio, please do not describe or claim to know what the audio says. If you need to hear it, tell the user to switch to a model that can take audio.]`;
}

export function blindDocumentNotice(descriptor: MediaDescriptor): string {
  return `[System: This message (${mediaIdLabel([descriptor.handle])}) contains a PDF document. Current model cannot read documents, please do not describe or claim to know the document contents. If you need to read it, tell the user to switch to a model that can read PDFs.]`;
}

/** The PDF is the one document type sent; any other file gets the unsupported notice. */
export function isPdf(descriptor: MediaDescriptor): boolean {
  return descriptor.kind === "file" && descriptor.mime.toLowerCase() === "application/pdf";
}

/** The capability that lets a model take each kind of media. */
const CAPABILITY_FOR_KIND = {
  image: "vision",
  video: "video",
  audio: "audio",
  file: "documents",
} as const satisfies Record<MediaKind, keyof ModelDescriptor["capabilities"]>;

/** Whether the model can take this media item at all (an image still goes through the per-request cap). */
export function modelTakes(
  descriptor: MediaDescriptor,
  capabilities: ModelDescriptor["capabilities"],
): boolean {
  const takesKind = capabilities[CAPABILITY_FOR_KIND[descriptor.kind]];
  return descriptor.kind === "file" ? takesKind && isPdf(descriptor) : takesKind;
}

export function unsupportedMediaNotice(descriptor: MediaDescriptor): string {
  const what = descriptor.kind === "audio" ? "an audio clip" : "a file";
  return `[System: This message (${mediaIdLabel([descriptor.handle])}) contains ${what} (${descriptor.mime}) that cannot be sent to the current model. Do not claim to know its contents.]`;
}

export function requestLimitNotice(descriptors: readonly MediaDescriptor[], limit: number): string {
  const pronoun = descriptors.length === 1 ? "it" : "them";
  const label = mediaIdLabel(descriptors.map((descriptor) => descriptor.handle));
  return `[System: ${plural(descriptors.length, "image")} (${label}) omitted due to the per-request image limit of ${limit}. Do not claim to see ${pronoun}.]`;
}

export function userTurnOnlyNotice(descriptors: readonly MediaDescriptor[]): string {
  const pronoun = descriptors.length === 1 ? "it" : "them";
  const label = mediaIdLabel(descriptors.map((descriptor) => descriptor.handle));
  return `[System: ${plural(descriptors.length, "image")} (${label}) omitted because only images from user turns are sent. Do not claim to see ${pronoun}.]`;
}

// ---------------------------------------------------------------------------------------------------------------
// Resolution

/** The item's descriptors: its placeholders in part order, then any listed only in `mediaDescriptors`. */
function descriptorsOf(item: ContextItem): MediaDescriptor[] {
  const found: MediaDescriptor[] = [];
  for (const part of item.parts) if (part.type === "media") found.push(part.descriptor);
  if (item.mediaDescriptors && item.mediaDescriptors.length > 0) {
    const seen = new Set(found.map((descriptor) => descriptor.attachmentId));
    for (const descriptor of item.mediaDescriptors)
      if (!seen.has(descriptor.attachmentId)) found.push(descriptor);
  }
  return found;
}

function carriesMedia(item: ContextItem): boolean {
  if (item.mediaDescriptors !== undefined) return true;
  for (const part of item.parts) if (part.type === "media") return true;
  return false;
}

type ImageVerdict = "send" | "over-limit" | "not-user-turn";

/**
 * Seed 004's per-request cap, newest first: user-turn images take the slots first; with `user_then_assistant`
 * assistant images fill what is left, with `user_turn_only` they are never sent.
 */
function decideImages(
  descriptorsByItem: (MediaDescriptor[] | null)[],
  items: readonly ContextItem[],
  settings: ResolvedSettings,
): Map<MediaDescriptor, ImageVerdict> {
  const verdicts = new Map<MediaDescriptor, ImageVerdict>();
  const limit = settings.media.maxImagesPerRequest;
  let used = 0;
  const assistantImagesNewestFirst: MediaDescriptor[] = [];
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const descriptors = descriptorsByItem[index];
    if (!descriptors) continue;
    const fromAssistant = items[index]?.role === "assistant";
    for (const descriptor of descriptors) {
      if (descriptor.kind !== "image" || descriptor.state !== "render") continue;
      // A sticker takes no slot of the per-request cap (stickers are not counted images): it is sent whenever its
      // turn's images are.
      if (descriptor.counted === false) {
        if (!fromAssistant) verdicts.set(descriptor, "send");
        else assistantImagesNewestFirst.push(descriptor);
        continue;
      }
      if (fromAssistant) {
        assistantImagesNewestFirst.push(descriptor);
      } else if (used < limit) {
        verdicts.set(descriptor, "send");
        used += 1;
      } else {
        verdicts.set(descriptor, "over-limit");
      }
    }
  }
  const assistantAllowed = settings.media.imageInputSelection === "user_then_assistant";
  for (const descriptor of assistantImagesNewestFirst) {
    if (!assistantAllowed) verdicts.set(descriptor, "not-user-turn");
    else if (descriptor.counted === false) verdicts.set(descriptor, "send");
    else if (used < limit) {
      verdicts.set(descriptor, "send");
      used += 1;
    } else verdicts.set(descriptor, "over-limit");
  }
  return verdicts;
}

function mediaPart(descriptor: MediaDescriptor): ItemPart {
  return {
    type: descriptor.kind,
    mediaType: descriptor.mime,
    url: descriptor.url,
    attachmentId: descriptor.attachmentId,
    handle: descriptor.handle,
    // A document goes with its name (OpenAI shows the model the file name); other kinds need none.
    ...(descriptor.kind === "file" && descriptor.filename ? { filename: descriptor.filename } : {}),
    ...(descriptor.kind !== "image" && descriptor.sizeBytes !== undefined
      ? { sizeBytes: descriptor.sizeBytes }
      : {}),
  };
}

function textPart(text: string): ItemPart {
  return { type: "text", text };
}

function withoutDescriptors(item: ContextItem): ContextItem {
  const { mediaDescriptors: _dropped, ...rest } = item;
  return rest;
}

type PartCounter = (part: ItemPart) => number;

/**
 * Counts parts for one resolution. Notices differ only in their digits (handles, counts), and both BPE
 * tokenizers split digits into their own 1–3 digit chunks, so a notice costs exactly what the same text with every
 * digit set to 0 costs: a thousand out-of-window notices tokenise a handful of distinct texts.
 */
function partCounter(model: ModelDescriptor): PartCounter {
  const noticeTokens = new Map<string, number>();
  return (part) => {
    if (part.type !== "text") return countPartTokens(part, model.tokenizer);
    const key = part.text.replace(/\d/g, "0");
    let tokens = noticeTokens.get(key);
    if (tokens === undefined) {
      tokens = countPartTokens({ type: "text", text: key }, model.tokenizer);
      noticeTokens.set(key, tokens);
    }
    return tokens;
  };
}

/** A changed item's count, adjusted by the parts it lost and gained so long text is never re-tokenised. */
function adjustedTokens(
  previous: number,
  removed: readonly ItemPart[],
  added: readonly ItemPart[],
  count: PartCounter,
): number {
  if (previous <= 0) return 0;
  let tokens = previous;
  for (const part of removed) tokens -= count(part);
  for (const part of added) tokens += count(part);
  return Math.max(tokens, 1);
}

interface Tally {
  sentImages: string[];
  sentVideos: string[];
  sentAudio: string[];
  sentDocuments: string[];
  blind: string[];
  outOfWindow: string[];
  overLimit: string[];
  notUserTurn: string[];
  unsupported: string[];
  itemIds: Record<keyof Omit<Tally, "itemIds">, Set<string>>;
}

function newTally(): Tally {
  return {
    sentImages: [],
    sentVideos: [],
    sentAudio: [],
    sentDocuments: [],
    blind: [],
    outOfWindow: [],
    overLimit: [],
    notUserTurn: [],
    unsupported: [],
    itemIds: {
      sentImages: new Set(),
      sentVideos: new Set(),
      sentAudio: new Set(),
      sentDocuments: new Set(),
      blind: new Set(),
      outOfWindow: new Set(),
      overLimit: new Set(),
      notUserTurn: new Set(),
      unsupported: new Set(),
    },
  };
}

function note(tally: Tally, key: keyof Omit<Tally, "itemIds">, handle: string, itemId: string): void {
  tally[key].push(handle);
  tally.itemIds[key].add(itemId);
}

/** Resolve one item's media into media parts (first) and notices (after them), so the model sees the media before what is said about it. */
function resolveItemMedia(
  item: ContextItem,
  descriptors: MediaDescriptor[],
  verdicts: Map<MediaDescriptor, ImageVerdict>,
  model: ModelDescriptor,
  settings: ResolvedSettings,
  analysisToolEnabled: boolean,
  tally: Tally,
): { media: ItemPart[]; notices: ItemPart[] } {
  const media: ItemPart[] = [];
  const notices: ItemPart[] = [];
  const { vision } = model.capabilities;

  const outOfWindow = descriptors.filter((descriptor) => descriptor.state === "out_of_window");
  if (outOfWindow.length > 0) {
    const canViewAll = outOfWindow.every((descriptor) => modelTakes(descriptor, model.capabilities));
    notices.push(textPart(outOfWindowNotice(outOfWindow, canViewAll)));
    for (const descriptor of outOfWindow) note(tally, "outOfWindow", descriptor.handle, item.id);
  }

  const overLimit: MediaDescriptor[] = [];
  const notUserTurn: MediaDescriptor[] = [];
  for (const descriptor of descriptors) {
    if (descriptor.state !== "render") continue;
    if (descriptor.kind === "image") {
      if (!vision) {
        notices.push(textPart(blindImageNotice(descriptor, analysisToolEnabled)));
        note(tally, "blind", descriptor.handle, item.id);
        continue;
      }
      const verdict = verdicts.get(descriptor);
      if (verdict === "send") {
        media.push(mediaPart(descriptor));
        note(tally, "sentImages", descriptor.handle, item.id);
      } else if (verdict === "not-user-turn") notUserTurn.push(descriptor);
      else overLimit.push(descriptor);
    } else if (descriptor.kind === "video" || descriptor.kind === "audio" || isPdf(descriptor)) {
      if (modelTakes(descriptor, model.capabilities)) {
        media.push(mediaPart(descriptor));
        note(tally, SENT_KEYS[descriptor.kind], descriptor.handle, item.id);
      } else {
        notices.push(textPart(BLIND_NOTICES[descriptor.kind](descriptor)));
        note(tally, "blind", descriptor.handle, item.id);
      }
    } else {
      notices.push(textPart(unsupportedMediaNotice(descriptor)));
      note(tally, "unsupported", descriptor.handle, item.id);
    }
  }
  if (overLimit.length > 0) {
    notices.push(textPart(requestLimitNotice(overLimit, settings.media.maxImagesPerRequest)));
    for (const descriptor of overLimit) note(tally, "overLimit", descriptor.handle, item.id);
  }
  if (notUserTurn.length > 0) {
    notices.push(textPart(userTurnOnlyNotice(notUserTurn)));
    for (const descriptor of notUserTurn) note(tally, "notUserTurn", descriptor.handle, item.id);
  }
  return { media, notices };
}

/** Where each kind other than images is tallied when sent, and the notice it gets when the model cannot take it. */
const SENT_KEYS = {
  video: "sentVideos",
  audio: "sentAudio",
  file: "sentDocuments",
} as const satisfies Record<Exclude<MediaDescriptor["kind"], "image">, keyof Omit<Tally, "itemIds">>;
const BLIND_NOTICES: Record<
  Exclude<MediaDescriptor["kind"], "image">,
  (descriptor: MediaDescriptor) => string
> = { video: blindVideoNotice, audio: blindAudioNotice, file: blindDocumentNotice };

function tallyEvents(
  tally: Tally,
  model: ModelDescriptor,
  settings: ResolvedSettings,
  analysisToolEnabled: boolean,
): TraceEvent[] {
  const events: TraceEvent[] = [];
  const push = (
    key: keyof Omit<Tally, "itemIds">,
    action: string,
    reason: string,
    level: "info" | "warning" = "info",
  ) => {
    const handles = tally[key];
    if (handles.length === 0) return;
    events.push({
      stage: "media-resolution",
      action,
      reason,
      level,
      itemIds: [...tally.itemIds[key]],
      counts: { media: handles.length },
      details: { handles },
    });
  };
  const sentKinds = [
    { key: "sentImages", word: "image", count: "images" },
    { key: "sentVideos", word: "video", count: "videos" },
    { key: "sentAudio", word: "audio clip", count: "audio" },
    { key: "sentDocuments", word: "PDF document", count: "documents" },
  ] as const;
  const sent = sentKinds.reduce((sum, kind) => sum + tally[kind.key].length, 0);
  if (sent > 0) {
    const present = sentKinds.filter((kind) => tally[kind.key].length > 0);
    const counts: Record<string, number> = {
      images: tally.sentImages.length,
      videos: tally.sentVideos.length,
    };
    // Audio and documents are counted only when sent, so the events of image-only payloads stay as they were.
    if (tally.sentAudio.length > 0) counts.audio = tally.sentAudio.length;
    if (tally.sentDocuments.length > 0) counts.documents = tally.sentDocuments.length;
    events.push({
      stage: "media-resolution",
      action: "attached-media",
      reason: `${joinPhrases(present.map((kind) => plural(tally[kind.key].length, kind.word)))} attached for ${model.id}, which can take them`,
      itemIds: [...new Set(present.flatMap((kind) => [...tally.itemIds[kind.key]]))],
      counts,
      details: { handles: present.flatMap((kind) => tally[kind.key]) },
    });
  }
  push(
    "blind",
    "blind-media-notice",
    `${model.id} cannot take ${plural(tally.blind.length, "media item")}; each became a notice keeping its media ID${
      analysisToolEnabled ? ` and pointing to \`${IMAGE_ANALYSIS_TOOL}\`` : ""
    }`,
  );
  push(
    "outOfWindow",
    "out-of-window-notice",
    `${plural(tally.outOfWindow.length, "media item")} outside the media window became a notice`,
  );
  push(
    "overLimit",
    "omitted-images-request-limit",
    `${plural(tally.overLimit.length, "image")} over media.maxImagesPerRequest (${settings.media.maxImagesPerRequest}), newest kept`,
    "warning",
  );
  push(
    "notUserTurn",
    "omitted-assistant-images",
    `${plural(tally.notUserTurn.length, "image")} from assistant turns omitted: media.imageInputSelection is user_turn_only`,
  );
  push(
    "unsupported",
    "unsupported-media-notice",
    `${plural(tally.unsupported.length, "audio clip or file", "audio clips or files")} cannot be sent to ${model.id}`,
  );
  return events;
}

/**
 * Descriptors → media parts or notices for this attempt's model. User items get `[media…, notices…, rest…]`; an
 * assistant item's notices go into a preceding user item (the model did not write them).
 */
export function resolveMedia(
  items: readonly ContextItem[],
  model: ModelDescriptor,
  settings: ResolvedSettings,
  options: MediaResolutionOptions = {},
): StageResult<readonly ContextItem[]> {
  const descriptorsByItem = items.map((item) => (carriesMedia(item) ? descriptorsOf(item) : null));
  if (!descriptorsByItem.some((descriptors) => descriptors)) return { value: items, trace: [] };

  const analysisToolEnabled = (options.enabledToolNames ?? []).includes(IMAGE_ANALYSIS_TOOL);
  const verdicts = model.capabilities.vision ? decideImages(descriptorsByItem, items, settings) : new Map();
  const tally = newTally();
  const count = partCounter(model);
  const resolved: ContextItem[] = [];

  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    if (item === undefined) continue;
    const descriptors = descriptorsByItem[index];
    if (!descriptors) {
      resolved.push(item);
      continue;
    }
    const { media, notices } = resolveItemMedia(
      item,
      descriptors,
      verdicts,
      model,
      settings,
      analysisToolEnabled,
      tally,
    );
    const placeholders = item.parts.filter((part) => part.type === "media");
    const rest = item.parts.filter((part) => part.type !== "media");
    const base = withoutDescriptors(item);

    if (item.role === "assistant" && notices.length > 0) {
      resolved.push({
        id: `${item.id}:media-notice`,
        role: "user",
        tag: "MEDIA_NOTICE",
        parts: notices,
        sourceMessageIds: item.sourceMessageIds,
        ...(item.sender ? { sender: item.sender } : {}),
        tokens: notices.reduce((sum, part) => sum + count(part), TOKENS_PER_MESSAGE),
      });
      const parts = [...media, ...rest];
      // An image-only model turn whose images all became notices has nothing left to say.
      if (parts.length > 0) {
        resolved.push({ ...base, parts, tokens: adjustedTokens(item.tokens, placeholders, media, count) });
      }
      continue;
    }
    const added = [...media, ...notices];
    resolved.push({
      ...base,
      parts: [...added, ...rest],
      tokens: adjustedTokens(item.tokens, placeholders, added, count),
    });
  }
  return { value: resolved, trace: tallyEvents(tally, model, settings, analysisToolEnabled) };
}

/** Phase B: media placeholders become media parts or notices for the attempt's model. */
export const mediaResolutionStage: Stage<readonly ContextItem[], readonly ContextItem[], PhaseBContext> = {
  name: "media-resolution",
  run: (items, { model, settings, enabledToolNames }) =>
    resolveMedia(items, model, settings, { enabledToolNames }),
};
