// The data the context pipeline reads and writes. Plain, serialisable, framework-free: the caller loads these
// from the database (or a test builds them by hand) and the pipeline never touches storage.

import type { ResolvedSettings } from "./settings";

// ---------------------------------------------------------------------------------------------------------------
// Inputs: what is stored

// The value lists of the enums that are stored: the database schema's columns take their values from these.
export const AUTHOR_TYPES = ["user", "persona", "system", "tool"] as const;
export type AuthorType = (typeof AUTHOR_TYPES)[number];
export const MESSAGE_STATUSES = ["complete", "streaming", "stopped", "interrupted", "error"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const BLOCK_TYPES = ["mute", "block"] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

/**
 * What a provider attached to a part of its reply, by provider key (`{ google: { thoughtSignature } }`,
 * `{ openai: { itemId, reasoningEncryptedContent } }`, `{ anthropic: { signature } }`): stored with the part and
 * sent back with it as the part's provider options (docs/features.md#reasoning-and-provider-metadata).
 */
export type ProviderMetadata = Record<string, Record<string, unknown>>;

/** One ordered part of a stored message. Media and artifacts are referred to by id, in the order they happened. */
export type StoredPart =
  | { type: "text"; text: string; providerMetadata?: ProviderMetadata }
  | { type: "media"; attachmentId: string }
  | { type: "artifact"; artifactId: string };

export interface StoredMessage {
  id: string;
  /** Strictly increasing per conversation: the one sort key. */
  seq: number;
  authorType: AuthorType;
  authorUserId: string | null;
  authorPersonaId: string | null;
  /** The name as shown in the chat. */
  authorName: string;
  parts: StoredPart[];
  replyToMessageId: string | null;
  /** For replies and forwards: who originally sent the quoted content (used in media attribution hints). */
  forwardedFromName?: string | null;
  status: MessageStatus;
  /** When someone edited the message in place after it was sent (ISO time), else null or absent. */
  editedAt?: string | null;
  /** Id of the summary that covers this message, or null. */
  summarizedBy: string | null;
  /** Token counts of the message's text per tokenizer, cached at write time by the caller; a missing entry is
   *  counted when needed. */
  tokenCounts?: Partial<Record<TokenizerName, number>>;
  /** For a message whose text is split by artifacts (text written around tool calls): the count of each text
   *  segment (role-mapping's `textSegments`) per tokenizer, cached at write time like `tokenCounts`. */
  segmentTokenCounts?: Partial<Record<TokenizerName, number[]>> | null;
  createdAt: string;
}

export const MEDIA_KINDS = ["image", "video", "audio", "file"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

export interface StoredAttachment {
  id: string;
  messageId: string;
  kind: MediaKind;
  mime: string;
  sizeBytes: number;
  sha256: string;
  width?: number | null;
  height?: number | null;
  /** Emoji and stickers are not counted against image budgets. */
  isEmoji: boolean;
  isSticker: boolean;
  /** Where the provider can get the bytes: a data: URL or an https URL. */
  url: string;
  filename?: string | null;
}

export type ArtifactType =
  | "function_call"
  | "function_call_output"
  | "reasoning"
  | "web_search_call"
  | "image_generation_call"
  | "file_search_call"
  | "local_shell_call"
  | "code_interpreter_call"
  | (string & {});

export interface StoredArtifact {
  id: string;
  messageId: string;
  type: ArtifactType;
  /**
   * function_call: { callId, name, arguments (JSON string or object), providerMetadata?, providerExecuted?,
   *   executedBy?, step? }
   * function_call_output: { callId, name?, output (string or JSON), outputJson? (a JSON output's exact text:
   *   jsonb reorders keys), outputType? ("error-text" | "error-json": the tool failed), providerMetadata?,
   *   providerExecuted?, executedBy?, step? }
   * `providerExecuted`: the provider ran the tool (its call and result go back inside the assistant message), and
   * `executedBy` names that provider;
   * `step`: the tool-loop step (model call) of the reply it came from (docs/features.md#tools).
   * reasoning: { text, providerMetadata?, startedAt?, endedAt? (ISO times: how long the model thought) }
   */
  payload: Record<string, unknown>;
  /** Tokens of the part it replays (a call's name and arguments, an output, reasoning text) per tokenizer, cached
   *  at write time (`artifactTokenCounts`); a missing entry is counted when needed. */
  tokenCounts?: Partial<Record<TokenizerName, number>>;
  createdAt: string;
}

export interface StoredSummary {
  id: string;
  content: string;
  /** Every message with seq ≤ this is covered by the summary. */
  coversThroughSeq: number;
  messageCount: number;
  createdAt: string;
}

export interface PersonaInfo {
  id: string;
  name: string;
  systemPrompt: string;
}

export interface ParticipantInfo {
  userId: string;
  name: string;
}

export interface PersonaUserBlock {
  personaId: string;
  userId: string;
  userName: string;
  blockType: BlockType;
  reason: string | null;
  expiresAt: string | null;
}

export type MemoryArea = "fact" | "preference" | "session_summary" | (string & {});

export interface MemoryInfo {
  id: string;
  area: MemoryArea;
  content: string;
  /** For session_summary memories: the conversation and summary they came from. */
  conversationId?: string | null;
  summaryId?: string | null;
}

export interface ToolInfo {
  name: string;
  description: string;
  /** Usage rules for the system prompt's tool section. */
  rules?: string;
}

/** Everything phase A needs, loaded by the caller before the pipeline runs. */
export interface BuildInput {
  conversationId: string;
  persona: PersonaInfo;
  /** Other personas that speak in this conversation (their messages map to user). */
  participants: ParticipantInfo[];
  /** Messages after the active summary with summarizedBy null, newest `messageFetchLimit`, in seq order.
   *  May include the current input message; the pipeline drops it from history by id. */
  messages: StoredMessage[];
  attachments: StoredAttachment[];
  artifacts: StoredArtifact[];
  summary: StoredSummary | null;
  blocks: PersonaUserBlock[];
  memories: MemoryInfo[];
  tools: ToolInfo[];
  /** Maximum tool-loop steps, shown as the iteration budget when tools loop. */
  maxToolSteps?: number;
  settings: ResolvedSettings;
  /** The persona's and the conversation's note (stacked, persona first); the global note from settings is used
   *  only when neither exists. */
  personaNote?: string | null;
  conversationNote?: string | null;
  conversationInstructions?: string | null;
  /** The message being answered. */
  currentInput: StoredMessage;
  /** When generating as a user ("write as me"): that user's messages become assistant, the persona's user. */
  impersonateUserId?: string | null;
  /** Number of user turns so far including the current one (drives contextNote.frequency). */
  userTurnNumber: number;
  /** ISO time used in notices (the summary marker's date); passed in so builds are deterministic. */
  now: string;
  /**
   * Set by the loader when older unsummarised messages exist beyond `history.messageFetchLimit` and were not
   * loaded: the seq of the oldest loaded message and how many before it were left out. Phase A reports it as a
   * `load/fetch-limit` trace event (the fetch window sliding moves the payload prefix). Absent or null: none.
   */
  loadedWindow?: { omittedBeforeSeq: number; omittedCount: number } | null;
  /**
   * Set by the loader in a room (a conversation others read too): the requester's private memories (user and
   * user × persona scope) were not loaded, so that no other member reads them in the payload. Phase A reports it
   * as a `load/private-memories-withheld` trace event.
   */
  privateMemoriesWithheld?: boolean;
  /**
   * The usable token budget of every model this turn may call (first model, fallbacks), for each one's tokenizer.
   * When given, history that none of them could send is not built (see history-reach.ts); the payload of every
   * attempt is the same as without it. Absent: everything loaded is built.
   */
  attemptBudgets?: readonly AttemptBudget[] | null;
}

/** One model's usable context (after the output reserve and safety margin) under its tokenizer. */
export interface AttemptBudget {
  tokenizer: TokenizerName;
  usableTokens: number;
  /** A strict-alternation model merges the oldest user turn into what precedes it (see history-reach.ts). */
  strictAlternation: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// Outputs: context items

export type ItemRole = "system" | "user" | "assistant" | "tool";

/** The tags of the system-prompt items: sent as the system block, never dropped by the budget. */
export const SYSTEM_ITEM_TAGS = [
  "SYSTEM_PROMPT",
  "TOOL_RULES",
  "CORE_MEMORIES",
  "KEY_CONTEXT_REMINDER",
  "CONVERSATION_INSTRUCTIONS",
  "PERSONA_USER_BLOCKS",
] as const;

export const ITEM_TAGS = [
  ...SYSTEM_ITEM_TAGS,
  "SUMMARY",
  "DIALOGUE_HISTORY",
  "MEDIA_NOTICE",
  "CONTEXT_NOTE",
  "TOOL_CALL",
  "TOOL_RESULT",
  "REASONING",
  "CURRENT_INPUT",
] as const;
export type ItemTag = (typeof ITEM_TAGS)[number];

/**
 * A capability-neutral description of one media item, decided in phase A. Phase B turns it into a media part
 * or a notice depending on what the attempt's model can see.
 */
export interface MediaDescriptor {
  /** Stable handle the model can refer to, e.g. "media_3". */
  handle: string;
  attachmentId: string;
  kind: MediaKind;
  mime: string;
  url: string;
  sha256: string;
  /** render: inside the window and the budget; out_of_window: older than the media window. */
  state: "render" | "out_of_window";
  /** Who sent the media when it is not the message author (replies, forwards). */
  attributedTo?: string | null;
  senderName: string;
  messageSeq: number;
  /** The uploaded file's name, sent with a document (OpenAI shows it to the model). */
  filename?: string | null;
  /** The file's size in bytes; a video, audio clip or document is counted from it. */
  sizeBytes?: number;
  /**
   * Whether the image counts against the image budgets (`media.imageMessageLimit`, `media.maxImagesPerRequest`):
   * stickers and emoji do not. Absent (a hand-built descriptor): counted.
   */
  counted?: boolean;
}

export type ItemPart =
  | { type: "text"; text: string; providerMetadata?: ProviderMetadata }
  /** Phase A placeholder for media, resolved in phase B. */
  | { type: "media"; descriptor: MediaDescriptor }
  | {
      type: "image" | "video" | "audio" | "file";
      mediaType: string;
      url: string;
      attachmentId: string;
      handle: string;
      /** A document's file name, when it has one. */
      filename?: string;
      /** The size of a video, audio clip or document, for its token estimate (`mediaTokens`). */
      sizeBytes?: number;
    }
  | {
      type: "tool-call";
      toolCallId: string;
      toolName: string;
      input: unknown;
      providerMetadata?: ProviderMetadata;
      /** The provider ran it: it goes back in the provider's own form, or not at all (docs/features.md#tools). */
      providerExecuted?: true;
      /** Which provider ran it, when stored. */
      executedBy?: string;
    }
  | {
      type: "tool-result";
      toolCallId: string;
      toolName: string;
      output: unknown;
      providerMetadata?: ProviderMetadata;
      providerExecuted?: true;
      executedBy?: string;
      /** The tool failed: the output goes back as the SDK's error output of this type, as the tool loop sent it. */
      outputType?: ToolErrorOutputType;
    }
  | { type: "reasoning"; text: string; providerMetadata?: ProviderMetadata };

export interface ItemSender {
  type: AuthorType;
  name: string;
  userId?: string | null;
  personaId?: string | null;
}

/** The AI SDK's output types for a failed tool. */
export type ToolErrorOutputType = "error-text" | "error-json";

export interface ContextItem {
  /** Stable across builds of the same inputs: derived from the source (e.g. "msg:<id>", "summary", "note:0"). */
  id: string;
  role: ItemRole;
  tag: ItemTag;
  parts: ItemPart[];
  sourceMessageIds: string[];
  sender?: ItemSender;
  mediaDescriptors?: MediaDescriptor[];
  /** Token count under the tokenizer in use; 0 until counted (the budget stage fills it). */
  tokens: number;
  /**
   * Set by phase B's cache stage on the item after which the provider is asked to cache the prefix (an Anthropic
   * `cache_control` breakpoint), naming which stable part it closes. Absent: no breakpoint.
   */
  cacheBreakpoint?: CacheBreakpointPlace;
  /**
   * The tool-loop step a replayed assistant item belongs to ("<message id>:step:<n>"): adjacent items of one step
   * go out as one assistant message and one tool message, as the loop sent them (docs/pipeline.md#serialise).
   */
  step?: string;
}

/** Where a prompt-cache breakpoint sits: after the system block, after the summary, after the history. */
export type CacheBreakpointPlace = "system" | "summary" | "history";

// ---------------------------------------------------------------------------------------------------------------
// Trace

export type StageName =
  | "load"
  | "unanswered"
  | "collapse"
  | "blocks"
  | "roles"
  | "media-budget"
  | "artifacts"
  | "window"
  | "notes"
  | "system-prompt"
  | "summary"
  | "current-input"
  | "reasoning"
  | "media-resolution"
  | "normalise"
  | "budget"
  | "stop-strings"
  | "cache"
  | "serialise";

export interface TraceEvent {
  stage: StageName;
  /** A short verb phrase: "collapsed", "blocked", "omitted-images", "pruned-tool-output", … */
  action: string;
  /** Human-readable why, shown in the inspector, e.g. "3 consecutive text messages by Ada". */
  reason: string;
  level?: "info" | "warning";
  itemIds?: string[];
  messageIds?: string[];
  counts?: Record<string, number>;
  details?: Record<string, unknown>;
}

/** How long one stage of a phase took, in milliseconds (0 when the caller passed no clock). */
export interface StageTiming {
  stage: string;
  ms: number;
}

/** The phase-A result: capability-neutral items and what each stage did. Never mutated by phase B. */
export interface BaseContext {
  items: ContextItem[];
  trace: TraceEvent[];
  settings: ResolvedSettings;
  /**
   * The tokenizer the items' non-zero `tokens` were counted with (phase A's cached counts); null when phase A
   * left every count at 0. Phase B recounts the items of an attempt whose model uses another tokenizer. Absent
   * (a hand-built base): the counts are trusted as they are.
   */
  tokenizer?: TokenizerName | null;
  /** Phase A's stages in the order they ran, with their times. Absent on a hand-built base. */
  stageTimings?: StageTiming[];
  /** The conversation the build is for: phase B names the provider's prompt cache after it (OpenAI's
   *  `prompt_cache_key`). Absent on a hand-built base: no key is sent. */
  conversationId?: string;
  /** What the caller asked of this call (the gateway's `temperature`, `max_tokens`, `stop`…); absent: nothing. */
  callOptions?: CallOptions;
}

/**
 * A call's own sampling and length options, as a client of the gateway sends them. Phase B applies them within the
 * persona's limits: `stop` joins the persona's stop strings under the model's cap, `maxOutputTokens` never exceeds
 * the output the budget reserved, `temperature` and `topP` are passed to the provider as they are.
 */
export interface CallOptions {
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  stop?: string[];
}

// ---------------------------------------------------------------------------------------------------------------
// Models

export const PROVIDER_NAMES = ["openai", "openai-compatible", "google", "anthropic", "offline"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];
export const TOKENIZER_NAMES = ["o200k_base", "cl100k_base", "estimate"] as const;
export type TokenizerName = (typeof TOKENIZER_NAMES)[number];
/** Which of OpenAI's APIs a model is called through (chat completions or responses). */
export const API_KINDS = ["chat", "responses"] as const;
export type ApiKind = (typeof API_KINDS)[number];

export interface ModelCapabilities {
  vision: boolean;
  video: boolean;
  /** Audio clips (MP3, WAV, OGG, FLAC, M4A) as input. */
  audio: boolean;
  /** PDF documents as input. */
  documents: boolean;
  tools: boolean;
  reasoning: boolean;
  /** False for models without a system role (Gemma < 4): system text goes into the first user turn. */
  systemInstruction: boolean;
  strictAlternation: boolean;
  maxStopSequences: number;
}

/** A model's list prices in US dollars per million tokens (cached input is part of input, at its own rate). */
export interface ModelPrices {
  inputPerMillion: number;
  cachedInputPerMillion: number;
  /**
   * Input written to the prompt cache (part of input too), for providers that bill writes above the input rate
   * (Anthropic: 1.25× input for 5-minute writes). Absent: writes are not priced, and a call that reports some
   * has an unknown cost.
   */
  cacheWritePerMillion?: number;
  outputPerMillion: number;
}

export interface ModelDescriptor {
  id: string;
  provider: ProviderName;
  providerModelName: string;
  /** For OpenAI: which API the model is called through. */
  apiKind: ApiKind;
  capabilities: ModelCapabilities;
  contextWindow: number;
  maxOutputTokens: number;
  tokenizer: TokenizerName;
}

/** Every model call is an attempt of one of these kinds ("replay": a recorded attempt run again). */
export const ATTEMPT_KINDS = ["reply", "summary", "title", "write_as_me", "replay"] as const;
export type AttemptKind = (typeof ATTEMPT_KINDS)[number];
