// The pipeline's invariants (docs/pipeline.md#invariants) as properties over random stored conversations
// (tests/context/conversation-arbitrary.ts), for phase A (`buildContext`) followed by phase B (`resolveForModel`)
// for the persona's model and a fallback. The seed is fixed; CONTEXT_PROPERTY_SEED / CONTEXT_PROPERTY_RUNS
// override it for exploring locally.
//
// Below the properties: minimal counterexamples the properties found (each marked with the finding it pins), and
// scenario tests for settings and pipeline rules no other test in lib/context covered.

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import type { ModelMessage } from "ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  defaultSettings,
  resolveSettings,
  type SettingsOverride,
  settingsOverrideSchema,
} from "@/lib/domain/settings";
import type {
  BaseContext,
  BuildInput,
  ContextItem,
  ModelDescriptor,
  StoredArtifact,
  StoredMessage,
  TraceEvent,
} from "@/lib/domain/types";
import {
  appendTurn,
  blueprintArbitrary,
  type ConversationBlueprint,
  type GeneratedConversation,
  HUMANS,
  loadInput,
  materialise,
  OTHER_PERSONAS,
  PERSONA_NAME,
} from "@/tests/context/conversation-arbitrary";
import {
  ADA,
  alternatingMessages,
  BOB,
  blockRecord,
  buildInput,
  deepFreeze,
  functionCallArtifact,
  functionOutputArtifact,
  imageAttachment,
  MALLORY,
  modelDescriptor,
  personaMessage,
  userMessage,
} from "@/tests/context/fixtures";
import { buildContext } from "./build-context";
import { elementAt } from "./indexing";
import { omittedImagesNotice } from "./media-budget";
import { blockedRunNoticeText } from "./persona-user-blocks";
import { ContextBudgetError, type ResolvedContext, resolveForModel } from "./resolve-for-model";
import { instructionsText, messageSourceItems } from "./serialise";
import { countItemTokens, countTextTokens } from "./tokens";

const SEED = Number(process.env.CONTEXT_PROPERTY_SEED ?? 20_260_601);
const RUNS = Number(process.env.CONTEXT_PROPERTY_RUNS ?? 300);
// A failure found is still reported when the time limit cuts its shrinking short (a big counterexample shrinks
// for minutes); a passing run cut short on a very busy machine passes with fewer runs.
const PARAMETERS = { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: 15_000 } as const;

// Open bugs the properties found were pinned by the "findings" scenario tests below and tolerated by the
// properties through an OPEN_BUGS flag each; F1, F2, F4, F5, F6 and F9 are fixed, their tolerances gone, and their
// scenario tests now assert the fixed behaviour.

// ---------------------------------------------------------------------------------------------------------------
// Running the pipeline

type Outcome = ResolvedContext | ContextBudgetError;

function attempt(base: BaseContext, model: ModelDescriptor, enabledToolNames: string[]): Outcome {
  try {
    return resolveForModel(base, model, { enabledToolNames });
  } catch (error) {
    if (error instanceof ContextBudgetError) return error;
    throw error;
  }
}

/** Phase A as the route runs it for the persona's model (cached counts of that model's tokenizer). */
function build(input: BuildInput, model: ModelDescriptor): BaseContext {
  return buildContext(input, { tokenizer: model.tokenizer });
}

function outcomeJson(outcome: Outcome): string {
  return outcome instanceof ContextBudgetError
    ? JSON.stringify({ error: outcome.message, details: outcome.details })
    : JSON.stringify({ request: outcome.request, items: outcome.items, trace: outcome.trace });
}

// ---------------------------------------------------------------------------------------------------------------
// Reading a payload

/** Every text that reaches the provider: instructions, text and reasoning parts, tool outputs. */
function sentTexts(request: ResolvedContext["request"]): string[] {
  const texts: string[] = [];
  const instructions = instructionsText(request.instructions);
  if (instructions !== undefined) texts.push(instructions);
  for (const message of request.messages) {
    if (typeof message.content === "string") {
      texts.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text" || part.type === "reasoning") texts.push(part.text);
      else if (part.type === "tool-result") texts.push(JSON.stringify(part.output));
      else if (part.type === "tool-call") texts.push(JSON.stringify(part.input));
    }
  }
  return texts;
}

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** The items that became messages (the serialise stage's skipped items are not sent). */
function sentItems(resolved: ResolvedContext): ContextItem[] {
  const skipped = new Set<string>();
  for (const event of resolved.trace)
    if (event.stage === "serialise" && event.action === "skipped-empty-items")
      for (const id of event.itemIds ?? []) skipped.add(id);
  return resolved.items.filter((item) => !skipped.has(item.id));
}

/** For each serialised message, the item it came from (serialisation is item by item). */
function messageSources(resolved: ResolvedContext, _settings: BaseContext["settings"]): ContextItem[] {
  return messageSourceItems(resolved.items, resolved.model);
}

function isBlank(text: string): boolean {
  return !/\S/.test(text);
}

// ---------------------------------------------------------------------------------------------------------------
// The payload invariants (docs/pipeline.md#invariants: input last, one system block, tool pairs, budget, media)

function expectToolPairsWhole(messages: readonly ModelMessage[], frontierCallId: string | null): void {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (message.role === "assistant" && Array.isArray(message.content)) {
      const asked = message.content.flatMap((part) => (part.type === "tool-call" ? [part.toolCallId] : []));
      // A provider-run call is answered inside its own assistant message, the rest by the tool messages after it.
      const answered = new Set<string>(
        message.content.flatMap((part) => (part.type === "tool-result" ? [part.toolCallId] : [])),
      );
      for (const next of messages.slice(index + 1)) {
        if (next.role !== "tool") break;
        for (const part of next.content)
          if (part.type === "tool-result" && part.toolCallId) answered.add(part.toolCallId);
      }
      for (const id of asked) {
        expect(calls.has(id), `tool call ${id} sent twice`).toBe(false);
        calls.add(id);
        if (id === frontierCallId && index === messages.length - 1) continue;
        expect(answered.has(id), `tool call ${id} (message ${index}) sent without its output`).toBe(true);
      }
    }
    if (message.role === "tool") {
      let owner = index - 1;
      while (messages[owner]?.role === "tool") owner--;
      const ownerMessage = messages[owner];
      const asked = new Set<string>();
      if (ownerMessage?.role === "assistant" && Array.isArray(ownerMessage.content))
        for (const part of ownerMessage.content) if (part.type === "tool-call") asked.add(part.toolCallId);
      for (const part of message.content) {
        if (part.type !== "tool-result") continue;
        expect(
          asked.has(part.toolCallId),
          `tool output ${part.toolCallId} (message ${index}) sent without its call`,
        ).toBe(true);
        expect(results.has(part.toolCallId), `tool output ${part.toolCallId} sent twice`).toBe(false);
        results.add(part.toolCallId);
      }
    }
  }
}

const SPEAKER_NAMES = [
  PERSONA_NAME,
  ...HUMANS.map((human) => human.name),
  ...OTHER_PERSONAS.map((other) => other.name),
];

/** A speaker label and nothing else ("Ada: " before a blank text): a message with nothing to say. */
function isLabelOnly(text: string): boolean {
  return SPEAKER_NAMES.some((name) => text.trim() === `${name}:`);
}

