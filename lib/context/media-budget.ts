// Phase A's media budget (docs/pipeline.md#media-budget), decided once per turn and capability-neutral. It
// only decides which media *may* be shown: media in the newest `min(media.window, messageFetchLimit)` messages
// renders, older media becomes an out-of-window descriptor; only the newest `imageMessageLimit` messages carrying
// counted images render their images (the budget counts messages, not images; emoji and stickers are not
// counted), and a duplicate image renders only at its newest occurrence. Whether the attempt's model can see
// anything is phase B's business.
//
// One backward pass over the items, newest first: O(items + media parts).

import type { ResolvedSettings } from "@/lib/domain/settings";
import type {
  ContextItem,
  ItemPart,
  MediaDescriptor,
  MediaKind,
  StoredAttachment,
  StoredMessage,
  TraceEvent,
} from "@/lib/domain/types";
import { ownMessageId } from "./messages";
import { NO_MESSAGES, type PhaseAContext, type SourcedItems } from "./phases";
import type { Stage, StageResult } from "./stage";
import { plural, traceEvent, traceWarning } from "./trace";

/**
 * The handle a model uses to refer to one attachment, unique in the payload and stable across builds: `media_<seq>`
 * for a message's only media part, `media_<seq>_<n>` for its n-th (from 1, in part order) when it has several, so
 * an image and a PDF sent together are told apart. See docs/pipeline.md.
 */
export function mediaHandle(message: StoredMessage, position = 1, mediaParts = 1): string {
  return mediaParts === 1 ? `media_${message.seq}` : `media_${message.seq}_${position}`;
}

/** Counted against the image budget: a real image, not an emoji or sticker. */
export function isCountedImage(attachment: StoredAttachment): boolean {
  return attachment.kind === "image" && !attachment.isEmoji && !attachment.isSticker;
}

export function omittedImagesNotice(count: number): string {
  return count === 1
    ? "[System: 1 image omitted due to rendered-image limit. Do not claim to see it.]"
    : `[System: ${count} images omitted due to rendered-image limit. Do not claim to see them.]`;
}

function mediaWord(kinds: readonly MediaKind[]): string {
  const count = kinds.length;
  const same = (kind: MediaKind) => kinds.every((each) => each === kind);
  if (same("image")) return count === 1 ? "image" : "images";
  if (same("video")) return count === 1 ? "video" : "videos";
  if (same("audio")) return count === 1 ? "audio clip" : "audio clips";
  if (same("file")) return count === 1 ? "document" : "documents";
  return count === 1 ? "media file" : "media files";
}

/**
 * For a reply or forward: who sent the media. Forwarded (no reply target): "…were attached to the forwarded
 * message from Bob"; reply: "…was included in the message being replied to, sent by Bob".
 */
export function attributionHint(args: {
  kinds: readonly MediaKind[];
  handles: readonly string[];
  from: string;
  isReply: boolean;
}): string {
  const many = args.kinds.length !== 1;
  const subject = `${many ? "These" : "This"} ${mediaWord(args.kinds)}`;
  const ids = `${args.handles.length === 1 ? "Media ID" : "Media IDs"}: ${args.handles.join(", ")}`;
  const verb = many ? "were" : "was";
  return args.isReply
    ? `[System: ${subject} (${ids}) ${verb} included in the message being replied to, sent by ${args.from}]`
    : `[System: ${subject} (${ids}) ${verb} attached to the forwarded message from ${args.from}]`;
}

/** For a message with media and no text: who sent it, so the media is not anonymous in a room. */
export function mediaOnlyText(senderName: string, kinds: readonly MediaKind[]): string {
  const count = kinds.length;
  const word = mediaWord(kinds);
  return count === 1
    ? `[System: ${senderName} sent this ${word}]`
    : `[System: ${senderName} sent these ${count} ${word}]`;
}

interface MediaPlan {
  /** The one stored message the planned item was made from. */
  message: StoredMessage;
  descriptors: MediaDescriptor[];
  omitted: number;
  duplicates: string[];
  outOfWindow: boolean;
  missing: string[];
  emoji: number;
}

/** The message an item was made from, when it is exactly one stored message (not a notice or a collapsed run). */
function sourceMessage(
  item: ContextItem,
  messagesById: ReadonlyMap<string, StoredMessage>,
): StoredMessage | null {
  const messageId = ownMessageId(item);
  return messageId === null ? null : (messagesById.get(messageId) ?? null);
}

function hasMediaParts(message: StoredMessage): boolean {
  for (const part of message.parts) if (part.type === "media") return true;
  return false;
}

