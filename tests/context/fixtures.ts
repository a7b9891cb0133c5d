// Small builders for pipeline tests: stored messages, attachments, artifacts, summaries, blocks and a complete
// BuildInput with sensible defaults. Shared by the phase-A and phase-B stage tests and the property tests, so
// every builder takes plain overrides and nothing here depends on a test framework.
//
// Conventions: a message with seq N has id "m<N>" and createdAt 2026-01-01 + N minutes (UTC); the conversation
// is "c1" with persona Aria ("p-aria"), owner Ada ("u-ada"). Everything is deterministic.

import {
  defaultSettings,
  type ResolvedSettings,
  resolveSettings,
  type SettingsOverride,
} from "@/lib/domain/settings";
import type {
  BuildInput,
  ContextItem,
  ItemPart,
  MediaDescriptor,
  ModelCapabilities,
  ModelDescriptor,
  PersonaInfo,
  PersonaUserBlock,
  StoredArtifact,
  StoredAttachment,
  StoredMessage,
  StoredPart,
  StoredSummary,
  TokenizerName,
} from "@/lib/domain/types";

export const CONVERSATION_ID = "c1";
export const PERSONA: PersonaInfo = {
  id: "p-aria",
  name: "Aria",
  systemPrompt: "You are Aria, a helpful guide.",
};
export const ADA = { userId: "u-ada", name: "Ada" } as const;
export const BOB = { userId: "u-bob", name: "Bob" } as const;
export const MALLORY = { userId: "u-mal", name: "Mallory" } as const;
export const OTHER_PERSONA = { personaId: "p-zed", name: "Zed" } as const;
/** The fixed "now" of every fixture build. */
export const NOW = "2026-03-01T12:00:00.000Z";

const BASE_TIME = Date.UTC(2026, 0, 1, 0, 0, 0);

/** createdAt for a message of the given seq: 2026-01-01T00:00Z + seq minutes. */
export function timeForSeq(seq: number): string {
  return new Date(BASE_TIME + seq * 60_000).toISOString();
}

export interface MessageOptions {
  /** Defaults to "m<seq>". */
  id?: string;
  /** Extra parts after the text (media, artifacts); or use `parts` to give every part yourself. */
  media?: string[];
  artifacts?: string[];
  parts?: StoredPart[];
  replyToMessageId?: string | null;
  forwardedFromName?: string | null;
  status?: StoredMessage["status"];
  summarizedBy?: string | null;
  tokenCounts?: Partial<Record<TokenizerName, number>>;
}

function partsFor(text: string, options: MessageOptions): StoredPart[] {
  if (options.parts) return options.parts;
  const parts: StoredPart[] = [];
  if (text !== "") parts.push({ type: "text", text });
  for (const attachmentId of options.media ?? []) parts.push({ type: "media", attachmentId });
  for (const artifactId of options.artifacts ?? []) parts.push({ type: "artifact", artifactId });
  return parts;
}

type Author = Pick<StoredMessage, "authorType" | "authorUserId" | "authorPersonaId" | "authorName">;

/**
 * Every fixture message has the same keys in the same order (like rows mapped from the database), so benchmarks
 * and property tests over fixtures see one object shape. Optional fields are always present (null / {}).
 */
function makeMessage(seq: number, text: string, author: Author, options: MessageOptions): StoredMessage {
  return {
    id: options.id ?? `m${seq}`,
    seq,
    authorType: author.authorType,
    authorUserId: author.authorUserId,
    authorPersonaId: author.authorPersonaId,
    authorName: author.authorName,
    parts: partsFor(text, options),
    replyToMessageId: options.replyToMessageId ?? null,
    forwardedFromName: options.forwardedFromName ?? null,
    status: options.status ?? "complete",
    summarizedBy: options.summarizedBy ?? null,
    tokenCounts: options.tokenCounts ?? {},
    createdAt: timeForSeq(seq),
  };
}

/** A message by a human. `author` defaults to Ada. */
export function userMessage(
  seq: number,
  text: string,
  options: MessageOptions & { author?: { userId: string; name: string } } = {},
): StoredMessage {
  const author = options.author ?? ADA;
  return makeMessage(
    seq,
    text,
    { authorType: "user", authorUserId: author.userId, authorPersonaId: null, authorName: author.name },
    options,
  );
}

/** A message by a persona. `persona` defaults to the conversation's persona (Aria). */
export function personaMessage(
  seq: number,
  text: string,
  options: MessageOptions & { persona?: { personaId: string; name: string } } = {},
): StoredMessage {
  const persona = options.persona ?? { personaId: PERSONA.id, name: PERSONA.name };
  return makeMessage(
    seq,
    text,
    {
      authorType: "persona",
      authorUserId: null,
      authorPersonaId: persona.personaId,
      authorName: persona.name,
    },
    options,
  );
}

