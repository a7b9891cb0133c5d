// A fast-check arbitrary of random stored conversations for the property tests of the pipeline's invariants. It
// generates a plain blueprint (good shrinking), then `materialise` turns it into what the route would store and
// load: messages with unique text markers, attachments, artifacts, a summary, blocks, notes, settings within the
// schema's ranges, and two models with random capabilities. `loadInput` plays the route's loader (summary cut,
// fetch limit, current input stored or a draft), and `appendTurn` adds a reply and a new user message, for prefix
// stability.
//
// Every non-blank stored text part ends with a marker `⟦m<seq>.<k>⟧` (the current input's is `⟦m<seq>.0⟧`), every
// note and reasoning text carries one too, so a test can tell exactly which stored text reached the payload.

import fc from "fast-check";
import { countUserTurns } from "@/lib/context/current-input";
import { elementAt, firstOf, lastOf } from "@/lib/context/indexing";
import { artifactTokenCounts, messageTokenCounts } from "@/lib/context/token-cache";
import { defaultSettings, type ResolvedSettings, settingsSchema } from "@/lib/domain/settings";
import {
  type BuildInput,
  type MemoryInfo,
  type MessageStatus,
  type ModelCapabilities,
  type ModelDescriptor,
  type ParticipantInfo,
  type PersonaInfo,
  type PersonaUserBlock,
  type ProviderName,
  type StoredArtifact,
  type StoredAttachment,
  type StoredMessage,
  type StoredPart,
  type StoredSummary,
  TOKENIZER_NAMES,
  type TokenizerName,
  type ToolInfo,
} from "@/lib/domain/types";

// ---------------------------------------------------------------------------------------------------------------
// The cast

export const CONVERSATION_ID = "conv-prop";
export const NOW = "2026-03-01T12:00:00.000Z";
export const PERSONA_ID = "p-aria";
export const PERSONA_NAME = "Aria";
/** Humans of a room, in the order they join: names with accents, CJK, an apostrophe and a double space. */
export const HUMANS = [
  { userId: "u-ada", name: "Ada" },
  { userId: "u-bob", name: "Bob" },
  { userId: "u-zoe", name: "Zoë Ångström" },
  { userId: "u-lei", name: "李雷" },
  { userId: "u-sean", name: "Seán  O'Brien" },
] as const;
export const OTHER_PERSONAS = [
  { personaId: "p-zed", name: "Zed" },
  { personaId: "p-nyx", name: "Nyx 🌙" },
] as const;
export const TOOL_CATALOG: readonly ToolInfo[] = [
  { name: "analyze_image", description: "Describes an image for a model that cannot see it." },
  {
    name: "remember",
    description: "Stores a memory.",
    rules: "Only store what the user asks you to remember.",
  },
  { name: "current_time", description: "Tells the time." },
];
const TOOL_NAMES = ["current_time", "remember", "analyze_image", "lookup"] as const;
const NON_REPLAYABLE_TYPES = [
  "web_search_call",
  "image_generation_call",
  "file_search_call",
  "local_shell_call",
  "code_interpreter_call",
] as const;
const PNG_DATA_URL =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const BASE_TIME = Date.UTC(2026, 0, 1);

/** The marker ending the k-th text part of the message with this seq. */
export function textMarker(seq: number, part: number): string {
  return `⟦m${seq}.${part}⟧`;
}

// ---------------------------------------------------------------------------------------------------------------
// Blueprint: plain data fast-check generates and shrinks

export type MediaSpecKind = "image" | "emoji" | "sticker" | "video" | "audio" | "file";

export interface MediaSpec {
  kind: MediaSpecKind;
  /** One of a few shared images (duplicates by sha256), or null for an image of its own. */
  sharedSha: number | null;
  gif: boolean;
  /** The part refers to an attachment row that is not loaded. */
  missingRow: boolean;
  dataUrl: boolean;
}

export type ArtifactSpec =
  | {
      kind: "tool";
      /** Parallel calls in one step. */
      calls: number;
      output: "paired" | "no-output" | "missing-output-row" | "missing-call-row";
      outputChars: number;
      json: boolean;
      argumentsAsString: boolean;
      tool: number;
    }
  | { kind: "orphan-output" }
  | { kind: "reasoning"; text: string; providerMetadata: boolean; missingRow: boolean }
  | { kind: "non-replayable"; type: number }
  | { kind: "malformed-call" };

export type Segment = { kind: "text"; text: string } | ArtifactSpec;

export type MessageSpec =
  | {
      kind: "human";
      author: number;
      text: string;
      media: MediaSpec[];
      /** 0: not a reply; k: replies to the message k back. */
      replyBack: number;
      forwardedFrom: number | null;
      /** Artifacts on a human's message (never replayed there). */
      withArtifact: boolean;
      status: MessageStatus;
      cacheTokens: boolean;
    }
  | { kind: "persona"; segments: Segment[]; media: MediaSpec[]; status: MessageStatus; cacheTokens: boolean }
  | { kind: "other-persona"; who: number; text: string; media: MediaSpec[]; cacheTokens: boolean }
  | { kind: "system" | "tool-author"; text: string };

/** A generated model: its capabilities, and its window, output share, tokenizer and provider. */
export interface ModelSpec extends ModelCapabilities {
  contextWindow: number;
  /** maxOutputTokens as a share of the window, in percent. */
  outputPercent: number;
  tokenizer: TokenizerName;
  provider: ProviderName;
  apiKind: "chat" | "responses";
}

