// Phase A's artifact replay (docs/pipeline.md#artifact-replay). Each assistant message's stored artifacts
// come back in the order they happened, between the pieces of its text: reasoning, tool calls and tool outputs.
// Types that are never replayed (web search, image generation, file search, shell, …: anything but function
// calls, outputs and reasoning) are dropped; a call without its output (or an output without its call) within the
// message is dropped; an old, long tool output is pruned to head + note + tail; reasoning follows
// `reasoning.persist`. A missing artifact is a trace warning, never an error: the text still replays. Items left
// with no parts at all are dropped here. Every item of the message is marked with its tool-loop step, so that
// serialise sends each step as the loop sent it: one assistant message (with a provider-run tool's call and result
// inside it) and one tool message with the step's own outputs.

import type { ResolvedSettings } from "@/lib/domain/settings";
import type { ContextItem, ItemPart, ItemRole, StoredMessage, TokenizerName } from "@/lib/domain/types";
import {
  appendTo,
  dropUnpairedToolArtifacts,
  type ReplayContext,
  readArtifactParts,
  reportArtifacts,
  toPart,
} from "./artifact-reading";
import { hasArtifactParts, hasText, ownMessageId, textSegments } from "./messages";
import {
  type ArtifactLookup,
  type HistoryItems,
  NO_MESSAGES,
  type PhaseAContext,
  type SourcedItems,
} from "./phases";
import type { Stage, StageResult } from "./stage";
import type { Replayable } from "./stored-artifacts";
import { TOKENS_PER_MESSAGE } from "./tokens";
import { plural, traceEvent } from "./trace";

/**
 * Turn index of each item, counted by dialogue turns: a user item starts a new turn unless the
 * previous dialogue item was also a user's (consecutive user messages share a turn); an assistant item before any
 * user is turn 0; tool items inherit the current turn. `totalTurns` includes the current input's turn when it
 * follows (`currentInputFollows`: the current input is a user message, so it opens a turn unless the last item
 * was a user's).
 */
export function computeTurnIndices(
  roles: readonly ItemRole[],
  currentInputFollows = true,
): { turns: number[]; totalTurns: number } {
  const turns: number[] = new Array(roles.length);
  let turn = -1;
  let previousDialogueRole: ItemRole | null = null;
  for (let i = 0; i < roles.length; i++) {
    const role = roles[i];
    if (role === "user") {
      if (previousDialogueRole !== "user") turn++;
      previousDialogueRole = "user";
    } else if (role === "assistant") {
      previousDialogueRole = "assistant";
    }
    turns[i] = Math.max(turn, 0);
  }
  let totalTurns = turn + 1;
  if (roles.length > 0 && turn === -1) totalTurns = 1; // only assistant items: all turn 0
  if (currentInputFollows && previousDialogueRole !== "user") totalTurns++;
  return { turns, totalTurns };
}

const TAG_OF = { call: "TOOL_CALL", output: "TOOL_RESULT", reasoning: "REASONING" } as const;
const ROLE_OF = { call: "assistant", output: "tool", reasoning: "assistant" } as const;

/** The item group an artifact joins: a provider-run tool's result stays with the calls, in the assistant's turn. */
type GroupKind = "call" | "output" | "reasoning";

function groupKindOf(replayable: Replayable): GroupKind {
  return replayable.kind === "output" && replayable.providerExecuted === true ? "call" : replayable.kind;
}

/** An output of the app's tool loop (not the provider's own result): the model's step ends before it. */
function isClientOutput(replayable: Replayable): boolean {
  return replayable.kind === "output" && replayable.providerExecuted !== true;
}

/** A text piece of a split assistant message after the first: "msg:<id>:text:<k>". */
function textPieceItem(
  item: ContextItem,
  part: ItemPart,
  piece: number,
  segmentTokens: readonly number[] | undefined,
): ContextItem {
  const pieceTokens = segmentTokens?.[piece];
  const piecesItem: ContextItem = {
    id: `${item.id}:text:${piece}`,
    role: item.role,
    tag: item.tag,
    parts: [part],
    sourceMessageIds: item.sourceMessageIds,
    tokens: pieceTokens === undefined ? 0 : TOKENS_PER_MESSAGE + pieceTokens,
  };
  if (item.sender !== undefined) piecesItem.sender = item.sender;
  return piecesItem;
}

