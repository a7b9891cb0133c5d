// Phase A's role mapping and speaker labels (docs/pipeline.md#role-mapping). The conversation's persona
// speaks as the assistant; other personas and every human are users. When generating as a user (impersonation),
// that user's messages become the assistant's and the persona's become user turns. Every item keeps `sender`
// metadata, whatever the labels.

import type { ResolvedSettings } from "@/lib/domain/settings";
import type {
  ContextItem,
  ItemPart,
  ItemRole,
  ItemSender,
  ParticipantInfo,
  PersonaInfo,
  StoredMessage,
  TokenizerName,
  TraceEvent,
} from "@/lib/domain/types";
import {
  type HistoryEntry,
  hasArtifactParts,
  hasText,
  isPureText,
  type MessageRun,
  messageItemId,
  messageText,
  roleFor,
  textSegmentMetadata,
  textSegments,
} from "./messages";
import type { PhaseAContext, SourcedItems, VisibleHistory } from "./phases";
import type { Stage, StageResult } from "./stage";
import { countTextTokens, TOKENS_PER_MESSAGE } from "./tokens";
import { traceEvent } from "./trace";

/** Who wrote the message. Always the same four keys (null when not applicable), so every sender has one shape. */
export function senderOf(message: StoredMessage): ItemSender {
  return {
    type: message.authorType,
    name: message.authorName,
    userId: message.authorUserId,
    personaId: message.authorPersonaId,
  };
}

/**
 * Labels are on with "always", off with "never"; "auto" turns them on when more than one human or more than one
 * persona takes part (authors of the loaded messages and the current input, plus the listed participants).
 */
export function speakerLabelsOn(args: {
  mode: ResolvedSettings["history"]["speakerLabels"];
  messages: readonly StoredMessage[];
  currentInput: StoredMessage | null;
  persona: PersonaInfo;
  participants: readonly ParticipantInfo[];
}): { on: boolean; humans: number; personas: number } {
  const humans = new Set<string>();
  const personas = new Set<string>([args.persona.id]);
  // This looks at every loaded message: the author just added is skipped without hashing it again.
  let lastHuman: string | null = null;
  let lastPersona: string | null = null;
  const count = (message: StoredMessage) => {
    if (message.authorType === "user") {
      const userId = message.authorUserId;
      if (userId !== null && userId !== lastHuman) {
        humans.add(userId);
        lastHuman = userId;
      }
    } else if (message.authorType === "persona") {
      const personaId = message.authorPersonaId;
      if (personaId !== null && personaId !== lastPersona) {
        personas.add(personaId);
        lastPersona = personaId;
      }
    }
  };
  for (const message of args.messages) count(message);
  if (args.currentInput) count(args.currentInput);
  for (const participant of args.participants) humans.add(participant.userId);
  const on = args.mode === "always" || (args.mode === "auto" && (humans.size > 1 || personas.size > 1));
  return { on, humans: humans.size, personas: personas.size };
}

const SYSTEM_BLOCK_START = "[System:";

/**
 * Split leading `[System: …]` blocks off a text (balanced brackets), so a label goes after them:
 * "[System: x]\nAda: rest". Returns no blocks when the text does not start with one.
 */