export interface BlockSpec {
  human: number;
  blockType: "block" | "mute";
  expiry: "never" | "past" | "future";
  otherPersona: boolean;
  reason: string | null;
}

export interface ConversationBlueprint {
  humanCount: number;
  listedParticipants: boolean[];
  systemPrompt: string;
  seqGaps: number[];
  messages: MessageSpec[];
  current: { author: number; text: string; media: MediaSpec[]; stored: boolean; cacheTokens: boolean };
  summary: { coverIndex: number; content: string; mistakenlyLoaded: number } | null;
  blocks: BlockSpec[];
  memories: { area: "fact" | "preference" | "session_summary"; content: string; thisConversation: boolean }[];
  tools: { enabled: boolean[]; maxToolSteps: number | null };
  notes: { persona: string | null; conversation: string | null; global: string | null };
  instructions: string | null;
  impersonate: boolean;
  settings: ResolvedSettings;
  models: [ModelSpec, ModelSpec];
}

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries

/** Short ASCII, any unicode (emoji, CJK, combining marks), empty and blank, long prose, a `[System:` lookalike. */
export const textArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 24 }) },
  { weight: 2, arbitrary: fc.constantFrom("", " ", "\n\t ") },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.integer({ min: 30, max: 600 }))
      .map(([word, count]) => `${word} `.repeat(count)),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((rest) => `[System: ${rest}]`) },
);

const statusArbitrary: fc.Arbitrary<MessageStatus> = fc.oneof(
  { weight: 12, arbitrary: fc.constant("complete" as const) },
  { weight: 1, arbitrary: fc.constantFrom("interrupted" as const, "error" as const, "streaming" as const) },
);

/** `missingRow` about one time in twelve. */
const mediaSpecArbitrary: fc.Arbitrary<MediaSpec> = fc.record({
  kind: fc.oneof(
    { weight: 8, arbitrary: fc.constant("image" as const) },
    { weight: 1, arbitrary: fc.constantFrom("emoji" as const, "sticker" as const) },
    { weight: 1, arbitrary: fc.constantFrom("video" as const, "audio" as const, "file" as const) },
  ),
  sharedSha: fc.option(fc.integer({ min: 0, max: 2 }), { freq: 2 }),
  gif: fc.boolean(),
  missingRow: fc.integer({ min: 0, max: 11 }).map((roll) => roll === 0),
  dataUrl: fc.boolean(),
});

const mediaListArbitrary = fc.oneof(
  { weight: 4, arbitrary: fc.constant<MediaSpec[]>([]) },
  { weight: 2, arbitrary: fc.array(mediaSpecArbitrary, { minLength: 1, maxLength: 3 }) },
);

const artifactArbitrary: fc.Arbitrary<ArtifactSpec> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("tool" as const),
      calls: fc.integer({ min: 1, max: 2 }),
      output: fc.oneof(
        { weight: 8, arbitrary: fc.constant("paired" as const) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            "no-output" as const,
            "missing-output-row" as const,
            "missing-call-row" as const,
          ),
        },
      ),
      outputChars: fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: 0, max: 300 }) },
        { weight: 2, arbitrary: fc.integer({ min: 300, max: 6_000 }) },
      ),
      json: fc.boolean(),
      argumentsAsString: fc.boolean(),
      tool: fc.integer({ min: 0, max: TOOL_NAMES.length - 1 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "orphan-output" as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("reasoning" as const),
      text: fc.oneof(
        { weight: 6, arbitrary: fc.string({ maxLength: 30 }) },
        { weight: 1, arbitrary: fc.constant(" ") },
      ),
      providerMetadata: fc.boolean(),
      missingRow: fc.integer({ min: 0, max: 9 }).map((roll) => roll === 0),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("non-replayable" as const),
      type: fc.integer({ min: 0, max: NON_REPLAYABLE_TYPES.length - 1 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "malformed-call" as const }) },
);

const segmentArbitrary: fc.Arbitrary<Segment> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("text" as const), text: textArbitrary }) },
  { weight: 2, arbitrary: artifactArbitrary },
);

const humanIndex = fc.integer({ min: 0, max: HUMANS.length - 1 });

const messageArbitrary: fc.Arbitrary<MessageSpec> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant("human" as const),
      author: humanIndex,
      text: textArbitrary,
      media: mediaListArbitrary,
      replyBack: fc.oneof(
        { weight: 6, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }) },
      ),
      forwardedFrom: fc.option(fc.integer({ min: 0, max: HUMANS.length }), { freq: 6 }),
      withArtifact: fc.integer({ min: 0, max: 19 }).map((roll) => roll === 0),
      status: statusArbitrary,
      cacheTokens: fc.boolean(),
    }),
  },
  {
    weight: 9,
    arbitrary: fc.record({
      kind: fc.constant("persona" as const),
      segments: fc.oneof(
        {
          weight: 3,
          arbitrary: fc.array(fc.record({ kind: fc.constant("text" as const), text: textArbitrary }), {
            minLength: 1,
            maxLength: 1,
          }),
        },
        { weight: 2, arbitrary: fc.array(segmentArbitrary, { minLength: 1, maxLength: 5 }) },
      ),
      media: fc.oneof(
        { weight: 5, arbitrary: fc.constant<MediaSpec[]>([]) },
        { weight: 1, arbitrary: fc.array(mediaSpecArbitrary, { minLength: 1, maxLength: 2 }) },
      ),
      status: statusArbitrary,
      cacheTokens: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("other-persona" as const),
      who: fc.integer({ min: 0, max: OTHER_PERSONAS.length - 1 }),
      text: textArbitrary,
      media: mediaListArbitrary,
      cacheTokens: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom("system" as const, "tool-author" as const),
      text: textArbitrary,
    }),
  },
);