/** The message's own item: its media and first text piece (plus any text the media stage added). */
function mainItem(
  item: ContextItem,
  mediaParts: readonly ItemPart[],
  firstText: ItemPart | undefined,
  segmentTokens: readonly number[] | undefined,
): ContextItem | null {
  let parts: ItemPart[];
  if (mediaParts.length === 0) parts = firstText === undefined ? [] : [firstText];
  else {
    parts = mediaParts.slice();
    if (firstText !== undefined) parts.push(firstText);
  }
  if (parts.length === 0) return null;
  // The message's count (role mapping: framing, label, every segment) less the other pieces' segments.
  let tokens = 0;
  if (item.tokens > 0 && mediaParts.length === 0 && firstText !== undefined && segmentTokens !== undefined) {
    tokens = item.tokens;
    for (let piece = 1; piece < segmentTokens.length; piece++) tokens -= segmentTokens[piece] ?? 0;
  }
  return { ...item, parts, tokens };
}

const NO_PARTS: readonly ItemPart[] = [];

/**
 * Expand one assistant message item into its text pieces and artifact items, in part order: its artifacts are
 * read (problems reported), calls and outputs that do not pair up within the message are dropped, and the rest is
 * laid out between the text pieces. Bookkeeping for problems is only allocated when there is a problem: this runs
 * for every assistant message with artifacts.
 */
function expandMessage(
  item: ContextItem,
  message: StoredMessage,
  isOld: boolean,
  context: ReplayContext,
  out: ContextItem[],
): void {
  const byPart = readArtifactParts(item, message, context);
  const callNames = dropUnpairedToolArtifacts(byPart, item, message, context);
  layOutMessage({ item, message, byPart, callNames, isOld }, context, out);
}

/** One assistant message to lay out: its item, and its artifacts as read and paired. */
interface MessageToLayOut {
  item: ContextItem;
  message: StoredMessage;
  /** The replayable behind each artifact part, in part order; null: not replayed. */
  byPart: readonly (Replayable | null)[];
  callNames: ReadonlyMap<string, string>;
  /** Older than `tools.outputRetentionTurns`: long tool outputs are pruned. */
  isOld: boolean;
}

/**
 * Walk the message's layout: text pieces come from the item (label and media already applied), artifacts in
 * between; consecutive artifacts of one kind share an item (parallel calls, their outputs). The layout
 * (messageLayout in messages.ts) is walked over the message's parts without building it: a text piece is a run
 * of text parts between artifacts, and counts when it is not blank (hasText).
 */
function layOutMessage(layout: MessageToLayOut, context: ReplayContext, out: ContextItem[]): void {
  const walk = startLayoutWalk(layout, context, out);
  let pieceHasText = false;
  let artifactIndex = 0;
  for (const part of layout.message.parts) {
    if (part.type === "media") continue;
    if (part.type === "text") {
      if (!pieceHasText && hasText(part.text)) pieceHasText = true;
      continue;
    }
    // An artifact part: the text piece before it, if any.
    if (pieceHasText) emitTextPiece(walk);
    pieceHasText = false;
    const replayable = layout.byPart[artifactIndex++];
    if (replayable !== null && replayable !== undefined) emitArtifact(walk, replayable, layout, context);
  }
  if (pieceHasText) emitTextPiece(walk);
  finishLayoutWalk(walk, context);
}