/**
 * The stored message each item was made from, when it is exactly one stored message (null for notices and
 * collapsed runs): what `messagesById` gives for the item's own message id, precomputed by the caller.
 */
export interface ItemSources {
  history: readonly (StoredMessage | null)[];
  current: StoredMessage | null;
}

export interface MediaBudgetArgs {
  history: readonly ContextItem[];
  current: ContextItem;
  messagesById: ReadonlyMap<string, StoredMessage>;
  attachmentsById: ReadonlyMap<string, StoredAttachment>;
  settings: ResolvedSettings;
  /** Optional: each item's source message, parallel to `history`, so no item is looked up by id. */
  sources?: ItemSources;
}

export interface BudgetedMediaItems {
  history: ContextItem[];
  current: ContextItem;
  /** Each output history item's source message (null for notices), parallel to `history`. */
  historySources: (StoredMessage | null)[];
}

/**
 * Two passes: newest first, each message's media is planned against the window and the image budget (both count
 * from the newest message); then oldest first, the plans are applied so items and events come out in
 * conversation order.
 */
export function applyMediaBudget(args: MediaBudgetArgs): StageResult<BudgetedMediaItems> {
  const effectiveWindow = Math.min(args.settings.media.window, args.settings.history.messageFetchLimit);
  const planned = planMedia(args, effectiveWindow);
  return applyPlans(args, planned, effectiveWindow);
}

/** Each item's media plan and source message, parallel to the history with the current input last. */
interface PlannedMedia {
  /** undefined: the item carries no media. */
  plans: (MediaPlan | undefined)[];
  messages: (StoredMessage | null)[];
}

/** What the backward pass has used of the image budget so far. */
interface ImageBudget {
  /** `media.imageMessageLimit`: how many messages (newest first) may render their counted images. */
  limit: number;
  renderedMessages: number;
  /** Counted images already rendered by a newer message: an older copy is a duplicate. */
  seenShas: Set<string>;
}

function planMedia(args: MediaBudgetArgs, effectiveWindow: number): PlannedMedia {
  const { history, current, messagesById, attachmentsById, sources } = args;
  const total = history.length + 1;
  const plans: (MediaPlan | undefined)[] = new Array(total);
  const messages: (StoredMessage | null)[] = new Array(total);
  const budget: ImageBudget = {
    limit: args.settings.media.imageMessageLimit,
    renderedMessages: 0,
    seenShas: new Set(),
  };
  // Messages newer than the item being looked at, counting the messages inside collapsed items and notices.
  let newerMessages = 0;
  for (let index = total - 1; index >= 0; index--) {
    const isCurrent = index === history.length;
    const item = isCurrent ? current : history[index];
    if (item === undefined) continue;
    const message =
      sources === undefined
        ? sourceMessage(item, messagesById)
        : isCurrent
          ? sources.current
          : (sources.history[index] ?? null);
    messages[index] = message;
    const rank = newerMessages + 1;
    newerMessages += item.sourceMessageIds.length;
    if (message === null || !hasMediaParts(message)) continue;
    plans[index] = planMessageMedia(message, rank <= effectiveWindow, attachmentsById, budget);
  }
  return { plans, messages };
}

/** One message's media: rendered, out of window, omitted by the image budget, a duplicate, missing or emoji. */
function planMessageMedia(
  message: StoredMessage,
  inWindow: boolean,
  attachmentsById: ReadonlyMap<string, StoredAttachment>,
  budget: ImageBudget,
): MediaPlan {
  const plan: MediaPlan = {
    message,
    descriptors: [],
    omitted: 0,
    duplicates: [],
    outOfWindow: !inWindow,
    missing: [],
    emoji: 0,
  };
  const attachments: { attachment: StoredAttachment; handle: string }[] = [];
  let hasCounted = false;
  // Every media part counts for the positions (missing and emoji ones too), so a handle never shifts between builds.
  const mediaParts = message.parts.filter((part) => part.type === "media");
  for (const [index, part] of mediaParts.entries()) {
    const attachment = attachmentsById.get(part.attachmentId);
    if (attachment === undefined) {
      plan.missing.push(part.attachmentId);
      continue;
    }
    if (attachment.isEmoji) {
      plan.emoji++;
      continue;
    }
    attachments.push({ attachment, handle: mediaHandle(message, index + 1, mediaParts.length) });
    if (isCountedImage(attachment)) hasCounted = true;
  }
  // The budget counts messages with counted images, newest first, inside the window only.
  const rendersImages = inWindow && hasCounted && budget.renderedMessages < budget.limit;
  if (rendersImages) budget.renderedMessages++;

  const attributedTo = message.forwardedFromName ?? null;
  const newShas: string[] = [];
  for (const { attachment, handle } of attachments) {
    const counted = isCountedImage(attachment);
    if (inWindow && counted) {
      if (!rendersImages) {
        plan.omitted++;
        continue;
      }
      if (budget.seenShas.has(attachment.sha256)) {
        plan.duplicates.push(attachment.id);
        continue;
      }
      newShas.push(attachment.sha256);
    }
    plan.descriptors.push({
      handle,
      attachmentId: attachment.id,
      kind: attachment.kind,
      mime: attachment.mime,
      url: attachment.url,
      sha256: attachment.sha256,
      state: inWindow ? "render" : "out_of_window",
      attributedTo,
      senderName: message.authorName,
      messageSeq: message.seq,
      counted,
      ...(attachment.kind === "file" && attachment.filename ? { filename: attachment.filename } : {}),
      ...(attachment.kind === "image" ? {} : { sizeBytes: attachment.sizeBytes }),
    });
  }
  // A message's own repeats of an image all render: only a newer message's copy makes one a duplicate.
  for (const sha of newShas) budget.seenShas.add(sha);
  return plan;
}