const modelArbitrary: fc.Arbitrary<ModelSpec> = fc.record({
  vision: fc.boolean(),
  video: fc.boolean(),
  audio: fc.boolean(),
  documents: fc.boolean(),
  tools: fc.boolean(),
  reasoning: fc.boolean(),
  systemInstruction: fc.oneof(
    { weight: 3, arbitrary: fc.constant(true) },
    { weight: 1, arbitrary: fc.constant(false) },
  ),
  strictAlternation: fc.boolean(),
  maxStopSequences: fc.integer({ min: 0, max: 5 }),
  contextWindow: fc.oneof(
    { weight: 2, arbitrary: fc.integer({ min: 600, max: 6_000 }) },
    { weight: 2, arbitrary: fc.integer({ min: 8_000, max: 40_000 }) },
    { weight: 3, arbitrary: fc.constantFrom(128_000, 1_048_576) },
  ),
  outputPercent: fc.integer({ min: 1, max: 40 }),
  tokenizer: fc.oneof(
    { weight: 3, arbitrary: fc.constant("estimate" as const) },
    { weight: 1, arbitrary: fc.constantFrom("o200k_base" as const, "cl100k_base" as const) },
  ),
  provider: fc.constantFrom(
    "openai" as const,
    "google" as const,
    "openai-compatible" as const,
    "offline" as const,
  ),
  apiKind: fc.constantFrom("chat" as const, "responses" as const),
});

const stopStringArbitrary = fc.oneof(
  fc.constantFrom("###", "END", "\nAda:", "\nBob:", "</s>", "\nAria:"),
  fc.string({ minLength: 1, maxLength: 12 }),
);

/** Every key within its schema range (§4); the global note text comes from the blueprint's notes. */
export const settingsArbitrary: fc.Arbitrary<ResolvedSettings> = fc
  .record({
    messageFetchLimit: fc.oneof(
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }) },
      { weight: 3, arbitrary: fc.integer({ min: 13, max: 200 }) },
      { weight: 1, arbitrary: fc.constant(10_000) },
    ),
    maxItems: fc.oneof(
      { weight: 3, arbitrary: fc.constant(null) },
      { weight: 2, arbitrary: fc.integer({ min: 2, max: 40 }) },
    ),
    speakerLabels: fc.constantFrom("auto" as const, "always" as const, "never" as const),
    mediaWindow: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constant(1_000)),
    imageMessageLimit: fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 0, max: 6 }) },
      { weight: 1, arbitrary: fc.constant(100) },
    ),
    maxImagesPerRequest: fc.integer({ min: 0, max: 20 }),
    imageInputSelection: fc.constantFrom("user_turn_only" as const, "user_then_assistant" as const),
    noteDepth: fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max: 30 }) },
      { weight: 1, arbitrary: fc.constant(1_000) },
    ),
    noteRole: fc.constantFrom("user" as const, "system" as const, "assistant" as const),
    noteFrequency: fc.oneof(
      { weight: 3, arbitrary: fc.constant(1) },
      { weight: 2, arbitrary: fc.integer({ min: 0, max: 4 }) },
    ),
    outputRetentionTurns: fc.integer({ min: 0, max: 12 }),
    pruneMinChars: fc.oneof(fc.constant(800), fc.integer({ min: 1, max: 3_000 })),
    pruneHead: fc.integer({ min: 0, max: 400 }),
    pruneTail: fc.integer({ min: 0, max: 400 }),
    reasoningPersist: fc.constantFrom("conversation" as const, "next_reply" as const, "disabled" as const),
    reservedOutputTokens: fc.oneof(
      { weight: 4, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 8_000 }) },
    ),
    safetyMarginPercent: fc.integer({ min: 0, max: 50 }),
    stopStrings: fc.array(stopStringArbitrary, { maxLength: 8 }),
    speakerPattern: fc.boolean(),
    thinkingEnabled: fc.boolean(),
    thinkingBudget: fc.integer({ min: 0, max: 20_000 }),
    keyContextReminder: fc.oneof(
      { weight: 3, arbitrary: fc.constant("") },
      { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
    ),
  })
  .map((spec) => {
    const settings = defaultSettings();
    settings.history = {
      messageFetchLimit: spec.messageFetchLimit,
      maxItems: spec.maxItems,
      speakerLabels: spec.speakerLabels,
    };
    settings.media = {
      window: spec.mediaWindow,
      imageMessageLimit: spec.imageMessageLimit,
      maxImagesPerRequest: spec.maxImagesPerRequest,
      imageInputSelection: spec.imageInputSelection,
    };
    settings.contextNote = {
      text: "",
      depth: spec.noteDepth,
      role: spec.noteRole,
      frequency: spec.noteFrequency,
    };
    settings.tools = {
      outputRetentionTurns: spec.outputRetentionTurns,
      pruneMinChars: spec.pruneMinChars,
      pruneHead: spec.pruneHead,
      pruneTail: spec.pruneTail,
    };
    settings.reasoning = { persist: spec.reasoningPersist };
    settings.budget = {
      reservedOutputTokens: spec.reservedOutputTokens,
      safetyMarginPercent: spec.safetyMarginPercent,
    };
    settings.stop = { strings: spec.stopStrings, speakerPattern: spec.speakerPattern };
    settings.thinking = { enabled: spec.thinkingEnabled, budgetTokens: spec.thinkingBudget };
    settings.keyContextReminder = spec.keyContextReminder;
    // The generator must stay inside §4's ranges: parse, and fail loudly if it ever does not.
    return settingsSchema.parse(settings);
  });