/** Where the layout walk of one message stands: which of the item's text parts are out, the open artifact group. */
interface LayoutWalk {
  readonly item: ContextItem;
  readonly message: StoredMessage;
  /** The item's text parts, one per text piece (plus any text the media stage added). */
  readonly textParts: readonly ItemPart[];
  readonly mediaParts: readonly ItemPart[];
  readonly segmentTokens: readonly number[] | undefined;
  readonly out: ContextItem[];
  nextText: number;
  /** The message's own item (media and first text piece) is out. */
  mainEmitted: boolean;
  /** The item the next artifact of the same kind joins; a text piece closes it. */
  group: ContextItem | null;
  groupKind: GroupKind | null;
  skippedReasoning: string[] | null;
  /** The tool-loop step of what is laid out now (counted from 0 within the message). */
  step: number;
  /** The last thing laid out was an output of the app's tools: what the model says next is the next step. */
  afterClientOutput: boolean;
  /** The stored step of the last artifact laid out, when it had one. */
  storedStep: number | undefined;
}

function startLayoutWalk(layout: MessageToLayOut, context: ReplayContext, out: ContextItem[]): LayoutWalk {
  const { textParts, mediaParts } = splitItemParts(layout.item);
  return {
    item: layout.item,
    message: layout.message,
    textParts,
    mediaParts,
    segmentTokens: cachedSegmentTokens(layout.message, context.tokenizer),
    out,
    nextText: 0,
    mainEmitted: false,
    group: null,
    groupKind: null,
    skippedReasoning: null,
    step: 0,
    afterClientOutput: false,
    storedStep: undefined,
  };
}

/**
 * Moves the walk to the step of what comes next. An artifact stored with its step says it; otherwise (text, older
 * rows) the model's next words after the tool loop's outputs open the next step, since the loop runs the app's
 * tools once the model's call has ended.
 */
function advanceStep(walk: LayoutWalk, next: Replayable | null): void {
  const stored = next?.step !== undefined && walk.storedStep !== undefined;
  const opensStep = stored
    ? next?.step !== walk.storedStep
    : walk.afterClientOutput && (next === null || !isClientOutput(next));
  if (opensStep) {
    walk.step++;
    walk.group = null;
    walk.groupKind = null;
  }
  if (next === null) {
    walk.afterClientOutput = false;
    // Text opened a step the stored steps do not name: the next stored step starts from there.
    if (opensStep) walk.storedStep = undefined;
    return;
  }
  walk.afterClientOutput = isClientOutput(next);
  if (next.step !== undefined) walk.storedStep = next.step;
}

/** An item of the message goes out, marked with the step it belongs to. */
function pushStepItem(walk: LayoutWalk, item: ContextItem): void {
  item.step = `${walk.message.id}:step:${walk.step}`;
  walk.out.push(item);
}

/** The message's own item, once: its media and the next text part (none when an artifact comes first). */
function emitMainItem(walk: LayoutWalk, withText: boolean): void {
  walk.mainEmitted = true;
  const firstText = withText ? walk.textParts[walk.nextText++] : undefined;
  const main = mainItem(walk.item, walk.mediaParts, firstText, walk.segmentTokens);
  if (main !== null) pushStepItem(walk, main);
}

/** A text piece ends (an artifact or the end follows): the main item first, then one item per piece. */
function emitTextPiece(walk: LayoutWalk): void {
  advanceStep(walk, null);
  walk.group = null;
  walk.groupKind = null;
  if (!walk.mainEmitted) {
    emitMainItem(walk, true);
    return;
  }
  const part = walk.textParts[walk.nextText];
  if (part !== undefined)
    pushStepItem(walk, textPieceItem(walk.item, part, walk.nextText++, walk.segmentTokens));
}