/** Media left out across the whole history, reported once at the end rather than per message. */
interface MediaTally {
  outOfWindowItems: string[];
  outOfWindowMessages: string[];
  outOfWindowMedia: number;
  emojiMessages: string[];
  emojiCount: number;
}

function applyPlans(
  args: MediaBudgetArgs,
  planned: PlannedMedia,
  effectiveWindow: number,
): StageResult<BudgetedMediaItems> {
  const { plans, messages } = planned;
  const imageMessageLimit = args.settings.media.imageMessageLimit;
  const trace: TraceEvent[] = [];
  const history: ContextItem[] = [];
  const historySources: (StoredMessage | null)[] = [];
  let current = args.current;
  const tally: MediaTally = {
    outOfWindowItems: [],
    outOfWindowMessages: [],
    outOfWindowMedia: 0,
    emojiMessages: [],
    emojiCount: 0,
  };

  for (let index = 0; index < plans.length; index++) {
    const isCurrent = index === args.history.length;
    const item = isCurrent ? args.current : args.history[index];
    if (item === undefined) continue;
    const plan = plans[index];
    if (plan === undefined) {
      if (!isCurrent) {
        history.push(item);
        historySources.push(messages[index] ?? null);
      }
      continue;
    }
    // A planned item is exactly one stored message: the one the backward pass found.
    const message = plan.message;
    const messageId = item.sourceMessageIds[0] ?? message.id;
    const { notice, replaced } = applyPlan(item, message, plan);
    if (isCurrent) current = replaced;
    else {
      if (notice !== null) {
        history.push(notice);
        historySources.push(null);
      }
      history.push(replaced);
      historySources.push(message);
    }
    pushPlanEvents(trace, plan, { item, notice, messageId, imageMessageLimit });
    if (plan.outOfWindow && plan.descriptors.length > 0) {
      tally.outOfWindowItems.push(item.id);
      tally.outOfWindowMessages.push(messageId);
      tally.outOfWindowMedia += plan.descriptors.length;
    }
    if (plan.emoji > 0) {
      tally.emojiMessages.push(messageId);
      tally.emojiCount += plan.emoji;
    }
  }
  pushTallyEvents(trace, tally, effectiveWindow);
  return { value: { history, current, historySources }, trace };
}

/** One message's events: images omitted by the budget, duplicates dropped, attachments missing. */
function pushPlanEvents(
  trace: TraceEvent[],
  plan: MediaPlan,
  where: { item: ContextItem; notice: ContextItem | null; messageId: string; imageMessageLimit: number },
): void {
  const { item, notice, messageId, imageMessageLimit } = where;
  if (plan.omitted > 0) {
    trace.push(
      traceEvent(
        "media-budget",
        "omitted-images",
        `omitted ${plural(plan.omitted, "image")} (limit: ${plural(imageMessageLimit, "message")} with images)`,
        {
          itemIds: notice === null ? [item.id] : [notice.id, item.id],
          messageIds: [messageId],
          counts: { images: plan.omitted, limit: imageMessageLimit },
        },
      ),
    );
  }
  if (plan.duplicates.length > 0) {
    trace.push(
      traceEvent(
        "media-budget",
        "dropped-duplicate-image",
        `dropped ${plural(plan.duplicates.length, "duplicate image")}: a newer message has the same image`,
        {
          itemIds: [item.id],
          messageIds: [messageId],
          counts: { images: plan.duplicates.length },
          details: { attachmentIds: plan.duplicates },
        },
      ),
    );
  }
  if (plan.missing.length > 0) {
    trace.push(
      traceWarning(
        "media-budget",
        "missing-attachment",
        `${plural(plan.missing.length, "attachment")} not found; the message replays without it`,
        {
          itemIds: [item.id],
          messageIds: [messageId],
          details: { attachmentIds: plan.missing },
        },
      ),
    );
  }
}