/** A system notice stored in the conversation (e.g. "Bob joined"). */
export function systemMessage(seq: number, text: string, options: MessageOptions = {}): StoredMessage {
  return makeMessage(
    seq,
    text,
    { authorType: "system", authorUserId: null, authorPersonaId: null, authorName: "System" },
    options,
  );
}

export interface AttachmentOptions extends Partial<Omit<StoredAttachment, "id" | "messageId">> {}

/** An image attachment; sha256 defaults to "sha-<id>" so images are distinct unless you share a sha. */
export function imageAttachment(
  id: string,
  messageId: string,
  options: AttachmentOptions = {},
): StoredAttachment {
  return {
    id,
    messageId,
    kind: "image",
    mime: "image/png",
    sizeBytes: 1_000,
    sha256: `sha-${id}`,
    width: 64,
    height: 64,
    isEmoji: false,
    isSticker: false,
    url: `https://media.test/${id}.png`,
    filename: `${id}.png`,
    ...options,
  };
}

/** A video attachment: the image's defaults with a video's kind, type and name. */
export const videoAttachment: typeof imageAttachment = (id, messageId, options = {}) =>
  imageAttachment(id, messageId, {
    kind: "video",
    mime: "video/mp4",
    url: `https://media.test/${id}.mp4`,
    filename: `${id}.mp4`,
    ...options,
  });

export function functionCallArtifact(
  id: string,
  messageId: string,
  callId: string,
  name: string,
  args: unknown = {},
): StoredArtifact {
  return {
    id,
    messageId,
    type: "function_call",
    payload: { callId, name, arguments: args },
    createdAt: timeForSeq(0),
  };
}

export function functionOutputArtifact(
  id: string,
  messageId: string,
  callId: string,
  output: unknown,
  name?: string,
): StoredArtifact {
  const payload: Record<string, unknown> = { callId, output };
  if (name !== undefined) payload.name = name;
  return { id, messageId, type: "function_call_output", payload, createdAt: timeForSeq(0) };
}

export function reasoningArtifact(id: string, messageId: string, text: string): StoredArtifact {
  return { id, messageId, type: "reasoning", payload: { text }, createdAt: timeForSeq(0) };
}

export function artifactOfType(
  id: string,
  messageId: string,
  type: string,
  payload: Record<string, unknown> = {},
): StoredArtifact {
  return { id, messageId, type, payload, createdAt: timeForSeq(0) };
}

export function summaryRecord(
  overrides: Partial<StoredSummary> & { coversThroughSeq: number },
): StoredSummary {
  return {
    id: "s1",
    content: "Earlier, Ada planned a trip to Lisbon.",
    messageCount: overrides.coversThroughSeq,
    createdAt: "2026-02-01T09:30:00.000Z",
    ...overrides,
  };
}

export function blockRecord(overrides: Partial<PersonaUserBlock> = {}): PersonaUserBlock {
  return {
    personaId: PERSONA.id,
    userId: MALLORY.userId,
    userName: MALLORY.name,
    blockType: "block",
    reason: "spam",
    expiresAt: null,
    ...overrides,
  };
}

/** Resolved settings: the global defaults with an override applied (validated by the caller's tests, not here). */
export function settingsWith(override: SettingsOverride = {}): ResolvedSettings {
  return resolveSettings(defaultSettings(), override);
}

/**
 * A complete BuildInput. `messages` defaults to none and `currentInput` to a message by Ada at the next seq
 * ("Hello?"). Pass `settings` as an override document (merged over the defaults) or `resolvedSettings` whole.
 */
export function buildInput(
  overrides: Partial<Omit<BuildInput, "settings">> & {
    settings?: SettingsOverride;
    resolvedSettings?: ResolvedSettings;
  } = {},
): BuildInput {
  const { settings, resolvedSettings, ...rest } = overrides;
  const messages = rest.messages ?? [];
  const lastSeq = messages.at(-1)?.seq ?? 0;
  return {
    conversationId: CONVERSATION_ID,
    persona: PERSONA,
    participants: [],
    messages,
    attachments: [],
    artifacts: [],
    summary: null,
    blocks: [],
    memories: [],
    tools: [],
    personaNote: null,
    conversationNote: null,
    conversationInstructions: null,
    currentInput: rest.currentInput ?? userMessage(lastSeq + 1, "Hello?"),
    impersonateUserId: null,
    userTurnNumber: 1,
    now: NOW,
    ...rest,
    settings: resolvedSettings ?? settingsWith(settings ?? {}),
  };
}