/** One replayable artifact: skipped (reasoning not persisted), added to the open group, or opening a new one. */
function emitArtifact(
  walk: LayoutWalk,
  replayable: Replayable,
  layout: MessageToLayOut,
  context: ReplayContext,
): void {
  if (replayable.kind === "reasoning" && context.settings.reasoning.persist === "disabled") {
    walk.skippedReasoning = appendTo(walk.skippedReasoning, replayable.artifact.id);
    return;
  }
  advanceStep(walk, replayable);
  // Media before the first text keeps its place ahead of the artifacts.
  if (!walk.mainEmitted && walk.mediaParts.length > 0) emitMainItem(walk, false);
  const replayed = toPart(replayable, layout.callNames, layout.isOld, walk.item, context);
  if (replayable.kind === "reasoning") context.replayedReasoningIds.push(replayable.artifact.id);
  const group = walk.group;
  const kind = groupKindOf(replayable);
  if (group !== null && walk.groupKind === kind) {
    group.parts.push(replayed.part);
    // A group is counted only when every part is (0: the budget counts it).
    group.tokens = group.tokens > 0 && replayed.tokens !== null ? group.tokens + replayed.tokens : 0;
    return;
  }
  walk.group = artifactItem(walk.item, replayable, replayed);
  walk.groupKind = kind;
  pushStepItem(walk, walk.group);
}

/** After the last part: the main item if nothing emitted it, the text the stage before added, the skip report. */
function finishLayoutWalk(walk: LayoutWalk, context: ReplayContext): void {
  if (!walk.mainEmitted) emitMainItem(walk, true);
  for (let part = walk.textParts[walk.nextText]; part !== undefined; part = walk.textParts[walk.nextText]) {
    pushStepItem(walk, textPieceItem(walk.item, part, walk.nextText++, walk.segmentTokens));
  }
  if (walk.skippedReasoning !== null) {
    reportArtifacts(
      context,
      walk.item,
      walk.message.id,
      "skipped-reasoning",
      `${plural(walk.skippedReasoning.length, "reasoning artifact")} not replayed (reasoning.persist = disabled)`,
      walk.skippedReasoning,
      false,
    );
  }
}

/** The item's text parts (one per text piece) and its media parts. */
function splitItemParts(item: ContextItem): {
  textParts: readonly ItemPart[];
  mediaParts: readonly ItemPart[];
} {
  // Usually the item is all text (an assistant turn without media): its parts are the text parts as they are.
  if (!item.parts.some((part) => part.type !== "text"))
    return { textParts: item.parts, mediaParts: NO_PARTS };
  return {
    textParts: item.parts.filter((part) => part.type === "text"),
    mediaParts: item.parts.filter((part) => part.type !== "text"),
  };
}

/** The message's cached segment counts, when they match its segments (a count per piece of text). */
function cachedSegmentTokens(
  message: StoredMessage,
  tokenizer: TokenizerName | null,
): readonly number[] | undefined {
  if (tokenizer === null) return undefined;
  const cached = message.segmentTokenCounts?.[tokenizer];
  return cached !== undefined && cached.length === textSegments(message).length ? cached : undefined;
}

/** The item that starts a group of consecutive artifacts of one kind: "artifact:<first artifact's id>". */
function artifactItem(
  item: ContextItem,
  replayable: Replayable,
  replayed: { part: ItemPart; tokens: number | null },
): ContextItem {
  const kind = groupKindOf(replayable);
  const group: ContextItem = {
    id: `artifact:${replayable.artifact.id}`,
    role: ROLE_OF[kind],
    tag: TAG_OF[replayable.kind],
    parts: [replayed.part],
    sourceMessageIds: item.sourceMessageIds,
    tokens: replayed.tokens === null ? 0 : TOKENS_PER_MESSAGE + replayed.tokens,
  };
  if (item.sender !== undefined) group.sender = item.sender;
  return group;
}

/** The item's own stored message: from the caller's `sources` when given, else looked up by id. */
function sourceOf(
  item: ContextItem,
  index: number,
  sources: readonly (StoredMessage | null)[] | undefined,
  messagesById: ReadonlyMap<string, StoredMessage>,
): StoredMessage | undefined {
  if (sources !== undefined) return sources[index] ?? undefined;
  const messageId = ownMessageId(item);
  return messageId === null ? undefined : messagesById.get(messageId);
}