const noteArbitrary = fc.option(
  fc.oneof(
    { weight: 5, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 1, arbitrary: fc.constant("  ") },
  ),
  { freq: 2 },
);

const MAX_MESSAGES = 40;

export const blueprintArbitrary: fc.Arbitrary<ConversationBlueprint> = fc.record({
  humanCount: fc.oneof(
    { weight: 3, arbitrary: fc.constant(1) },
    { weight: 2, arbitrary: fc.integer({ min: 2, max: HUMANS.length }) },
  ),
  listedParticipants: fc.array(fc.boolean(), { minLength: HUMANS.length, maxLength: HUMANS.length }),
  systemPrompt: fc.oneof(
    { weight: 6, arbitrary: fc.constant("You are Aria, a helpful guide.") },
    { weight: 1, arbitrary: fc.constantFrom("", "   ") },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  ),
  // One gap per message and one for the current input (only as many as there are messages are used).
  seqGaps: fc.array(fc.integer({ min: 1, max: 3 }), {
    minLength: MAX_MESSAGES + 1,
    maxLength: MAX_MESSAGES + 1,
  }),
  messages: fc.array(messageArbitrary, { maxLength: MAX_MESSAGES, size: "max" }),
  current: fc.record({
    author: humanIndex,
    text: textArbitrary,
    media: fc.oneof(
      { weight: 4, arbitrary: fc.constant<MediaSpec[]>([]) },
      { weight: 1, arbitrary: fc.array(mediaSpecArbitrary, { minLength: 1, maxLength: 2 }) },
    ),
    stored: fc.oneof(
      { weight: 3, arbitrary: fc.constant(true) },
      { weight: 1, arbitrary: fc.constant(false) },
    ),
    cacheTokens: fc.boolean(),
  }),
  summary: fc.option(
    fc.record({
      coverIndex: fc.nat(),
      content: fc.oneof(
        { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 60 }) },
        { weight: 1, arbitrary: fc.constant(" ") },
      ),
      mistakenlyLoaded: fc.oneof(
        { weight: 5, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) },
      ),
    }),
    { freq: 3 },
  ),
  blocks: fc.array(
    fc.record({
      human: humanIndex,
      blockType: fc.constantFrom("block" as const, "mute" as const),
      expiry: fc.constantFrom("never" as const, "past" as const, "future" as const),
      otherPersona: fc.integer({ min: 0, max: 5 }).map((roll) => roll === 0),
      reason: fc.option(fc.string({ maxLength: 20 })),
    }),
    { maxLength: 3 },
  ),
  memories: fc.array(
    fc.record({
      area: fc.constantFrom("fact" as const, "preference" as const, "session_summary" as const),
      content: fc.oneof(fc.string({ maxLength: 30 }), fc.constant(" ")),
      thisConversation: fc.boolean(),
    }),
    { maxLength: 3 },
  ),
  tools: fc.record({
    enabled: fc.array(fc.boolean(), { minLength: TOOL_CATALOG.length, maxLength: TOOL_CATALOG.length }),
    maxToolSteps: fc.option(fc.integer({ min: 1, max: 5 })),
  }),
  notes: fc.record({ persona: noteArbitrary, conversation: noteArbitrary, global: noteArbitrary }),
  instructions: fc.option(fc.string({ maxLength: 40 }), { freq: 3 }),
  impersonate: fc.integer({ min: 0, max: 14 }).map((roll) => roll === 0),
  settings: settingsArbitrary,
  models: fc.tuple(modelArbitrary, modelArbitrary),
});

// ---------------------------------------------------------------------------------------------------------------
// Materialised conversations

/** What the route has stored for the conversation (the current input is the last message), plus what it loads. */
export interface StoredConversation {
  messages: StoredMessage[];
  /** Rows that exist (a missing row is a part whose attachment or artifact is not here). */
  attachments: StoredAttachment[];
  artifacts: StoredArtifact[];
  summary: StoredSummary | null;
  /** How many covered messages a buggy reload passes along anyway (the pipeline must drop them). */
  mistakenlyLoaded: number;
  /** False for a preview's draft: the current input is not stored, so the loader takes one message fewer. */
  currentStored: boolean;
  persona: PersonaInfo;
  participants: ParticipantInfo[];
  blocks: PersonaUserBlock[];
  memories: MemoryInfo[];
  tools: ToolInfo[];
  maxToolSteps?: number;
  settings: ResolvedSettings;
  personaNote: string | null;
  conversationNote: string | null;
  conversationInstructions: string | null;
  impersonateUserId: string | null;
}