/** A simple alternating conversation: user ("u<seq>") and persona ("a<seq>") messages from seq 1 to count. */
export function alternatingMessages(count: number, startSeq = 1): StoredMessage[] {
  const messages: StoredMessage[] = [];
  for (let seq = startSeq; seq < startSeq + count; seq++) {
    messages.push((seq - startSeq) % 2 === 0 ? userMessage(seq, `u${seq}`) : personaMessage(seq, `a${seq}`));
  }
  return messages;
}

/** Freeze a value and everything reachable from it, so a test fails if a build mutates its inputs. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** A compact, readable view of an item for exact assertions: id, role, tag and its parts as strings. */
export interface ItemView {
  id: string;
  role: ContextItem["role"];
  tag: ContextItem["tag"];
  text: string;
}

/** The view of an item, its fields in ItemView's order: an expected row of `viewItems`. */
export function view(id: string, role: ContextItem["role"], tag: ContextItem["tag"], text: string): ItemView {
  return { id, role, tag, text };
}

/** The view of a system item: its id is `system:<tag>`. */
export function systemView(tag: ContextItem["tag"], text: string): ItemView {
  return view(`system:${tag}`, "system", tag, text);
}

/** A hand-made dialogue item: the id doubles as its message's id; uncounted unless `extra` gives `tokens`. */
export function dialogueItem(
  id: string,
  role: ContextItem["role"],
  parts: ItemPart[],
  extra: Partial<ContextItem> = {},
): ContextItem {
  return { id, role, tag: "DIALOGUE_HISTORY", parts, sourceMessageIds: [id], tokens: 0, ...extra };
}

export const textPart = (value: string): ItemPart => ({ type: "text", text: value });

export function partsText(parts: ItemPart[]): string {
  return parts.map(partText).join(" | ");
}

function partText(part: ItemPart): string {
  switch (part.type) {
    case "text":
      return part.text;
    case "media":
      return `«media:${part.descriptor.handle}:${part.descriptor.state}:${part.descriptor.attachmentId}»`;
    case "tool-call":
      return `«call:${part.toolCallId}:${part.toolName}:${JSON.stringify(part.input)}»`;
    case "tool-result":
      return `«result:${part.toolCallId}:${typeof part.output === "string" ? part.output : JSON.stringify(part.output)}»`;
    case "reasoning":
      return `«reasoning:${part.text}»`;
    default:
      return `«${part.type}:${part.handle}»`;
  }
}

export function viewItems(items: readonly ContextItem[]): ItemView[] {
  return items.map((item) => ({ id: item.id, role: item.role, tag: item.tag, text: partsText(item.parts) }));
}

/** The text of an item's first text part ("" when it has none). */
export function firstText(item: ContextItem): string {
  for (const part of item.parts) if (part.type === "text") return part.text;
  return "";
}

/** What a test model can do unless told otherwise: see images, call tools, take a system role, 4 stop strings. */
export const TEST_MODEL_CAPABILITIES: Readonly<ModelCapabilities> = {
  vision: true,
  video: false,
  audio: false,
  documents: false,
  tools: true,
  reasoning: false,
  systemInstruction: true,
  strictAlternation: false,
  maxStopSequences: 4,
};

/** A model descriptor for tests: a plain vision-capable OpenAI chat model unless told otherwise. */
export function modelDescriptor(
  overrides: Partial<Omit<ModelDescriptor, "capabilities">> = {},
  capabilities: Partial<ModelCapabilities> = {},
): ModelDescriptor {
  return {
    id: "test-model",
    provider: "openai",
    providerModelName: "m",
    apiKind: "chat",
    capabilities: { ...TEST_MODEL_CAPABILITIES, ...capabilities },
    contextWindow: 128_000,
    maxOutputTokens: 4_096,
    tokenizer: "estimate",
    ...overrides,
  };
}

/** A valid 1×1 PNG, as a data: URL. */
export const PNG_DATA_URL =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** A media descriptor of Ada's first message: a PNG to render unless `overrides` say otherwise. */
export function mediaDescriptor(handle: string, overrides: Partial<MediaDescriptor> = {}): MediaDescriptor {
  return {
    handle,
    attachmentId: `att-${handle}`,
    kind: "image",
    mime: "image/png",
    url: PNG_DATA_URL,
    sha256: `sha-${handle}`,
    state: "render",
    senderName: "Ada",
    messageSeq: 1,
    ...overrides,
  };
}
