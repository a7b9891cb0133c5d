// What the stages of each phase share (the phase's context) and what one stage hands the next (the values in
// between). The stage lists themselves are in build-context.ts (phase A) and resolve-for-model.ts (phase B).
// See docs/pipeline.md.

import type { JSONValue, ModelMessage, SystemModelMessage } from "ai";
import type { ResolvedSettings } from "@/lib/domain/settings";
import type {
  BuildInput,
  CallOptions,
  ContextItem,
  ModelDescriptor,
  StoredArtifact,
  StoredAttachment,
  StoredMessage,
  TokenizerName,
} from "@/lib/domain/types";
import type { HistoryEntry } from "./messages";

// ---------------------------------------------------------------------------------------------------------------
// Phase A: the stored conversation becomes capability-neutral items, once per turn.

/** The stored artifacts by id (tool calls, outputs, reasoning), as artifact replay reads them. */
export interface ArtifactLookup {
  get(artifactId: string): StoredArtifact | undefined;
}

/** What every phase-A stage may read. Built once per build; never changed by a stage. */
export interface PhaseAContext {
  input: BuildInput;
  settings: ResolvedSettings;
  /** Which cached per-message count fills `item.tokens`; null fills none. */
  tokenizer: TokenizerName | null;
  attachmentsById: ReadonlyMap<string, StoredAttachment>;
  artifactsById: ArtifactLookup;
  /** A loaded message (or the current input) by id, for readable trace reasons. */
  messagesById: { get(messageId: string): StoredMessage | undefined };
}

/** The loaded history, and the part of it that is built (history no model of the turn could take is cut). */
export interface ReachableHistory {
  /** Every loaded history message, cut or not: they decide whether "auto" speaker labels are on. */
  loaded: readonly StoredMessage[];
  history: readonly StoredMessage[];
  /** Blocked users' messages cut before the build that a kept message replies to. */
  hiddenMessageIds: ReadonlySet<string> | null;
}

/** History as entries: single messages and collapsed runs of one author's text messages. */
export interface CollapsedHistory {
  loaded: readonly StoredMessage[];
  entries: readonly HistoryEntry[];
  hiddenMessageIds: ReadonlySet<string> | null;
}

/** History entries once blocked users' turns are notices. */
export interface VisibleHistory {
  loaded: readonly StoredMessage[];
  entries: readonly HistoryEntry[];
  /** The loaded message behind each copy the blocks stage made without its reply annotation (null: none made). */
  originals: ReadonlyMap<StoredMessage, StoredMessage> | null;
}

/** History items with the message each one is exactly (null for notices and collapsed runs), in parallel. */
export interface SourcedItems {
  items: readonly ContextItem[];
  sources: readonly (StoredMessage | null)[];
  /** The current input's item, held apart until the last stage puts it at the end. */
  current: ContextItem;
}

/** For stages given each item's source message: they never look messages up by id. */
export const NO_MESSAGES: ReadonlyMap<string, StoredMessage> = new Map();

/** History items, and the current input's item held apart. */
export interface HistoryItems {
  items: readonly ContextItem[];
  current: ContextItem;
}

// ---------------------------------------------------------------------------------------------------------------
// Phase B: the phase-A items become one attempt's request, once per attempt.

/** What every phase-B stage may read. */
export interface PhaseBContext {
  model: ModelDescriptor;
  settings: ResolvedSettings;
  /** The tokenizer phase A's token counts were made with (see BaseContext.tokenizer). */
  countedWith: TokenizerName | null | undefined;
  /** Tools enabled for this attempt; a blind model is told to use `analyze_image` when it is among them. */
  enabledToolNames: readonly string[] | undefined;
  /** The conversation, for the provider's prompt-cache key (see BaseContext.conversationId). */
  conversationId?: string;
  /** The caller's own options for this call (see BaseContext.callOptions). */
  callOptions?: CallOptions;
}

/** Items that fit the attempt's budget, and the budget they were fitted to. */
export interface BudgetedItems {
  items: readonly ContextItem[];
  budget: BudgetInfo;
}

/** The budgeted items and the stop sequences the request will carry. */
export interface ItemsWithStops extends BudgetedItems {
  stopSequences: string[];
}

/** The items as sent and the AI SDK call arguments made from them. */
export interface SerialisedItems extends BudgetedItems {
  request: SerialisedRequest;
}

/** The token budget an attempt was built against (the budget stage's result). */
export interface BudgetInfo {
  usableTokens: number;
  totalTokens: number;
  reservedOutputTokens: number;
  contextWindow: number;
}

/** AI SDK's provider options shape (`SharedV4ProviderOptions`), which `ai` does not re-export. */
export type ProviderOptions = Record<string, Record<string, JSONValue>>;

/** The serialise stage's result: the AI SDK call's arguments (serialise.ts). */
export interface SerialisedRequest {
  /** A system message only when it carries a cache breakpoint; otherwise the text. */
  instructions: string | SystemModelMessage | undefined;
  messages: ModelMessage[];
  providerOptions: ProviderOptions;
  stopSequences: string[] | undefined;
  maxOutputTokens: number | undefined;
  /** Only when the caller asked for them (BaseContext.callOptions). */
  temperature?: number;
  topP?: number;
}