export function splitLeadingSystemBlocks(text: string): { blocks: string[]; rest: string } {
  const blocks: string[] = [];
  let rest = text;
  while (rest.startsWith(SYSTEM_BLOCK_START)) {
    let depth = 0;
    let end = -1;
    for (let i = 0; i < rest.length; i++) {
      const char = rest[i];
      if (char === "[") depth++;
      else if (char === "]" && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end === -1) break;
    blocks.push(rest.slice(0, end + 1));
    rest = rest.slice(end + 1).replace(/^\s+/, "");
  }
  return { blocks, rest };
}

/** "Name: text", keeping leading system blocks unlabelled above the line; a pure system text stays as it is. */
export function labelText(name: string, text: string): string {
  if (!text.startsWith(SYSTEM_BLOCK_START)) return `${name}: ${text}`;
  const { blocks, rest } = splitLeadingSystemBlocks(text);
  if (blocks.length === 0) return `${name}: ${text}`;
  if (rest === "") return text;
  return `${blocks.join("\n")}\n${name}: ${rest}`;
}

/** Stored system and tool messages are shown as system notices, never labelled and never as a system role. */
export function systemNoticeText(text: string): string {
  return text.startsWith(SYSTEM_BLOCK_START) ? text : `[System: ${text}]`;
}

interface MappingContext {
  personaId: string;
  impersonateUserId: string | null | undefined;
  labels: boolean;
  tokenizer: TokenizerName | null;
  /** Tokens of "Name: " per author name, counted once per build. */
  labelTokens: Map<string, number>;
  /** One sender object per author, shared by that author's items (items are never mutated). */
  senders: Map<string, ItemSender[]>;
}

/** The author's shared sender object: same values as senderOf, one allocation per author instead of per item. */
function sharedSender(message: StoredMessage, context: MappingContext): ItemSender {
  const key = message.authorUserId ?? message.authorPersonaId ?? message.authorName;
  let list = context.senders.get(key);
  if (list === undefined) {
    list = [];
    context.senders.set(key, list);
  }
  for (const sender of list) {
    if (
      sender.type === message.authorType &&
      sender.name === message.authorName &&
      sender.userId === message.authorUserId &&
      sender.personaId === message.authorPersonaId
    )
      return sender;
  }
  const sender = senderOf(message);
  list.push(sender);
  return sender;
}

function decorate(
  message: StoredMessage,
  text: string,
  isFirstSegment: boolean,
  context: MappingContext,
): string {
  if (message.authorType === "system" || message.authorType === "tool") return systemNoticeText(text);
  return context.labels && isFirstSegment ? labelText(message.authorName, text) : text;
}

/**
 * Cached token count of a text item (one message or a collapsed run) under the chosen tokenizer: the messages'
 * cached counts, a newline token between collapsed messages, the label, and the per-message framing. An assistant
 * message split around its tool calls (`split`) adds up its cached segment counts instead. 0 (count later) when a
 * count is missing, the message carries media (the media budget rewrites it) or its text is rewritten (system
 * notices).
 */
function cachedTokens(
  messages: Readonly<MessageRun>,
  context: MappingContext,
  splitSegments: number | null,
): number {
  const tokenizer = context.tokenizer;
  if (tokenizer === null) return 0;
  const first = messages[0];
  if (first.authorType === "system" || first.authorType === "tool") return 0;
  let total = TOKENS_PER_MESSAGE + (messages.length - 1);
  if (splitSegments !== null) {
    const segments = first.segmentTokenCounts?.[tokenizer];
    if (
      segments === undefined ||
      segments.length !== splitSegments ||
      splitSegments === 0 ||
      hasMediaParts(first)
    )
      return 0;
    for (const count of segments) total += count;
  } else {
    for (const message of messages) {
      if (messages.length > 1 ? !isPureText(message) : hasMediaParts(message)) return 0;
      const cached = message.tokenCounts?.[tokenizer];
      if (cached === undefined) return 0;
      total += cached;
    }
  }
  if (context.labels) {
    // Keyed by the name: the label string is only built the first time a name is seen.
    let labelCount = context.labelTokens.get(first.authorName);
    if (labelCount === undefined) {
      labelCount = countTextTokens(`${first.authorName}: `, tokenizer);
      context.labelTokens.set(first.authorName, labelCount);
    }
    total += labelCount;
  }
  return total;
}

function hasMediaParts(message: StoredMessage): boolean {
  for (const part of message.parts) if (part.type === "media") return true;
  return false;
}

function messageItem(
  messages: Readonly<MessageRun>,
  tag: "DIALOGUE_HISTORY" | "CURRENT_INPUT",
  role: ItemRole,
  context: MappingContext,
): ContextItem {
  const first = messages[0];
  let splitSegments: number | null = null;
  // Parts arrays are made at their final size (an empty array grown by push reserves room for 17).
  let parts: ItemPart[];
  if (messages.length > 1) {
    // A collapsed run of pure-text messages: one text, one label.
    // System notices are wrapped one by one, so each stays a whole `[System: …]` line.
    const notices = first.authorType === "system" || first.authorType === "tool";
    let text: string;
    if (notices) {
      // A blank notice would be an empty "[System: ]" line: left out.
      text = "";
      for (const message of messages) {
        const next = messageText(message);
        if (hasText(next)) text = text === "" ? systemNoticeText(next) : `${text}\n${systemNoticeText(next)}`;
      }
    } else {
      text = messageText(first);
      for (const message of messages.slice(1)) text = `${text}\n${messageText(message)}`;
    }
    parts = hasText(text)
      ? [{ type: "text", text: notices ? text : decorate(first, text, true, context) }]
      : [];
  } else if (role === "assistant" && hasArtifactParts(first)) {
    // Text pieces stay apart so artifact replay can put the tool calls back between them.
    const segments = textSegments(first);
    const metadata = textSegmentMetadata(first);
    splitSegments = segments.length;
    parts = segments.map((segment, i): ItemPart => {
      const part: ItemPart = { type: "text", text: decorate(first, segment, i === 0, context) };
      const providerMetadata = metadata[i];
      if (providerMetadata !== undefined) part.providerMetadata = providerMetadata;
      return part;
    });
  } else {
    const text = messageText(first);
    parts = hasText(text) ? [{ type: "text", text: decorate(first, text, true, context) }] : [];
    // The provider's tags on a reply's text go back with it (a collapsed run has none: tagged text never collapses).
    const providerMetadata = role === "assistant" ? textSegmentMetadata(first)[0] : undefined;
    const onlyPart = parts[0];
    if (providerMetadata !== undefined && onlyPart?.type === "text")
      onlyPart.providerMetadata = providerMetadata;
  }
  return {
    id: messageItemId(first.id),
    role,
    tag,
    parts,
    sourceMessageIds: messages.length === 1 ? [first.id] : messages.map((message) => message.id),
    sender: sharedSender(first, context),
    tokens: cachedTokens(messages, context, splitSegments),
  };
}

/**
 * Map history entries and the current input to items. Items may still have no parts (a media-only or
 * artifact-only message): the media budget and artifact replay fill them, and artifact replay drops the ones left
 * empty. `tokenizer` selects which cached per-message count fills `item.tokens` (null: leave every count at 0).
 */
export function mapRoles(args: {
  entries: readonly HistoryEntry[];
  currentInput: StoredMessage;
  persona: PersonaInfo;
  participants: readonly ParticipantInfo[];
  /** Every loaded message, blocked ones included: they decide whether "auto" labels are on. */
  allMessages: readonly StoredMessage[];
  impersonateUserId?: string | null;
  settings: ResolvedSettings;
  tokenizer?: TokenizerName | null;
}): StageResult<{
  history: ContextItem[];
  current: ContextItem;
  /** The message each history item is exactly (null for notices and collapsed runs), parallel to `history`. */
  historySources: (StoredMessage | null)[];
}> {
  const trace: TraceEvent[] = [];
  const labels = speakerLabelsOn({
    mode: args.settings.history.speakerLabels,
    messages: args.allMessages,
    currentInput: args.currentInput,
    persona: args.persona,
    participants: args.participants,
  });
  const context: MappingContext = {
    personaId: args.persona.id,
    impersonateUserId: args.impersonateUserId,
    labels: labels.on,
    tokenizer: args.tokenizer === undefined ? null : args.tokenizer,
    labelTokens: new Map(),
    senders: new Map(),
  };

  const history: ContextItem[] = new Array(args.entries.length);
  const historySources: (StoredMessage | null)[] = new Array(args.entries.length);
  for (let i = 0; i < args.entries.length; i++) {
    const entry = args.entries[i];
    if (entry === undefined) continue;
    historySources[i] = entry.kind === "message" && entry.messages.length === 1 ? entry.messages[0] : null;
    if (entry.kind === "notice") {
      history[i] = {
        id: entry.id,
        role: "user",
        tag: "DIALOGUE_HISTORY",
        parts: [{ type: "text", text: entry.text }],
        sourceMessageIds: entry.sourceMessageIds,
        sender: entry.sender,
        tokens: 0,
      };
    } else {
      const role = roleFor(entry.messages[0], args.persona.id, args.impersonateUserId);
      history[i] = messageItem(entry.messages, "DIALOGUE_HISTORY", role, context);
    }
  }
  // The current input is the user's turn, whoever is being impersonated.
  const current = messageItem([args.currentInput], "CURRENT_INPUT", "user", context);

  if (labels.on && args.settings.history.speakerLabels === "auto") {
    trace.push(
      traceEvent(
        "roles",
        "speaker-labels-on",
        `speaker labels on: ${labels.humans} humans and ${labels.personas} personas take part`,
        {
          counts: { humans: labels.humans, personas: labels.personas },
        },
      ),
    );
  }
  if (args.impersonateUserId) {
    trace.push(
      traceEvent(
        "roles",
        "impersonation",
        "generating as a user: their messages are the assistant's, the persona's are user turns",
        {
          details: { userId: args.impersonateUserId },
        },
      ),
    );
  }
  return { value: { history, current, historySources }, trace };
}

/**
 * Phase A: entries become items with roles, speaker labels and sender metadata; the current input becomes its
 * item here, held apart until the last stage.
 */
export const rolesStage: Stage<VisibleHistory, SourcedItems, PhaseAContext> = {
  name: "roles",
  run({ loaded, entries, originals }, { input, settings, tokenizer }) {
    const mapped = mapRoles({
      entries,
      currentInput: input.currentInput,
      persona: input.persona,
      participants: input.participants,
      allMessages: loaded,
      impersonateUserId: input.impersonateUserId,
      settings,
      tokenizer,
    });
    const { history, historySources, current } = mapped.value;
    return {
      value: { items: history, sources: loadedSources(historySources, originals), current },
      trace: mapped.trace,
    };
  },
};

/**
 * The loaded message each history item was made from, as a lookup by id would give it: the blocks stage hands on a
 * copy of a message whose reply annotation it dropped, and its original is what later stages see.
 */
function loadedSources(
  sources: (StoredMessage | null)[],
  originals: ReadonlyMap<StoredMessage, StoredMessage> | null,
): (StoredMessage | null)[] {
  if (originals === null) return sources;
  return sources.map((source) => (source === null ? null : (originals.get(source) ?? source)));
}