export interface GeneratedConversation {
  stored: StoredConversation;
  /** The loaded input of this turn. */
  input: BuildInput;
  primary: ModelDescriptor;
  fallback: ModelDescriptor;
  enabledToolNames: string[];
  /** The marker of the current input's text: it must appear exactly once in the request. */
  currentMarker: string;
}

function timeFor(seq: number): string {
  return new Date(BASE_TIME + seq * 60_000).toISOString();
}

function withMarker(text: string, seq: number, part: number): string {
  return text.trim() === "" ? text : `${text} ${textMarker(seq, part)}`;
}

/** Every tokenizer the property tests' models use: the cache holds what a writer would have counted. */
const ALL_TOKENIZERS = TOKENIZER_NAMES;

/** Builds messages, attachment rows and artifact rows from the blueprint, seq by seq. */
class ConversationWriter {
  readonly messages: StoredMessage[] = [];
  readonly attachments: StoredAttachment[] = [];
  readonly artifacts: StoredArtifact[] = [];

  message(
    seq: number,
    author: Pick<StoredMessage, "authorType" | "authorUserId" | "authorPersonaId" | "authorName">,
    parts: StoredPart[],
    extra: {
      replyToMessageId?: string | null;
      forwardedFromName?: string | null;
      status?: MessageStatus;
      cacheTokens?: boolean;
    } = {},
  ): StoredMessage {
    const message: StoredMessage = {
      id: `m${seq}`,
      seq,
      ...author,
      parts,
      replyToMessageId: extra.replyToMessageId ?? null,
      forwardedFromName: extra.forwardedFromName ?? null,
      status: extra.status ?? "complete",
      summarizedBy: null,
      tokenCounts: {},
      createdAt: timeFor(seq),
    };
    if (extra.cacheTokens) {
      const counts = messageTokenCounts(parts, ALL_TOKENIZERS);
      message.tokenCounts = counts.tokenCounts;
      if (counts.segmentTokenCounts !== null) message.segmentTokenCounts = counts.segmentTokenCounts;
      // The message's artifacts were written just before it: counted at write time too.
      for (let index = this.artifacts.length - 1; index >= 0; index--) {
        const artifact = elementAt(this.artifacts, index);
        if (artifact.messageId !== message.id) break;
        artifact.tokenCounts = artifactTokenCounts(artifact, ALL_TOKENIZERS);
      }
    }
    this.messages.push(message);
    return message;
  }

  media(seq: number, specs: readonly MediaSpec[]): StoredPart[] {
    return specs.map((spec, index) => {
      const id = `a${seq}-${index}`;
      const kind = spec.kind === "emoji" || spec.kind === "sticker" ? "image" : spec.kind;
      const mime =
        kind === "image"
          ? spec.gif
            ? "image/gif"
            : "image/png"
          : kind === "video"
            ? "video/mp4"
            : kind === "audio"
              ? "audio/mpeg"
              : "application/pdf";
      if (!spec.missingRow) {
        this.attachments.push({
          id,
          messageId: `m${seq}`,
          kind,
          mime,
          sizeBytes: 1_000 + index,
          sha256: spec.sharedSha === null ? `sha-${id}` : `sha-shared-${spec.sharedSha}`,
          width: kind === "image" ? 64 : null,
          height: kind === "image" ? 64 : null,
          isEmoji: spec.kind === "emoji",
          isSticker: spec.kind === "sticker",
          url:
            spec.dataUrl && kind === "image"
              ? PNG_DATA_URL
              : `https://media.test/${id}.${mime.split("/")[1]}`,
          filename: `${id}.${mime.split("/")[1]}`,
        });
      }
      return { type: "media", attachmentId: id };
    });
  }

  artifact(
    seq: number,
    counter: { next: number },
    type: string,
    payload: Record<string, unknown>,
    keep = true,
  ): StoredPart {
    const id = `r${seq}-${counter.next++}`;
    if (keep) this.artifacts.push({ id, messageId: `m${seq}`, type, payload, createdAt: timeFor(seq) });
    return { type: "artifact", artifactId: id };
  }