function expectNoEmptyMessage(messages: readonly ModelMessage[]): void {
  messages.forEach((message, index) => {
    if (typeof message.content === "string") {
      expect(isBlank(message.content), `message ${index} is empty`).toBe(false);
      return;
    }
    const sendable = message.content.filter(
      (part) =>
        !(part.type === "text" || part.type === "reasoning") ||
        !(isBlank(part.text) || isLabelOnly(part.text)) ||
        // Hidden reasoning (no text, the provider's opaque metadata) is still something sent.
        (part.type === "reasoning" && part.providerOptions !== undefined),
    );
    expect(sendable.length, `message ${index} (${message.role}) has nothing to send`).toBeGreaterThan(0);
  });
}

function mediaParts(messages: readonly ModelMessage[]): { mediaType: string }[] {
  const found: { mediaType: string }[] = [];
  for (const message of messages)
    if (Array.isArray(message.content))
      for (const part of message.content)
        if (part.type === "file" || part.type === "image") found.push(part as { mediaType: string });
  return found;
}

function expectValidPayload(
  resolved: ResolvedContext,
  conversation: GeneratedConversation,
  currentMarker: string,
  frontierCallId: string | null = null,
): void {
  const { request, model } = resolved;
  const { messages } = request;
  // At most one system block, first: `instructions` only, and none for a model without a system role.
  expect(messages.some((message) => message.role === "system")).toBe(false);
  const instructions = instructionsText(request.instructions);
  if (instructions !== undefined) expect(isBlank(instructions)).toBe(false);
  if (!model.capabilities.systemInstruction) expect(request.instructions).toBeUndefined();
  // The current input is last and its text is sent exactly once.
  const all = sentTexts(request).join("\n");
  expect(occurrences(all, currentMarker), "the current input's text is sent exactly once").toBe(1);
  const lastDialogue = messages.at(frontierCallId === null ? -1 : -2);
  expect(lastDialogue?.role).toBe("user");
  expect(JSON.stringify(lastDialogue)).toContain(currentMarker);
  const lastItem = resolved.items.at(frontierCallId === null ? -1 : -2);
  expect(lastItem?.tag).toBe("CURRENT_INPUT");
  expect(lastItem?.sourceMessageIds).toContain(conversation.input.currentInput.id);
  expect(resolved.items.filter((item) => item.tag === "CURRENT_INPUT")).toHaveLength(1);
  // Nothing empty; tool wiring whole.
  expectNoEmptyMessage(messages);
  expectToolPairsWhole(messages, frontierCallId);
  // Budget: the pipeline's own estimate fits. An independent recount of what is sent may differ from it only by
  // the estimates the budget makes on purpose (it never re-tokenises): a cached message count is within a couple
  // of tokens of a recount (labels and joins are counted apart), and a trimmed tool result's count is scaled by the
  // share of characters kept (its marker tokenises denser than prose: up to about a tenth more); so is the head and
  // tail of an output that artifact replay pruned from its cached count.
  expect(resolved.budget.totalTokens).toBeLessThanOrEqual(resolved.budget.usableTokens);
  const trimmed = new Set(
    resolved.trace.flatMap((event) =>
      event.action === "trimmed-tool-result" || event.action === "pruned-tool-output"
        ? (event.itemIds ?? [])
        : [],
    ),
  );
  let recount = 0;
  let allowance = 0;
  for (const item of resolved.items) {
    recount += countItemTokens(item, model.tokenizer);
    if (item.sourceMessageIds.length > 0) allowance += 2;
    if (trimmed.has(item.id)) allowance += Math.ceil(item.tokens * 0.15);
  }
  expect(recount, "an independent recount of what is sent").toBeLessThanOrEqual(
    resolved.budget.usableTokens + allowance,
  );
  // Media: within the per-request cap; nothing a model cannot see.
  const media = mediaParts(messages);
  const images = media.filter((part) => part.mediaType.startsWith("image/"));
  // Stickers and emoji take no slot of the per-request cap (they are not counted images).
  const uncounted = new Set(
    conversation.input.attachments
      .filter((attachment) => attachment.isSticker || attachment.isEmoji)
      .map((attachment) => attachment.id),
  );
  const countedImages = resolved.items.flatMap((item) =>
    item.parts.filter((part) => part.type === "image" && !uncounted.has(part.attachmentId)),
  );
  expect(countedImages.length).toBeLessThanOrEqual(conversation.input.settings.media.maxImagesPerRequest);
  if (!model.capabilities.vision) expect(images).toEqual([]);
  if (!model.capabilities.video)
    expect(media.filter((part) => part.mediaType.startsWith("video/"))).toEqual([]);
  if (!model.capabilities.audio)
    expect(media.filter((part) => part.mediaType.startsWith("audio/"))).toEqual([]);
  if (!model.capabilities.documents)
    expect(media.filter((part) => part.mediaType === "application/pdf")).toEqual([]);
  expect(media.filter((part) => !/^(image|video|audio)\/|^application\/pdf$/.test(part.mediaType))).toEqual(
    [],
  );
  // Stop sequences: unique, within the model's cap.
  const stops = request.stopSequences ?? [];
  expect(new Set(stops).size).toBe(stops.length);
  expect(stops.length).toBeLessThanOrEqual(model.capabilities.maxStopSequences);
}

/** A budget error only when even the pinned items do not fit. */
function expectJustifiedBudgetError(error: ContextBudgetError): void {
  expect(error.code).toBe("context_too_large");
  expect(error.details.requiredTokens).toBeGreaterThan(error.details.usableTokens);
  expect(error.message).toContain(error.details.modelId);
}

// ---------------------------------------------------------------------------------------------------------------
// Who a trace event names

interface Naming {
  /** item id → the stored messages it came from (every item list seen, plus ids parsed from their shape). */
  itemMessages: Map<string, Set<string>>;
  seqOf: Map<string, number>;
  artifactMessage: Map<string, string>;
}

function naming(
  input: BuildInput,
  lists: readonly (readonly ContextItem[])[],
  trace: readonly TraceEvent[],
): Naming {
  const itemMessages = new Map<string, Set<string>>();
  const add = (itemId: string, messageIds: readonly string[]) => {
    const set = itemMessages.get(itemId) ?? new Set<string>();
    for (const id of messageIds) set.add(id);
    itemMessages.set(itemId, set);
  };
  for (const list of lists) for (const item of list) add(item.id, item.sourceMessageIds);
  // Items a later stage dropped are known from the events that made them: a collapsed run, a blocked run.
  for (const event of trace) {
    const key = eventKey(event);
    if ((key === "collapse/collapsed" || key === "blocks/blocked") && event.itemIds?.length === 1)
      add(elementAt(event.itemIds, 0), event.messageIds ?? []);
  }
  const seqOf = new Map<string, number>();
  for (const message of [...input.messages, input.currentInput]) seqOf.set(message.id, message.seq);
  const artifactMessage = new Map<string, string>();
  for (const artifact of input.artifacts) artifactMessage.set(artifact.id, artifact.messageId);
  return { itemMessages, seqOf, artifactMessage };
}

/** The messages an item id stands for: from the items seen, else from the id's shape (msg:, blocked:, artifact:). */
function messagesOfItem(names: Naming, itemId: string): string[] {
  const known = names.itemMessages.get(itemId);
  if (known && known.size > 0) return [...known];
  const messageId = /^(?:msg|blocked):([^:]+)/.exec(itemId)?.[1];
  if (messageId !== undefined) return [messageId];
  const artifactMatch = /^artifact:([^:]+)/.exec(itemId);
  if (artifactMatch) {
    const messageId = names.artifactMessage.get(elementAt(artifactMatch, 1));
    return messageId ? [messageId] : [];
  }
  return [];
}

function eventKey(event: TraceEvent): string {
  return `${event.stage}/${event.action}`;
}