export function replayArtifacts(args: {
  items: readonly ContextItem[];
  messagesById: ReadonlyMap<string, StoredMessage>;
  artifactsById: ArtifactLookup;
  settings: ResolvedSettings;
  /** Which cached counts (artifacts', split messages' segments) fill `item.tokens`; null or absent: none. */
  tokenizer?: TokenizerName | null;
  /** The current input (a user turn) follows these items; it counts as the newest turn. Default true. */
  currentInputFollows?: boolean;
  /** Optional: each item's source message (null for notices and collapsed runs), parallel to `items`, as
   *  `messagesById` gives it for the item's own message id; saves a lookup per item. */
  sources?: readonly (StoredMessage | null)[];
}): StageResult<{
  items: ContextItem[];
  /** Reasoning replayed for this reply only (`reasoning.persist` = next_reply): to delete after the reply. */
  replayedReasoningIds: string[];
}> {
  const { items, messagesById, settings } = args;
  const context: ReplayContext = {
    settings,
    artifactsById: args.artifactsById,
    tokenizer: args.tokenizer ?? null,
    noteTokens: new Map(),
    trace: [],
    replayedReasoningIds: [],
  };
  const roles = items.map((item) => item.role);
  const { turns, totalTurns } = computeTurnIndices(roles, args.currentInputFollows ?? true);
  const retention = settings.tools.outputRetentionTurns;
  const pruneBeforeTurn = retention > 0 && totalTurns > retention ? totalTurns - retention : 0;

  const out: ContextItem[] = [];
  const emptyItems: string[] = [];
  const skippedArtifactItems: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item === undefined) continue;
    const message = sourceOf(item, i, args.sources, messagesById);
    const withArtifacts = message !== undefined && hasArtifactParts(message);
    if (
      message !== undefined &&
      withArtifacts &&
      item.role === "assistant" &&
      message.authorType === "persona"
    ) {
      const before = out.length;
      expandMessage(item, message, (turns[i] ?? 0) < pruneBeforeTurn, context, out);
      if (out.length === before) emptyItems.push(item.id);
      continue;
    }
    if (withArtifacts) skippedArtifactItems.push(item.id);
    if (item.parts.length === 0) {
      emptyItems.push(item.id);
      continue;
    }
    out.push(item);
  }

  const trace = context.trace;
  if (skippedArtifactItems.length > 0) {
    trace.push(
      traceEvent(
        "artifacts",
        "skipped-artifacts",
        "artifacts of messages that are not the assistant's turn here are not replayed",
        {
          itemIds: skippedArtifactItems,
        },
      ),
    );
  }
  if (emptyItems.length > 0) {
    trace.push(
      traceEvent(
        "artifacts",
        "dropped-empty",
        `${plural(emptyItems.length, "message")} with nothing left to send`,
        {
          itemIds: emptyItems,
          counts: { items: emptyItems.length },
        },
      ),
    );
  }
  if (settings.reasoning.persist === "next_reply" && context.replayedReasoningIds.length > 0) {
    trace.push(
      traceEvent(
        "artifacts",
        "replayed-reasoning-once",
        `${plural(context.replayedReasoningIds.length, "reasoning artifact")} replayed for this reply only; delete after the reply (reasoning.persist = next_reply)`,
        {
          counts: { reasoning: context.replayedReasoningIds.length },
          details: { artifactIds: context.replayedReasoningIds },
        },
      ),
    );
  }
  return { value: { items: out, replayedReasoningIds: context.replayedReasoningIds }, trace };
}

/**
 * Phase A: tool calls, outputs and reasoning replayed between the assistant's text pieces; empty items dropped.
 */
export const artifactsStage: Stage<SourcedItems, HistoryItems, PhaseAContext> = {
  name: "artifacts",
  run({ items, sources, current }, { settings, tokenizer, artifactsById }) {
    const replayed = replayArtifacts({
      items,
      messagesById: NO_MESSAGES,
      artifactsById,
      settings,
      tokenizer,
      currentInputFollows: true,
      sources,
    });
    return { value: { items: replayed.value.items, current }, trace: replayed.trace };
  },
};