  /** The parts of a persona message: text pieces with markers, artifacts in the order they happened. */
  personaParts(seq: number, segments: readonly Segment[]): StoredPart[] {
    const parts: StoredPart[] = [];
    const counter = { next: 0 };
    let textIndex = 0;
    for (const segment of segments) {
      switch (segment.kind) {
        case "text":
          parts.push({ type: "text", text: withMarker(segment.text, seq, textIndex++) });
          break;
        case "tool": {
          const calls: StoredPart[] = [];
          const outputs: StoredPart[] = [];
          for (let call = 0; call < segment.calls; call++) {
            const callId = `call-${seq}-${counter.next}`;
            const name = TOOL_NAMES[segment.tool];
            const args = { query: `q${seq}`, call };
            calls.push(
              this.artifact(
                seq,
                counter,
                "function_call",
                { callId, name, arguments: segment.argumentsAsString ? JSON.stringify(args) : args },
                segment.output !== "missing-call-row",
              ),
            );
            if (segment.output === "no-output") continue;
            const body = "lorem ipsum dolor sit amet "
              .repeat(Math.ceil(segment.outputChars / 27))
              .slice(0, segment.outputChars);
            outputs.push(
              this.artifact(
                seq,
                counter,
                "function_call_output",
                { callId, name, output: segment.json ? { result: body, call } : body },
                segment.output !== "missing-output-row",
              ),
            );
          }
          parts.push(...calls, ...outputs);
          break;
        }
        case "orphan-output":
          parts.push(
            this.artifact(seq, counter, "function_call_output", {
              callId: `ghost-${seq}-${counter.next}`,
              output: "stale",
            }),
          );
          break;
        case "reasoning": {
          const id = counter.next;
          const text = segment.text.trim() === "" ? segment.text : `${segment.text} ⟦r${seq}-${id}⟧`;
          const payload: Record<string, unknown> = { text };
          if (segment.providerMetadata) payload.providerMetadata = { openai: { itemId: `rs_${seq}_${id}` } };
          parts.push(this.artifact(seq, counter, "reasoning", payload, !segment.missingRow));
          break;
        }
        case "non-replayable":
          parts.push(
            this.artifact(seq, counter, elementAt(NON_REPLAYABLE_TYPES, segment.type), { query: "weather" }),
          );
          break;
        case "malformed-call": {
          const callId = `call-${seq}-${counter.next}`;
          parts.push(this.artifact(seq, counter, "function_call", { callId, arguments: "{}" }));
          parts.push(
            this.artifact(seq, counter, "function_call_output", {
              callId,
              output: "orphaned by a malformed call",
            }),
          );
          break;
        }
      }
    }
    return parts;
  }
}

function humanAuthor(human: { userId: string; name: string }) {
  return {
    authorType: "user" as const,
    authorUserId: human.userId,
    authorPersonaId: null,
    authorName: human.name,
  };
}

const PERSONA_AUTHOR = {
  authorType: "persona" as const,
  authorUserId: null,
  authorPersonaId: PERSONA_ID,
  authorName: PERSONA_NAME,
};

function blockFor(
  spec: BlockSpec,
  humans: readonly { userId: string; name: string }[],
  currentAuthorId: string,
): PersonaUserBlock {
  const human = elementAt(humans, spec.human % humans.length);
  // The route refuses a turn from a muted or blocked user, so the current author's block is always an old one.
  const expiry = human.userId === currentAuthorId ? "past" : spec.expiry;
  return {
    personaId: spec.otherPersona ? firstOf(OTHER_PERSONAS).personaId : PERSONA_ID,
    userId: human.userId,
    userName: human.name,
    blockType: spec.blockType,
    reason: spec.reason,
    expiresAt:
      expiry === "never" ? null : expiry === "past" ? "2026-02-01T00:00:00.000Z" : "2026-04-01T00:00:00.000Z",
  };
}

function modelFrom(spec: ModelSpec, id: string): ModelDescriptor {
  return {
    id,
    provider: spec.provider,
    providerModelName: `${spec.provider}-${id}`,
    apiKind: spec.provider === "openai" ? spec.apiKind : "chat",
    capabilities: {
      vision: spec.vision,
      video: spec.video,
      audio: spec.audio,
      documents: spec.documents,
      tools: spec.tools,
      reasoning: spec.reasoning,
      systemInstruction: spec.systemInstruction,
      strictAlternation: spec.strictAlternation,
      maxStopSequences: spec.maxStopSequences,
    },
    contextWindow: spec.contextWindow,
    maxOutputTokens: Math.max(16, Math.floor((spec.contextWindow * spec.outputPercent) / 100)),
    tokenizer: spec.tokenizer,
  };
}

/** The blueprint as the route would have stored it, loaded for this turn. */
export function materialise(blueprint: ConversationBlueprint): GeneratedConversation {
  const humans = HUMANS.slice(0, blueprint.humanCount);
  const writer = new ConversationWriter();
  let seq = 0;
  blueprint.messages.forEach((spec, index) => {
    seq += elementAt(blueprint.seqGaps, index);
    writeMessage(writer, spec, seq, humans);
  });

  // The current input: always some text (with its marker), maybe media.
  seq += elementAt(blueprint.seqGaps, MAX_MESSAGES);
  const currentAuthor = elementAt(humans, blueprint.current.author % humans.length);
  const currentMarker = textMarker(seq, 0);
  writer.message(
    seq,
    humanAuthor(currentAuthor),
    [
      { type: "text", text: `${blueprint.current.text} ${currentMarker}` },
      ...writer.media(seq, blueprint.current.media),
    ],
    { cacheTokens: blueprint.current.cacheTokens },
  );

  const summary = writeSummary(writer, blueprint);
  const tools = TOOL_CATALOG.filter((_, index) => blueprint.tools.enabled[index]);
  const stored = storedConversation(blueprint, { writer, summary, tools, humans, currentAuthor });
  return {
    stored,
    input: loadInput(stored),
    primary: modelFrom(blueprint.models[0], "model-primary"),
    fallback: modelFrom(blueprint.models[1], "model-fallback"),
    enabledToolNames: tools.map((tool) => tool.name),
    currentMarker,
  };
}