/** Whether the event names the stored message: by id, by an item made from it, or inside a window's dropped range. */
function namesMessage(event: TraceEvent, messageId: string, names: Naming): boolean {
  if (event.messageIds?.includes(messageId)) return true;
  if (event.itemIds?.some((itemId) => messagesOfItem(names, itemId).includes(messageId))) return true;
  if (eventKey(event) === "window/windowed") {
    const details = event.details as { firstDroppedItemId: string; lastDroppedItemId: string };
    const seq = names.seqOf.get(messageId);
    const first = messagesOfItem(names, details.firstDroppedItemId).map(
      (id) => names.seqOf.get(id) ?? Number.NaN,
    );
    const last = messagesOfItem(names, details.lastDroppedItemId).map(
      (id) => names.seqOf.get(id) ?? Number.NaN,
    );
    if (seq !== undefined && first.length > 0 && last.length > 0)
      return seq >= Math.min(...first) && seq <= Math.max(...last);
  }
  return false;
}

function namesInDetails(event: TraceEvent, ids: readonly string[]): boolean {
  const details = (event.details ?? {}) as Record<string, unknown>;
  for (const key of ["attachmentIds", "artifactIds", "toolCallIds", "handles"]) {
    const list = details[key];
    if (Array.isArray(list) && ids.some((id) => list.includes(id))) return true;
  }
  return typeof details.artifactId === "string" && ids.includes(details.artifactId);
}

/** Stages that drop whole messages (or their item), each with a trace event naming what it dropped. */
const MESSAGE_DROPS = new Set([
  "summary/dropped-covered",
  "blocks/blocked",
  "artifacts/dropped-empty",
  "window/windowed",
  "budget/dropped-oldest-turns",
  "normalise/dropped-empty-items",
  "serialise/skipped-empty-items",
]);
const MEDIA_OMISSIONS = new Set([
  "media-budget/omitted-images",
  "media-budget/dropped-duplicate-image",
  "media-budget/missing-attachment",
  "media-budget/out-of-window-media",
  "media-budget/skipped-emoji",
  "media-resolution/blind-media-notice",
  "media-resolution/out-of-window-notice",
  "media-resolution/omitted-images-request-limit",
  "media-resolution/omitted-assistant-images",
  "media-resolution/unsupported-media-notice",
]);
const ARTIFACT_OMISSIONS = new Set([
  "artifacts/missing-artifact",
  "artifacts/dropped-non-replayable",
  "artifacts/dropped-malformed-artifact",
  "artifacts/dropped-orphan-tool-artifacts",
  "artifacts/skipped-reasoning",
  "artifacts/skipped-artifacts",
  "window/stripped-orphan-tool-parts",
  "reasoning/not-replayable",
  "normalise/dropped-orphan-tool-output",
]);

/** The seed notices a media-resolution omission leaves in the payload, with the media's handle. */
const NOTICE_PHRASES: Record<string, string> = {
  "media-resolution/out-of-window-notice": "outside the current media context window",
  "media-resolution/blind-media-notice": ") contains ",
  "media-resolution/omitted-images-request-limit": "per-request image limit",
  "media-resolution/omitted-assistant-images": "only images from user turns are sent",
  "media-resolution/unsupported-media-notice": "cannot be sent to the current model",
};

function textMarkers(message: StoredMessage): string[] {
  const markers: string[] = [];
  for (const part of message.parts)
    if (part.type === "text") for (const match of part.text.matchAll(/⟦m\d+\.\d+⟧/g)) markers.push(match[0]);
  return markers;
}

/**
 * The invariant "every omission is visible": whatever loaded message text, attachment or artifact is not in the
 * payload is named by a trace event of a stage that omits such things; and where a stage gives a notice, the
 * notice is in the payload for every message that is still sent.
 */
function expectOmissionsVisible(input: BuildInput, base: BaseContext, resolved: ResolvedContext): void {
  const trace = resolved.trace;
  const sent = sentItems(resolved);
  const names = naming(input, [base.items, resolved.items], resolved.trace);
  const payload = sentTexts(resolved.request).join("\n");
  const sentSources = new Set(sent.flatMap((item) => item.sourceMessageIds));
  const explained = (kinds: ReadonlySet<string>, messageId: string, ids: readonly string[]) =>
    trace.some(
      (event) =>
        kinds.has(eventKey(event)) && (namesMessage(event, messageId, names) || namesInDetails(event, ids)),
    );
  const messageOrMedia = new Set([...MESSAGE_DROPS, ...MEDIA_OMISSIONS]);
  const messageOrArtifact = new Set([...MESSAGE_DROPS, ...ARTIFACT_OMISSIONS]);

  // Message text.
  for (const message of input.messages) {
    if (message.id === input.currentInput.id) continue;
    for (const marker of textMarkers(message)) {
      if (payload.includes(marker)) continue;
      expect(
        explained(MESSAGE_DROPS, message.id, []),
        `text ${marker} of ${message.id} left out without a trace event`,
      ).toBe(true);
    }
  }

  // Attachments (the current input's too).
  const attachmentById = new Map(input.attachments.map((row) => [row.id, row]));
  const sentAttachments = new Set<string>();
  for (const item of sent)
    for (const part of item.parts)
      if (part.type === "image" || part.type === "video" || part.type === "audio" || part.type === "file")
        sentAttachments.add(part.attachmentId);
  const loadedMessages = input.messages.some((message) => message.id === input.currentInput.id)
    ? input.messages
    : [...input.messages, input.currentInput];
  for (const message of loadedMessages) {
    for (const part of message.parts) {
      if (part.type !== "media") continue;
      if (sentAttachments.has(part.attachmentId)) continue;
      const handle = `media_${message.seq}`;
      const why = attachmentById.has(part.attachmentId) ? "left out" : "not loaded";
      expect(
        explained(messageOrMedia, message.id, [part.attachmentId, handle]),
        `attachment ${part.attachmentId} of ${message.id} ${why} without a trace event`,
      ).toBe(true);
    }
  }

  // Artifacts.
  const artifactById = new Map<string, StoredArtifact>(input.artifacts.map((row) => [row.id, row]));
  const sentCalls = new Set<string>();
  const sentResults = new Set<string>();
  const sentReasoning = new Set<string>();
  for (const message of resolved.request.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (part.type === "tool-call") sentCalls.add(part.toolCallId);
      else if (part.type === "tool-result") {
        const output = part.output as { type: string; value: unknown };
        if (!(output.type === "text" && String(output.value).startsWith("[Tool output unavailable")))
          sentResults.add(part.toolCallId);
      } else if (part.type === "reasoning") sentReasoning.add(part.text);
    }
  }
  for (const message of input.messages) {
    if (message.id === input.currentInput.id) continue;
    for (const part of message.parts) {
      if (part.type !== "artifact") continue;
      const row = artifactById.get(part.artifactId);
      const payload = (row?.payload ?? {}) as { callId?: string; text?: string };
      if (row?.type === "function_call" && payload.callId && sentCalls.has(payload.callId)) continue;
      if (row?.type === "function_call_output" && payload.callId && sentResults.has(payload.callId)) continue;
      if (
        row?.type === "reasoning" &&
        (typeof payload.text !== "string" || isBlank(payload.text) || sentReasoning.has(payload.text))
      )
        continue;
      const ids = [part.artifactId, ...(payload.callId ? [payload.callId] : [])];
      expect(
        explained(messageOrArtifact, message.id, ids),
        `artifact ${part.artifactId} (${row?.type ?? "missing row"}) of ${message.id} left out without a trace event`,
      ).toBe(true);
    }
  }

  // The seeds' notices, for every message still sent.
  for (const event of trace) {
    const key = eventKey(event);
    if (key === "media-budget/omitted-images") {
      const messageId = event.messageIds?.[0] as string;
      if (sentSources.has(messageId))
        expect(payload, `omitted-images notice for ${messageId}`).toContain(
          omittedImagesNotice(event.counts?.images ?? 0),
        );
    }
    const phrase = NOTICE_PHRASES[key];
    if (phrase) {
      for (const handle of (event.details as { handles: string[] }).handles) {
        const messageId = [...names.seqOf].find(([, seq]) => `media_${seq}` === handle)?.[0];
        if (messageId === undefined || !sentSources.has(messageId)) continue;
        // The handle and the phrase inside one `[System: …]` notice, in either order.
        const words = escapeRegExp(phrase);
        const pattern = new RegExp(`${handle}(?!\\d)[^\\]]*${words}|${words}[^\\]]*${handle}(?!\\d)`);
        expect(pattern.test(payload), `${key} notice naming ${handle} is in the payload`).toBe(true);
      }
    }
    if (key === "blocks/blocked") {
      // The blocked user's words never reach the model; the notice does, unless a later stage dropped it.
      for (const messageId of event.messageIds ?? []) {
        const message = input.messages.find((candidate) => candidate.id === messageId) as StoredMessage;
        for (const marker of textMarkers(message))
          expect(payload, `blocked text ${marker} leaked`).not.toContain(marker);
      }
      const noticeId = event.itemIds?.[0] as string;
      const notice = base.items.find((item) => item.id === noticeId);
      if (notice === undefined) continue; // the window dropped it: named by the window event
      const firstHidden = event.messageIds?.[0] as string;
      const droppedLater = trace.some(
        (other) => LATER_DROPS.has(eventKey(other)) && namesMessage(other, firstHidden, names),
      );
      const userName = input.blocks.find(
        (block) => block.userId === (event.details as { userId: string }).userId,
      )?.userName as string;
      const text = blockedRunNoticeText(userName, event.messageIds?.length ?? 0, input.persona.name);
      expect(notice.parts).toEqual([{ type: "text", text }]);
      if (!droppedLater) expect(payload, `blocked notice ${noticeId}`).toContain(text);
    }
  }
}