function pushTallyEvents(trace: TraceEvent[], tally: MediaTally, effectiveWindow: number): void {
  if (tally.outOfWindowMedia > 0) {
    trace.push(
      traceEvent(
        "media-budget",
        "out-of-window-media",
        `${plural(tally.outOfWindowMedia, "media item")} outside the media window of ${plural(effectiveWindow, "message")}`,
        {
          itemIds: tally.outOfWindowItems,
          messageIds: tally.outOfWindowMessages,
          counts: { media: tally.outOfWindowMedia, window: effectiveWindow },
        },
      ),
    );
  }
  if (tally.emojiCount > 0) {
    trace.push(
      traceEvent(
        "media-budget",
        "skipped-emoji",
        `${plural(tally.emojiCount, "emoji attachment")} not sent as media (emoji stay text)`,
        {
          messageIds: tally.emojiMessages,
          counts: { emoji: tally.emojiCount },
        },
      ),
    );
  }
}

/**
 * The item with its media: [media placeholders…, omitted-images notice (user turns), text…]. On an assistant turn
 * the notice goes into a user item just before it (the model's own turn never carries
 * system notices: it did not write them). A reply or forward gets the attribution hint appended to its text, unless its media is out of
 * window.
 */
function applyPlan(
  item: ContextItem,
  message: StoredMessage,
  plan: MediaPlan,
): { notice: ContextItem | null; replaced: ContextItem } {
  const parts: ItemPart[] = [];
  for (const descriptor of plan.descriptors) parts.push({ type: "media", descriptor });
  let notice: ContextItem | null = null;
  if (plan.omitted > 0) {
    const text = omittedImagesNotice(plan.omitted);
    if (item.role === "assistant") {
      notice = {
        id: `${item.id}:media-notice`,
        role: "user",
        tag: "MEDIA_NOTICE",
        parts: [{ type: "text", text }],
        sourceMessageIds: item.sourceMessageIds,
        tokens: 0,
      };
      if (item.sender !== undefined) notice.sender = item.sender;
    } else {
      parts.push({ type: "text", text });
    }
  }

  let textParts = item.parts;
  if (plan.descriptors.length > 0 && !plan.outOfWindow) {
    const kinds = plan.descriptors.map((descriptor) => descriptor.kind);
    let extra: string | null = null;
    if (message.forwardedFromName) {
      const handles = [...new Set(plan.descriptors.map((descriptor) => descriptor.handle))];
      extra = attributionHint({
        kinds,
        handles,
        from: message.forwardedFromName,
        isReply: message.replyToMessageId !== null,
      });
    } else if (!item.parts.some((part) => part.type === "text")) {
      extra = mediaOnlyText(message.authorName, kinds);
    }
    if (extra !== null) textParts = appendToFirstText(item.parts, extra);
  }
  for (const part of textParts) parts.push(part);

  const replaced: ContextItem = { ...item, parts, tokens: 0 };
  if (plan.descriptors.length > 0) replaced.mediaDescriptors = plan.descriptors;
  return { notice, replaced };
}

function appendToFirstText(parts: readonly ItemPart[], extra: string): ItemPart[] {
  const result = parts.slice();
  const index = result.findIndex((part) => part.type === "text");
  const firstText = result[index];
  if (firstText?.type !== "text") result.push({ type: "text", text: extra });
  else result[index] = { type: "text", text: `${firstText.text}\n${extra}` };
  return result;
}

/** Phase A: which images are sent, by the image budgets; the current input is the newest message of the window. */
export const mediaBudgetStage: Stage<SourcedItems, SourcedItems, PhaseAContext> = {
  name: "media-budget",
  run({ items, sources, current }, { input, settings, attachmentsById }) {
    const media = applyMediaBudget({
      history: items,
      current,
      messagesById: NO_MESSAGES,
      attachmentsById,
      settings,
      sources: { history: sources, current: input.currentInput },
    });
    const { history, historySources, current: currentWithMedia } = media.value;
    return {
      value: { items: history, sources: historySources, current: currentWithMedia },
      trace: media.trace,
    };
  },
};