/** One history message of the blueprint, written as its kind of author stores it. */
function writeMessage(
  writer: ConversationWriter,
  spec: MessageSpec,
  seq: number,
  humans: readonly { userId: string; name: string }[],
): void {
  switch (spec.kind) {
    case "human":
      writeHumanMessage(writer, spec, seq, humans);
      break;
    case "persona": {
      const parts = writer.personaParts(seq, spec.segments);
      parts.push(...writer.media(seq, spec.media));
      writer.message(seq, PERSONA_AUTHOR, parts, { status: spec.status, cacheTokens: spec.cacheTokens });
      break;
    }
    case "other-persona": {
      const other = elementAt(OTHER_PERSONAS, spec.who);
      const parts: StoredPart[] = [];
      if (spec.text !== "") parts.push({ type: "text", text: withMarker(spec.text, seq, 0) });
      parts.push(...writer.media(seq, spec.media));
      writer.message(
        seq,
        {
          authorType: "persona",
          authorUserId: null,
          authorPersonaId: other.personaId,
          authorName: other.name,
        },
        parts,
        { cacheTokens: spec.cacheTokens },
      );
      break;
    }
    case "system":
    case "tool-author": {
      const parts: StoredPart[] =
        spec.text === "" ? [] : [{ type: "text", text: withMarker(spec.text, seq, 0) }];
      writer.message(
        seq,
        {
          authorType: spec.kind === "system" ? "system" : "tool",
          authorUserId: null,
          authorPersonaId: null,
          authorName: spec.kind === "system" ? "System" : "Tool",
        },
        parts,
      );
      break;
    }
  }
}

/** A human's message: text, media, maybe artifacts (never replayed there), maybe a reply or forward. */
function writeHumanMessage(
  writer: ConversationWriter,
  spec: Extract<MessageSpec, { kind: "human" }>,
  seq: number,
  humans: readonly { userId: string; name: string }[],
): void {
  const parts: StoredPart[] = [];
  if (spec.text !== "") parts.push({ type: "text", text: withMarker(spec.text, seq, 0) });
  parts.push(...writer.media(seq, spec.media));
  if (spec.withArtifact) {
    const counter = { next: 0 };
    const callId = `call-${seq}-user`;
    parts.push(writer.artifact(seq, counter, "function_call", { callId, name: "remember", arguments: {} }));
    parts.push(writer.artifact(seq, counter, "function_call_output", { callId, output: "ok" }));
  }
  const replyTarget =
    spec.replyBack > 0 ? writer.messages[writer.messages.length - spec.replyBack] : undefined;
  // Who originally sent the quoted content: a named sender (a forward, or a reply naming one), else the
  // replied-to message's author.
  const forwarded =
    spec.forwardedFrom === null
      ? null
      : spec.forwardedFrom < HUMANS.length
        ? elementAt(HUMANS, spec.forwardedFrom).name
        : "Grace";
  writer.message(seq, humanAuthor(elementAt(humans, spec.author % humans.length)), parts, {
    replyToMessageId: replyTarget?.id ?? null,
    forwardedFromName: forwarded ?? replyTarget?.authorName ?? null,
    status: spec.status,
    cacheTokens: spec.cacheTokens,
  });
}

/** The summary covers a prefix of the history (never the current input); covered messages are marked. */
function writeSummary(writer: ConversationWriter, blueprint: ConversationBlueprint): StoredSummary | null {
  if (!blueprint.summary || blueprint.messages.length === 0) return null;
  const coverIndex = blueprint.summary.coverIndex % blueprint.messages.length;
  const coversThroughSeq = elementAt(writer.messages, coverIndex).seq;
  const summary: StoredSummary = {
    id: "s-prop",
    content: blueprint.summary.content,
    coversThroughSeq,
    messageCount: coverIndex + 1,
    createdAt: "2026-02-15T08:00:00.000Z",
  };
  for (const message of writer.messages)
    if (message.seq <= coversThroughSeq) message.summarizedBy = summary.id;
  return summary;
}

/** Everything stored for the conversation besides its rows: persona, people, blocks, memories, notes, settings. */
function storedConversation(
  blueprint: ConversationBlueprint,
  written: {
    writer: ConversationWriter;
    summary: StoredSummary | null;
    tools: ToolInfo[];
    humans: readonly { userId: string; name: string }[];
    currentAuthor: { userId: string; name: string };
  },
): StoredConversation {
  const { writer, summary, tools, humans, currentAuthor } = written;
  const settings = structuredClone(blueprint.settings);
  settings.contextNote.text =
    blueprint.notes.global === null ? "" : noteText(blueprint.notes.global, "global");
  const stored: StoredConversation = {
    messages: writer.messages,
    attachments: writer.attachments,
    artifacts: writer.artifacts,
    summary,
    mistakenlyLoaded: blueprint.summary?.mistakenlyLoaded ?? 0,
    currentStored: blueprint.current.stored,
    persona: { id: PERSONA_ID, name: PERSONA_NAME, systemPrompt: blueprint.systemPrompt },
    participants: humans
      .filter((_, index) => blueprint.listedParticipants[index])
      .map((human) => ({ ...human })),
    blocks: blueprint.blocks.map((spec) => blockFor(spec, humans, currentAuthor.userId)),
    memories: blueprint.memories.map((memory, index) => ({
      id: `mem${index}`,
      area: memory.area,
      content: memory.content,
      conversationId: memory.thisConversation ? CONVERSATION_ID : "conv-other",
      summaryId: memory.area === "session_summary" ? "s-old" : null,
    })),
    tools,
    settings,
    personaNote: blueprint.notes.persona === null ? null : noteText(blueprint.notes.persona, "persona"),
    conversationNote:
      blueprint.notes.conversation === null ? null : noteText(blueprint.notes.conversation, "conversation"),
    conversationInstructions: blueprint.instructions,
    impersonateUserId: blueprint.impersonate ? currentAuthor.userId : null,
  };
  if (blueprint.tools.maxToolSteps !== null) stored.maxToolSteps = blueprint.tools.maxToolSteps;
  return stored;
}