/** Phase-B stages that can still drop an item phase A made. */
const LATER_DROPS = new Set([
  "budget/dropped-oldest-turns",
  "normalise/dropped-empty-items",
  "serialise/skipped-empty-items",
]);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// ---------------------------------------------------------------------------------------------------------------
// Prefix stability

/** The first index where the two message arrays differ within `length`, or -1. What the inspector reports. */
function firstDivergence(
  before: readonly ModelMessage[],
  after: readonly ModelMessage[],
  length: number,
): number {
  for (let index = 0; index < length; index++) {
    if (index >= after.length || JSON.stringify(before[index]) !== JSON.stringify(after[index])) return index;
  }
  return -1;
}

/**
 * How many leading messages of a payload must survive an appended turn: everything before the current input and
 * the depth-0 notes right before it (the "old current input's position").
 */
function stablePrefixLength(resolved: ResolvedContext): number {
  let length = resolved.request.messages.length - 1;
  const messages = resolved.request.messages;
  while (length > 0 && /⟦note:/.test(JSON.stringify(messages[length - 1]))) length--;
  return length;
}

interface TurnChange {
  /** A new summary was written between the two turns. */
  summaryChanged: boolean;
  /** Auto speaker labels were off in one build and on in the other. */
  labelsFlipped: boolean;
}

/**
 * Whether the event explains a divergence at the messages made from `at` (the old and the new item there): a stage
 * docs/pipeline.md#invariants names (window slide, new summary, note at depth, media window; and the budget's cuts), or one that
 * moves the prefix by design without being named (findings F3, F7, F8 below).
 */
function explainsDivergence(
  event: TraceEvent,
  at: readonly (ContextItem | undefined)[],
  names: Naming,
  change: TurnChange,
): boolean {
  const key = eventKey(event);
  const namesAt = () =>
    at.some(
      (item) =>
        item !== undefined &&
        (event.itemIds?.includes(item.id) ||
          item.sourceMessageIds.some((messageId) => namesMessage(event, messageId, names))),
    );
  switch (event.stage) {
    case "load":
      return key === "load/fetch-limit";
    case "window":
    case "notes":
    case "budget":
      return true;
    case "summary":
      return change.summaryChanged;
    case "media-budget":
    case "media-resolution":
      return namesAt();
    // Not named among the invariants, but they move earlier bytes by design: F3, F8 and F7 below.
    case "collapse":
      return namesAt();
    case "roles":
      return key === "roles/speaker-labels-on" && change.labelsFlipped;
    case "artifacts":
      return key === "artifacts/pruned-tool-output" && namesAt();
    default:
      return false;
  }
}

/** Consecutive turns of the dialogue: "write as me" (impersonation) is a one-off draft, not a turn. */
function asDialogueTurns(blueprint: ConversationBlueprint): ConversationBlueprint {
  return { ...blueprint, impersonate: false };
}

/**
 * Conditions under which nothing should move: well within budget, no window cap (nor a fetch-limit slide, F4), no
 * note deeper than 0, no media leaving the window, no tool output ageing past its retention (F7); the appended
 * turn's author is the previous input's (F8). Left: the previous input joining its author's run (F3).
 */
function underStableConditions(blueprint: ConversationBlueprint): ConversationBlueprint {
  const settings = structuredClone(blueprint.settings);
  settings.history.messageFetchLimit = 10_000;
  settings.history.maxItems = null;
  settings.media.window = 1_000;
  settings.contextNote.depth = 0;
  // A note of another role moves too, even at depth 0: an assistant note between two user turns changes how a
  // strict model merges them, and a system note on an empty history joins the system block.
  settings.contextNote.role = "user";
  settings.tools.outputRetentionTurns = 0;
  const roomy = (spec: ConversationBlueprint["models"][number]) => ({
    ...spec,
    contextWindow: 1_048_576,
    outputPercent: 1,
  });
  return {
    ...asDialogueTurns(blueprint),
    settings,
    models: [roomy(blueprint.models[0]), roomy(blueprint.models[1])],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The properties

/** Asserts `check` on every generated conversation (PARAMETERS: the seed, the runs). */
function forEveryConversation(check: (conversation: GeneratedConversation) => void) {
  fc.assert(
    fc.property(blueprintArbitrary, (blueprint) => check(materialise(blueprint))),
    PARAMETERS,
  );
}

describe("invariants over random conversations", () => {
  it("deterministic; stored messages untouched; input last and once; one system block; no empty message; tool pairs whole; within budget; media within limits", () => {
    forEveryConversation((conversation) => {
      const { input, primary, fallback, enabledToolNames, currentMarker } = conversation;
      const pristine = structuredClone(input);
      deepFreeze(input);

      const base = build(input, primary);
      expect(isDeepStrictEqual(input, pristine), "a build modified its input").toBe(true);
      const rebuilt = build(structuredClone(pristine), primary);
      expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(base));
      deepFreeze(base);
      const baseJson = JSON.stringify(base);

      for (const model of [primary, fallback]) {
        const outcome = attempt(base, model, enabledToolNames);
        expect(outcomeJson(attempt(rebuilt, model, enabledToolNames))).toBe(outcomeJson(outcome));
        if (outcome instanceof ContextBudgetError) {
          expectJustifiedBudgetError(outcome);
          continue;
        }
        expectValidPayload(outcome, conversation, currentMarker);
      }
      expect(JSON.stringify(base), "phase B modified the phase-A result").toBe(baseJson);
    });
  });

  it("no tool call without its output except the current step's, still running, at the very end", () => {
    forEveryConversation((conversation) => {
      const base = build(conversation.input, conversation.primary);
      // The tool loop's next step: the model's call after the current input, its output not back yet.
      const frontier: ContextItem = {
        id: "frontier",
        role: "assistant",
        tag: "TOOL_CALL",
        parts: [{ type: "tool-call", toolCallId: "call-frontier", toolName: "current_time", input: {} }],
        sourceMessageIds: [],
        tokens: 0,
      };
      const stepped = { ...base, items: [...base.items, frontier] };
      const outcome = attempt(stepped, conversation.primary, conversation.enabledToolNames);
      if (outcome instanceof ContextBudgetError) return;
      const last = outcome.request.messages[outcome.request.messages.length - 1];
      expect(JSON.stringify(last)).toContain("call-frontier");
      expectValidPayload(outcome, conversation, conversation.currentMarker, "call-frontier");
    });
  });

  it("every omission is visible: named in the trace always, and as the seeds' notice in the payload", () => {
    forEveryConversation((conversation) => {
      const base = build(conversation.input, conversation.primary);
      for (const model of [conversation.primary, conversation.fallback]) {
        const outcome = attempt(base, model, conversation.enabledToolNames);
        if (outcome instanceof ContextBudgetError) continue;
        expectOmissionsVisible(conversation.input, base, outcome);
      }
    });
  });

  it("a blind fallback re-resolves the same base into a different, valid payload; the base is unchanged", () => {
    forEveryConversation((conversation) => {
      const vision: ModelDescriptor = {
        ...conversation.primary,
        capabilities: { ...conversation.primary.capabilities, vision: true },
      };
      const blind: ModelDescriptor = {
        ...vision,
        id: "model-blind",
        capabilities: { ...vision.capabilities, vision: false },
      };
      const base = deepFreeze(build(conversation.input, vision));
      const before = JSON.stringify(base);
      const seeing = attempt(base, vision, conversation.enabledToolNames);
      const notSeeing = attempt(base, blind, conversation.enabledToolNames);
      expect(JSON.stringify(base)).toBe(before);
      if (notSeeing instanceof ContextBudgetError) {
        expectJustifiedBudgetError(notSeeing);
        return;
      }
      expectValidPayload(notSeeing, conversation, conversation.currentMarker);
      expectOmissionsVisible(conversation.input, base, notSeeing);
      if (seeing instanceof ContextBudgetError) return;
      const seen = sentItems(seeing).flatMap((item) => item.parts.filter((part) => part.type === "image"));
      if (seen.length === 0) return;
      expect(JSON.stringify(notSeeing.request)).not.toBe(JSON.stringify(seeing.request));
      // Every image the vision model saw is, for the blind one, a notice keeping its handle (or its turn was cut).
      const blindPayload = sentTexts(notSeeing.request).join("\n");
      const names = naming(conversation.input, [base.items, notSeeing.items], notSeeing.trace);
      for (const part of seen) {
        if (part.type !== "image") continue;
        const messageId = [...names.seqOf].find(([, seq]) => `media_${seq}` === part.handle)?.[0] as string;
        const cut = notSeeing.trace.some(
          (event) => MESSAGE_DROPS.has(eventKey(event)) && namesMessage(event, messageId, names),
        );
        if (!cut) expect(blindPayload).toMatch(new RegExp(`${part.handle}(?!\\d)\\) contains`));
      }
    });
  });

  it("prefix stability: under stable conditions, appending a turn leaves every earlier message byte-identical", () => {
    fc.assert(
      fc.property(
        blueprintArbitrary,
        fc.string({ maxLength: 30 }),
        fc.string({ maxLength: 30 }),
        (raw, replyText, nextText) => {
          const blueprint = underStableConditions(raw);
          const before = materialise(blueprint);
          const after = appendTurn(before.stored, { replyText, nextText });
          const oldBase = build(before.input, before.primary);
          const newInput = loadInput(after.stored);
          const newBase = build(newInput, before.primary);
          for (const model of [before.primary, before.fallback]) {
            const old = attempt(oldBase, model, before.enabledToolNames);
            const next = attempt(newBase, model, before.enabledToolNames);
            if (old instanceof ContextBudgetError || next instanceof ContextBudgetError)
              throw new Error("a roomy model overflowed");
            expect(next.request.instructions).toBe(old.request.instructions);
            const at = firstDivergence(old.request.messages, next.request.messages, stablePrefixLength(old));
            if (at === -1) continue;
            // F3 (a named gap, see below): the previous input, now history, joins its author's preceding run.
            const names = naming(newInput, [oldBase.items, newBase.items, old.items, next.items], next.trace);
            const items = [
              messageSources(old, oldBase.settings)[at],
              messageSources(next, newBase.settings)[at],
            ];
            const previousInputCollapsed = next.trace.some(
              (event) =>
                eventKey(event) === "collapse/collapsed" &&
                event.messageIds?.includes(before.input.currentInput.id) &&
                explainsDivergence(event, items, names, { summaryChanged: false, labelsFlipped: false }),
            );
            expect(
              previousInputCollapsed,
              `prefix diverged at message ${at}: ${JSON.stringify(old.request.messages[at])} → ${JSON.stringify(next.request.messages[at])}`,
            ).toBe(true);
          }
        },
      ),
      PARAMETERS,
    );
  });

  it("prefix stability: wherever an appended turn moves the prefix, a stage's trace event says so", () => {
    fc.assert(
      fc.property(
        blueprintArbitrary,
        fc.record({
          replyText: fc.string({ maxLength: 30 }),
          nextText: fc.string({ maxLength: 30 }),
          nextAuthor: fc.option(fc.integer({ min: 0, max: HUMANS.length - 1 })),
          newSummary: fc.option(fc.nat(), { freq: 4 }),
        }),
        (raw, turn) => {
          const blueprint = asDialogueTurns(raw);
          const before = materialise(blueprint);
          const humans = HUMANS.slice(0, blueprint.humanCount);
          const previousAuthor = before.input.currentInput.authorUserId;
          let nextAuthor = turn.nextAuthor === null ? undefined : humans[turn.nextAuthor % humans.length];
          // The route refuses a blocked or muted author's turn.
          if (
            nextAuthor &&
            before.stored.blocks.some(
              (block) => block.userId === nextAuthor?.userId && block.userId !== previousAuthor,
            )
          )
            nextAuthor = undefined;
          const seqs = before.stored.messages.map((message) => message.seq);
          const newSummaryThroughSeq = turn.newSummary === null ? null : seqs[turn.newSummary % seqs.length];
          const after = appendTurn(before.stored, {
            replyText: turn.replyText,
            nextText: turn.nextText,
            nextAuthor: nextAuthor ? { ...nextAuthor } : undefined,
            newSummaryThroughSeq,
          });
          const newInput = loadInput(after.stored);
          const oldBase = build(before.input, before.primary);
          const newBase = build(newInput, before.primary);
          const summaryChanged = newSummaryThroughSeq !== null;
          const stillLoaded = new Set(newInput.messages.map((message) => message.id));
          const coveredNow = new Set(
            after.stored.messages
              .filter((message) => message.summarizedBy !== null)
              .map((message) => message.id),
          );
          const loadSlid = before.input.messages.some(
            (message) => !stillLoaded.has(message.id) && !coveredNow.has(message.id),
          );
          // F4: the loader's fetch window slid (older messages no longer loaded): the load stage says so.
          if (loadSlid && newInput.messages.length > 0)
            expect(newBase.trace.map(eventKey)).toContain("load/fetch-limit");
          for (const model of [before.primary, before.fallback]) {
            const old = attempt(oldBase, model, before.enabledToolNames);
            const next = attempt(newBase, model, before.enabledToolNames);
            if (old instanceof ContextBudgetError || next instanceof ContextBudgetError) continue;
            const at = firstDivergence(old.request.messages, next.request.messages, stablePrefixLength(old));
            if (at === -1) continue;
            const bothInputs = {
              ...newInput,
              messages: [...before.input.messages, ...newInput.messages],
              artifacts: [...before.input.artifacts, ...newInput.artifacts],
            };
            const names = naming(
              bothInputs,
              [oldBase.items, newBase.items, old.items, next.items],
              [...old.trace, ...next.trace],
            );
            const items = [
              messageSources(old, oldBase.settings)[at],
              messageSources(next, newBase.settings)[at],
            ];
            const labelsOn = (trace: readonly TraceEvent[]) =>
              trace.some((event) => eventKey(event) === "roles/speaker-labels-on");
            const change = { summaryChanged, labelsFlipped: labelsOn(old.trace) !== labelsOn(next.trace) };
            const explanation = [...old.trace, ...next.trace].find((event) =>
              explainsDivergence(event, items, names, change),
            );
            expect(
              explanation,
              `prefix diverged at message ${at} with no stage saying why: ${JSON.stringify(old.request.messages[at])} → ${JSON.stringify(next.request.messages[at])}`,
            ).toBeDefined();
          }
        },
      ),
      PARAMETERS,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Findings: the properties' failures, shrunk to minimal scenarios. A fixed bug's test asserts the fixed behaviour
// (it pinned the wrong one while the bug was open).
// A "named gap" is behaviour that is deliberate but moves the payload prefix without being one of the stages
// the invariants name (window slide, new summary, note at depth, media window); its test pins that the trace says so.

/** The scenarios' model: the shared test model on o200k, named so the findings' traces read clearly. */
function scenarioModel(
  overrides: Partial<Omit<ModelDescriptor, "capabilities">> = {},
  capabilities: Partial<ModelDescriptor["capabilities"]> = {},
): ModelDescriptor {
  return modelDescriptor(
    { id: "scenario-model", providerModelName: "gpt-4.1-mini", tokenizer: "o200k_base", ...overrides },
    capabilities,
  );
}

function cachedCounts(text: string): StoredMessage["tokenCounts"] {
  return {
    o200k_base: countTextTokens(text, "o200k_base"),
    cl100k_base: countTextTokens(text, "cl100k_base"),
    estimate: countTextTokens(text, "estimate"),
  };
}

function recount(resolved: ResolvedContext): number {
  let total = 0;
  for (const item of resolved.items) total += countItemTokens(item, resolved.model.tokenizer);
  return total;
}

function resolveScenario(input: BuildInput, model = scenarioModel()): ResolvedContext {
  return resolveForModel(buildContext(input, { tokenizer: model.tokenizer }), model);
}

describe("findings: counts and empty messages", () => {
  it("F1 (fixed): a fallback with another tokenizer recounts phase A's counts of the primary's, and fits", () => {
    // The persona's model is a Gemini ("estimate"); phase A fills item counts from the messages' cached estimate
    // counts and records that tokenizer; the OpenAI fallback (o200k) re-resolves the same base, and the budget
    // counts for o200k instead. 300 characters of non-Latin script are 113 tokens by the estimate and 750 by o200k.
    const script = "𝂌ဢ".repeat(150);
    const current = userMessage(3, "and?", { tokenCounts: cachedCounts("and?") });
    const input = buildInput({
      messages: [
        userMessage(1, script, { tokenCounts: cachedCounts(script) }),
        personaMessage(2, "ok", { tokenCounts: cachedCounts("ok") }),
        current,
      ],
      currentInput: current,
      settings: { budget: { reservedOutputTokens: 0, safetyMarginPercent: 0 } },
    });
    const base = buildContext(input, { tokenizer: "estimate" });
    expect(base.tokenizer).toBe("estimate");
    const fallback = scenarioModel({ id: "gpt-fallback", tokenizer: "o200k_base", contextWindow: 200 });
    const resolved = resolveForModel(base, fallback);
    expect(resolved.budget.usableTokens).toBe(200);
    expect(resolved.trace.map(eventKey)).toContain("budget/dropped-oldest-turns");
    expect(recount(resolved)).toBeLessThanOrEqual(resolved.budget.usableTokens);
    expect(resolved.budget.totalTokens).toBe(recount(resolved));
    // The same as counting for the fallback's own tokenizer in phase A.
    const own = resolveScenario(input, fallback);
    expect(own.request).toEqual(resolved.request);
    // The primary keeps its cached counts (no recount): it sees everything fit.
    const primary = resolveForModel(
      base,
      scenarioModel({ id: "gemini", tokenizer: "estimate", contextWindow: 200 }),
    );
    expect(primary.trace.map(eventKey)).toEqual(["current-input/moved-current-input"]);
  });

  it("F2 (fixed): a blank stored message is not sent, not even as a bare speaker label", () => {
    // A whitespace-only message (Bob's, or an assistant reply that streamed only a newline before failing) in a
    // room: blank text counts as no text, so the item is left empty and dropped, and the trace says so.
    const current = userMessage(4, "what now?");
    const resolved = resolveScenario(
      buildInput({
        messages: [
          userMessage(1, "hi"),
          userMessage(2, " ", { author: BOB }),
          personaMessage(3, "hello"),
          current,
        ],
        currentInput: current,
      }),
    );
    expect(resolved.request.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Ada: hi" }] },
      { role: "assistant", content: [{ type: "text", text: "Aria: hello" }] },
      { role: "user", content: [{ type: "text", text: "Ada: what now?" }] },
    ]);
    expect(resolved.trace.map(eventKey)).toEqual([
      "current-input/moved-current-input",
      "roles/speaker-labels-on",
      "artifacts/dropped-empty",
    ]);
    expect(resolved.trace[2]).toMatchObject({ itemIds: ["msg:m2"] });
  });
});

describe("findings: the prefix moves", () => {
  it("F3 (named gap): the previous input joins its author's run once it is history, rewriting the message before it", () => {
    // Ada wrote twice in a row (the reply to "two" failed). Her newest message is the current input, kept apart;
    // one turn later it is history, pure text by the same author, and collapses into "two".
    const history = [userMessage(1, "one"), personaMessage(2, "reply"), userMessage(3, "two")];
    const firstInput = userMessage(4, "three");
    const before = resolveScenario(
      buildInput({ messages: [...history, firstInput], currentInput: firstInput }),
    );
    const nextInput = userMessage(6, "four");
    const after = resolveScenario(
      buildInput({
        messages: [...history, firstInput, personaMessage(5, "answer"), nextInput],
        currentInput: nextInput,
      }),
    );
    expect(before.request.messages.map((message) => JSON.stringify(message.content))).toEqual([
      '[{"type":"text","text":"one"}]',
      '[{"type":"text","text":"reply"}]',
      '[{"type":"text","text":"two"}]',
      '[{"type":"text","text":"three"}]',
    ]);
    expect(firstDivergence(before.request.messages, after.request.messages, 3)).toBe(2);
    expect(after.request.messages[2]).toEqual({
      role: "user",
      content: [{ type: "text", text: "two\nthree" }],
    });
    // The trace says so: the run that took in the previous input.
    expect(after.trace).toContainEqual(
      expect.objectContaining({
        stage: "collapse",
        action: "collapsed",
        itemIds: ["msg:m3"],
        messageIds: ["m3", "m4"],
      }),
    );
  });

  it("F4 (fixed): the loader's fetch-limit slide moves the prefix, and a load trace event says so", () => {
    const settings = { history: { messageFetchLimit: 5 } };
    const stored = [
      ...alternatingMessages(4),
      userMessage(5, "u5"),
      personaMessage(6, "a6"),
      userMessage(7, "u7"),
    ];
    // Turn 1 loads m1–m5 (m5 the input); turn 2 loads the newest five, m3–m7, and the loader says m1–m2 were not.
    const before = resolveScenario(
      buildInput({ messages: stored.slice(0, 5), currentInput: stored[4], settings }),
    );
    const after = resolveScenario({
      ...buildInput({ messages: stored.slice(2), currentInput: stored[6], settings }),
      loadedWindow: { omittedBeforeSeq: 3, omittedCount: 2 },
    });
    expect(firstDivergence(before.request.messages, after.request.messages, 4)).toBe(0);
    expect(after.trace.map(eventKey)).toEqual(["load/fetch-limit", "current-input/moved-current-input"]);
    expect(after.trace[0]).toEqual({
      stage: "load",
      action: "fetch-limit",
      reason: "2 older messages not loaded (history.messageFetchLimit 5)",
      counts: { omitted: 2, messageFetchLimit: 5 },
      details: { omittedBeforeSeq: 3 },
    });
    expect(before.trace.map(eventKey)).not.toContain("load/fetch-limit");
  });

  it("F7 (named gap): a tool output ageing past tools.outputRetentionTurns is pruned, rewriting an earlier message", () => {
    const settings = { tools: { outputRetentionTurns: 2 } };
    const output = "sunny and warm ".repeat(80);
    const artifacts = [
      functionCallArtifact("c2", "m2", "call-2", "weather", { city: "Porto" }),
      functionOutputArtifact("o2", "m2", "call-2", output),
    ];
    const history = [userMessage(1, "weather?"), personaMessage(2, "checking", { artifacts: ["c2", "o2"] })];
    const firstInput = userMessage(3, "and tomorrow?");
    const before = resolveScenario(
      buildInput({ messages: [...history, firstInput], currentInput: firstInput, artifacts, settings }),
    );
    const nextInput = userMessage(5, "thanks");
    const after = resolveScenario(
      buildInput({
        messages: [...history, firstInput, personaMessage(4, "rain"), nextInput],
        currentInput: nextInput,
        artifacts,
        settings,
      }),
    );
    const at = firstDivergence(
      before.request.messages,
      after.request.messages,
      before.request.messages.length - 1,
    );
    expect(before.request.messages[at]?.role).toBe("tool");
    expect(JSON.stringify(after.request.messages[at])).toContain(
      "[tool output pruned: removed 816 chars, older than 2 turns]",
    );
    expect(after.trace).toContainEqual(
      expect.objectContaining({ stage: "artifacts", action: "pruned-tool-output", itemIds: ["artifact:o2"] }),
    );
  });

  it("F8 (named gap): auto speaker labels turn on when a second human first speaks, rewriting every earlier message", () => {
    const history = [userMessage(1, "hi"), personaMessage(2, "hello")];
    const firstInput = userMessage(3, "how are you?");
    const before = resolveScenario(
      buildInput({ messages: [...history, firstInput], currentInput: firstInput }),
    );
    const nextInput = userMessage(5, "hi all", { author: BOB });
    const after = resolveScenario(
      buildInput({
        messages: [...history, firstInput, personaMessage(4, "fine"), nextInput],
        currentInput: nextInput,
      }),
    );
    expect(firstDivergence(before.request.messages, after.request.messages, 2)).toBe(0);
    expect(after.request.messages[0]).toEqual({ role: "user", content: [{ type: "text", text: "Ada: hi" }] });
    expect(after.trace.map(eventKey)).toContain("roles/speaker-labels-on");
    // A room that lists its members from the start has its labels on from the start: nothing moves.
    const participants = [
      { userId: ADA.userId, name: ADA.name },
      { userId: BOB.userId, name: BOB.name },
    ];
    const roomBefore = resolveScenario(
      buildInput({ messages: [...history, firstInput], currentInput: firstInput, participants }),
    );
    const roomAfter = resolveScenario(
      buildInput({
        messages: [...history, firstInput, personaMessage(4, "fine"), nextInput],
        currentInput: nextInput,
        participants,
      }),
    );
    expect(firstDivergence(roomBefore.request.messages, roomAfter.request.messages, 2)).toBe(-1);
  });
});

describe("findings: omissions", () => {
  it("F5 (fixed): the history window keeps an assistant turn's omitted-images notice with the turn it belongs to", () => {
    // imageMessageLimit 0: Aria's image is omitted, and the notice goes into a user item just before her turn.
    // maxItems 2 would keep [Aria's turn, "wow"] (a user and an assistant: no widening); the window moves its start
    // back onto the notice, so the turn is sent with it.
    const current = userMessage(4, "nice");
    const input = buildInput({
      messages: [
        userMessage(1, "hi"),
        personaMessage(2, "look", { media: ["i2"] }),
        userMessage(3, "wow"),
        current,
      ],
      currentInput: current,
      attachments: [imageAttachment("i2", "m2")],
      settings: { media: { imageMessageLimit: 0 }, history: { maxItems: 2 } },
    });
    const base = buildContext(input);
    expect(base.trace.find((event) => event.action === "windowed")?.details).toEqual({
      firstDroppedItemId: "msg:m1",
      lastDroppedItemId: "msg:m1",
    });
    const resolved = resolveForModel(base, scenarioModel());
    expect(resolved.items.filter((item) => item.role !== "system").map((item) => item.id)).toEqual([
      "msg:m2:media-notice",
      "msg:m2",
      "msg:m3",
      "msg:m4",
    ]);
    expect(sentTexts(resolved.request).join("\n")).toContain(omittedImagesNotice(1));
  });

  it("F6 (fixed): a sticker takes no per-request image slot, and the real photo is sent", () => {
    // Emoji and stickers are not counted against image budgets: phase A's imageMessageLimit, and phase B's
    // media.maxImagesPerRequest (the descriptor says whether the image is counted).
    const current = userMessage(3, "haha", { media: ["sticker"] });
    const resolved = resolveScenario(
      buildInput({
        messages: [userMessage(1, "my cat", { media: ["photo"] }), personaMessage(2, "cute"), current],
        currentInput: current,
        attachments: [imageAttachment("photo", "m1"), imageAttachment("sticker", "m3", { isSticker: true })],
        settings: { media: { maxImagesPerRequest: 1 } },
      }),
    );
    const images = resolved.items.flatMap((item) =>
      item.parts.flatMap((part) => (part.type === "image" ? [part.attachmentId] : [])),
    );
    expect(images).toEqual(["photo", "sticker"]);
    expect(sentTexts(resolved.request).join("\n")).not.toContain("per-request image limit");
    expect(resolved.trace.map(eventKey)).not.toContain("media-resolution/omitted-images-request-limit");
  });
});

describe("findings: the budget", () => {
  it("F9 (fixed): a strict model's conversation-start turn is never dropped by the budget, and the request fits", () => {
    // A strict-alternation model and an assistant-role note at the top: normalisation puts "[System: Conversation
    // start]" before the note. One token over: the budget keeps that turn (it is pinned) and drops the oldest
    // dialogue turn instead, so realignment has nothing to put back and the request is within the usable budget.
    const gemma = (contextWindow: number) =>
      scenarioModel(
        {
          id: "gemma",
          provider: "openai-compatible",
          contextWindow,
          maxOutputTokens: 1_000,
          tokenizer: "estimate",
        },
        { vision: false, strictAlternation: true },
      );
    const current = userMessage(3, "and now?");
    const input = buildInput({
      messages: [userMessage(1, "hello there"), personaMessage(2, "hi"), current],
      currentInput: current,
      personaNote: "Be brief.",
      settings: {
        contextNote: { depth: 1_000, role: "assistant" },
        budget: { reservedOutputTokens: 0, safetyMarginPercent: 0 },
      },
    });
    const base = buildContext(input);
    const fits = resolveForModel(base, gemma(100_000)).budget.totalTokens;
    const tight = resolveForModel(base, gemma(fits - 1));
    expect(tight.items.map((item) => item.id)).toEqual([
      "system:SYSTEM_PROMPT",
      "conversation-start",
      "note:persona",
      "msg:m3",
    ]);
    expect(tight.trace.slice(-2).map((event) => `${eventKey(event)} ${event.itemIds?.join(",")}`)).toEqual([
      "normalise/inserted-conversation-start note:persona",
      "budget/dropped-oldest-turns msg:m1,msg:m2",
    ]);
    expect(tight.budget.usableTokens).toBe(fits - 1);
    expect(tight.budget.totalTokens).toBeLessThanOrEqual(fits - 1);
    // Too tight for the pinned items (the conversation-start turn among them): an error, never an over-budget send.
    const pinnedOnly = tight.budget.totalTokens;
    expect(() => resolveForModel(base, gemma(pinnedOnly - 1))).toThrow(ContextBudgetError);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Settings and pipeline rules no other test in lib/context covered

describe("settings and pipeline rules without another test in lib/context", () => {
  it("settings: resolution is per key: conversation override, then persona override, then the global default", () => {
    const global = defaultSettings();
    const persona: SettingsOverride = {
      history: { maxItems: 40, speakerLabels: "always" },
      media: { window: 5 },
    };
    const conversation: SettingsOverride = {
      history: { maxItems: 12 },
      keyContextReminder: "Ada is in Lisbon.",
    };
    const resolved = resolveSettings(global, conversation, persona);
    expect(resolved.history).toEqual({ messageFetchLimit: 80, maxItems: 12, speakerLabels: "always" });
    expect(resolved.media).toEqual({ ...global.media, window: 5 });
    expect(resolved.keyContextReminder).toBe("Ada is in Lisbon.");
    // Keys set to undefined do not count as set; no layer is modified.
    expect(resolveSettings(global, { history: { maxItems: undefined } }, persona).history.maxItems).toBe(40);
    expect(global).toEqual(defaultSettings());
    expect(persona).toEqual({ history: { maxItems: 40, speakerLabels: "always" }, media: { window: 5 } });
  });

  it.each([
    {
      override: { history: { maxItems: 1 } },
      message: "history.maxItems must be a whole number from 2 to 10000",
    },
    { override: { media: { window: 1_001 } }, message: "media.window must be a whole number from 0 to 1000" },
    {
      override: { budget: { safetyMarginPercent: 50.5 } },
      message: "budget.safetyMarginPercent must be a whole number from 0 to 50",
    },
    {
      override: { history: { speakerLabels: "sometimes" } },
      message: "history.speakerLabels must be one of: auto, always, never",
    },
    {
      override: { stop: { strings: Array(41).fill("x") } },
      message: "stop.strings must have at most 40 entries",
    },
    {
      override: { stop: { strings: ["x".repeat(201)] } },
      message: "stop.strings[] must be at most 200 characters",
    },
    { override: { stop: { strings: [""] } }, message: "stop.strings[] must not be empty" },
    {
      override: { contextNote: { text: "x".repeat(4_001) } },
      message: "contextNote.text must be at most 4000 characters",
    },
    {
      override: { keyContextReminder: "x".repeat(2_001) },
      message: "keyContextReminder must be at most 2000 characters",
    },
  ])(
    "settings: an out-of-range value is refused with a message naming the key and its range: $message",
    ({ override, message }) => {
      const result = settingsOverrideSchema.safeParse(override);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([message]);
    },
  );

  it("settings: an explicit budget.reservedOutputTokens is used as it is; only the default is capped at 4 096", () => {
    const model = scenarioModel({ contextWindow: 100_000, maxOutputTokens: 16_384 });
    const current = userMessage(1, "hi");
    const explicit = resolveScenario(
      buildInput({ currentInput: current, settings: { budget: { reservedOutputTokens: 6_000 } } }),
      model,
    );
    expect(explicit.budget).toMatchObject({
      reservedOutputTokens: 6_000,
      usableTokens: Math.floor(94_000 * 0.8),
    });
    expect(explicit.request.maxOutputTokens).toBe(6_000);
    const byDefault = resolveScenario(buildInput({ currentInput: current }), model);
    expect(byDefault.budget.reservedOutputTokens).toBe(4_096);
  });

  it("settings: auto speaker labels count a blocked human: their turns are hidden, the conversation is still a room", () => {
    const current = userMessage(3, "anyone?");
    const resolved = resolveScenario(
      buildInput({
        messages: [userMessage(1, "spam", { author: MALLORY }), personaMessage(2, "hello"), current],
        currentInput: current,
        blocks: [blockRecord()],
      }),
    );
    expect(resolved.request.messages.map((message) => JSON.stringify(message.content))).toEqual([
      '[{"type":"text","text":"[System: 1 message from Mallory hidden here: Mallory is blocked from Aria.]"}]',
      '[{"type":"text","text":"Aria: hello"}]',
      '[{"type":"text","text":"Ada: anyone?"}]',
    ]);
  });

  it("the pipeline is framework-free and deterministic: no Next.js, database, clock, randomness or environment", () => {
    // The pipeline and the vocabulary it is written in (lib/domain), which imports nothing of ours.
    const directory = path.dirname(fileURLToPath(import.meta.url));
    const domainDirectory = path.join(directory, "..", "domain");
    const sourcesIn = (folder: string) =>
      readdirSync(folder)
        .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
        .map((name) => path.join(folder, name));
    const sources = [...sourcesIn(directory), ...sourcesIn(domainDirectory)];
    expect(sources).toContain(path.join(directory, "build-context.ts"));
    expect(sources).toContain(path.join(domainDirectory, "types.ts"));
    // node:module: tokens.ts loads each tokenizer's tables the first time it is used (createRequire).
    const allowedPackages = [
      "ai",
      "zod",
      "node:module",
      "gpt-tokenizer/encoding/o200k_base",
      "gpt-tokenizer/encoding/cl100k_base",
    ];
    const problems: string[] = [];
    for (const file of sources) {
      const source = readFileSync(file, "utf8");
      const name = path.relative(path.join(directory, ".."), file);
      // Static imports, type imports and the lazy requires alike.
      for (const match of source.matchAll(/(?:\bfrom\s+|\bimport\(|[rR]equire\w*\()"([^"]+)"/g)) {
        const [, specifier = ""] = match;
        const ours = specifier.startsWith("./") || specifier.startsWith("@/lib/domain/");
        if (!ours && !allowedPackages.includes(specifier)) problems.push(`${name} imports ${specifier}`);
      }
      for (const forbidden of ["Date.now(", "new Date()", "Math.random(", "performance.now(", "process.env"])
        if (source.includes(forbidden)) problems.push(`${name} uses ${forbidden}`);
    }
    expect(problems).toEqual([]);
  });
});