/** A note's text with its marker; a blank note stays blank (it does not count as a note). */
function noteText(text: string, source: string): string {
  return text.trim() === "" ? text : `${text} ⟦note:${source}⟧`;
}

/**
 * The route's loader: the messages after the active summary (summarizedBy null), the newest `messageFetchLimit` of
 * them (the stored current input among them; a draft takes one slot), their attachment and artifact rows.
 */
export function loadInput(stored: StoredConversation): BuildInput {
  const currentInput = lastOf(stored.messages);
  const uncovered = stored.messages.filter((message) => message.summarizedBy === null);
  const limit = stored.settings.history.messageFetchLimit;
  let loaded: StoredMessage[];
  let candidates: StoredMessage[];
  if (stored.currentStored) {
    candidates = uncovered;
    loaded = uncovered.slice(-limit);
  } else {
    candidates = uncovered.slice(0, -1);
    loaded = limit - 1 > 0 ? candidates.slice(-(limit - 1)) : [];
  }
  // As the route's loader reports it: older unsummarised messages the fetch limit left out.
  const omittedCount = candidates.length - loaded.length;
  const loadedWindow =
    omittedCount > 0 && loaded[0] !== undefined ? { omittedBeforeSeq: loaded[0].seq, omittedCount } : null;
  if (stored.mistakenlyLoaded > 0) {
    const covered = stored.messages.filter((message) => message.summarizedBy !== null);
    loaded = [...covered.slice(-stored.mistakenlyLoaded), ...loaded];
  }
  const loadedIds = new Set(loaded.map((message) => message.id));
  loadedIds.add(currentInput.id);
  const input: BuildInput = {
    conversationId: CONVERSATION_ID,
    persona: stored.persona,
    participants: stored.participants,
    messages: loaded,
    attachments: stored.attachments.filter((row) => loadedIds.has(row.messageId)),
    artifacts: stored.artifacts.filter((row) => loadedIds.has(row.messageId)),
    summary: stored.summary,
    blocks: stored.blocks,
    memories: stored.memories,
    tools: stored.tools,
    settings: stored.settings,
    personaNote: stored.personaNote,
    conversationNote: stored.conversationNote,
    conversationInstructions: stored.conversationInstructions,
    currentInput,
    impersonateUserId: stored.impersonateUserId,
    userTurnNumber: countUserTurns(loaded, currentInput),
    now: NOW,
    loadedWindow,
  };
  if (stored.maxToolSteps !== undefined) input.maxToolSteps = stored.maxToolSteps;
  return input;
}

export interface AppendedTurn {
  replyText: string;
  nextText: string;
  /** The next message's author; defaults to the previous input's author. */
  nextAuthor?: { userId: string; name: string };
  /** A new summary written before the next turn, covering through this seq. */
  newSummaryThroughSeq?: number | null;
}

/** The conversation one turn later: the persona's reply to the current input, then a new user message. */
export function appendTurn(
  stored: StoredConversation,
  turn: AppendedTurn,
): { stored: StoredConversation; currentMarker: string } {
  const previous = lastOf(stored.messages);
  const replySeq = previous.seq + 1;
  const nextSeq = previous.seq + 2;
  const messages = stored.messages.map((message) => ({ ...message }));
  const replyText = turn.replyText.trim() === "" ? "ok" : turn.replyText;
  messages.push({
    id: `m${replySeq}`,
    seq: replySeq,
    ...PERSONA_AUTHOR,
    parts: [{ type: "text", text: `${replyText} ${textMarker(replySeq, 0)}` }],
    replyToMessageId: null,
    forwardedFromName: null,
    status: "complete",
    summarizedBy: null,
    tokenCounts: {},
    createdAt: timeFor(replySeq),
  });
  const author = turn.nextAuthor ?? {
    userId: previous.authorUserId ?? firstOf(HUMANS).userId,
    name: previous.authorName,
  };
  const currentMarker = textMarker(nextSeq, 0);
  messages.push({
    id: `m${nextSeq}`,
    seq: nextSeq,
    ...humanAuthor(author),
    parts: [{ type: "text", text: `${turn.nextText} ${currentMarker}` }],
    replyToMessageId: null,
    forwardedFromName: null,
    status: "complete",
    summarizedBy: null,
    tokenCounts: {},
    createdAt: timeFor(nextSeq),
  });
  let summary = stored.summary;
  if (turn.newSummaryThroughSeq != null) {
    const through = turn.newSummaryThroughSeq;
    summary = {
      id: "s-prop-2",
      content: "A newer summary of everything so far.",
      coversThroughSeq: through,
      messageCount: messages.filter((message) => message.seq <= through).length,
      createdAt: "2026-02-20T08:00:00.000Z",
    };
    for (const message of messages) if (message.seq <= through) message.summarizedBy = summary.id;
  }
  return { stored: { ...stored, messages, summary }, currentMarker };
}

export const conversationArbitrary: fc.Arbitrary<GeneratedConversation> = blueprintArbitrary.map(materialise);
