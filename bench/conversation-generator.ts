// A deterministic, seeded generator of stored conversations for the benchmark: what the database would hand the
// pipeline for a long chat. Text of varied length (with cached token counts, as the app stores them), images with
// sha256 (some repeated, some emoji), assistant turns with tool call / output artifact pairs (some outputs large),
// reasoning, runs of short messages by one author, a second human, a blocked user, system notices, replies and
// forwards, an active summary, notes and memories. The same seed and size always give the same conversation.

import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countUserTurns } from "@/lib/context/current-input";
import { artifactTokenCounts } from "@/lib/context/token-cache";
import { defaultSettings, type ResolvedSettings } from "@/lib/domain/settings";
import type {
  BuildInput,
  ParticipantInfo,
  PersonaInfo,
  StoredArtifact,
  StoredAttachment,
  StoredMessage,
  StoredPart,
  StoredSummary,
  ToolInfo,
} from "@/lib/domain/types";

// ---------------------------------------------------------------------------------------------------------------
// Seeded randomness (mulberry32): small, fast, and the same sequence on every machine.

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(list: readonly T[]): T;
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick: (list) => list[Math.floor(next() * list.length)],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Text. Messages are made of sentences from a fixed pool whose o200k counts are known, so a message's cached count
// is the sum of its sentences' counts (sentences join with a space; o200k pre-tokenises at that boundary, so the
// sum is exact) and generating 100 000 messages does not tokenise 100 000 texts.

const WORDS = (
  "the a trip to Lisbon plan budget hotel flight museum tram river coffee pastry morning evening ticket station " +
  "weather rain sunny map street old town castle view bridge dinner fish wine market week day night price " +
  "booking review guide walk tour photo beach train bus airport taxi bag passport friend family question answer " +
  "because maybe really quite nice about around should could would please thanks okay great idea list option " +
  "compare cheaper faster better earlier later schedule itinerary restaurant reservation vegetarian menu tip"
).split(" ");

interface Sentence {
  text: string;
  /** o200k tokens of the sentence alone (first in a message). */
  tokensFirst: number;
  /** o200k tokens of " " + sentence (after another sentence). */
  tokensAfter: number;
  /** Characters, for the estimate tokenizer (ceil(length / 4) of the whole text). */
  length: number;
}

function makeSentencePool(random: Random, size: number): Sentence[] {
  const pool: Sentence[] = [];
  for (let index = 0; index < size; index++) {
    const wordCount = random.int(4, 22);
    const words: string[] = [];
    for (let w = 0; w < wordCount; w++) words.push(random.pick(WORDS));
    if (random.chance(0.3)) words.push(String(random.int(1, 2_000)));
    words[0] = words[0][0].toUpperCase() + words[0].slice(1);
    const text = `${words.join(" ")}${random.pick([".", ".", ".", "?", "!"])}`;
    pool.push({
      text,
      tokensFirst: countO200k(text),
      tokensAfter: countO200k(` ${text}`),
      length: text.length,
    });
  }
  return pool;
}

/** A paragraph of `count` sentences and its exact o200k count. */
function paragraph(
  random: Random,
  pool: readonly Sentence[],
  count: number,
): { text: string; tokens: number } {
  let text = "";
  let tokens = 0;
  for (let index = 0; index < count; index++) {
    const sentence = random.pick(pool);
    if (index === 0) {
      text = sentence.text;
      tokens = sentence.tokensFirst;
    } else {
      text += ` ${sentence.text}`;
      tokens += sentence.tokensAfter;
    }
  }
  return { text, tokens };
}

/** Sentence counts: mostly short chat lines, some paragraphs, a few long pastes. */
function sentenceCount(random: Random): number {
  const roll = random.next();
  if (roll < 0.55) return random.int(1, 2);
  if (roll < 0.9) return random.int(3, 8);
  if (roll < 0.98) return random.int(9, 25);
  return random.int(40, 90);
}

/** A tool output: JSON-ish search results. Large ones (several KB) are what pruning and trimming are for. */
function toolOutput(random: Random, pool: readonly Sentence[], large: boolean): string {
  const results = large ? random.int(12, 60) : random.int(1, 4);
  const rows: string[] = [];
  for (let index = 0; index < results; index++) {
    rows.push(
      JSON.stringify({
        id: random.int(10_000, 99_999),
        title: random.pick(pool).text,
        snippet: paragraph(random, pool, random.int(1, 3)).text,
        score: Math.round(random.next() * 1000) / 1000,
      }),
    );
  }
  return `[${rows.join(",")}]`;
}

// ---------------------------------------------------------------------------------------------------------------
// Ids shaped like the database's (uuid for messages and attachments, ULID-like for artifacts), derived from counters.

/** A 32-bit mix of two integers (murmur3's finaliser): deterministic, and looks random. */
function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hex32(value: number): string {
  return value.toString(16).padStart(8, "0");
}

/** A random-looking v4 uuid, as gen_random_uuid() gives (ids that differ from their first characters). */
function uuidFor(kind: number, counter: number): string {
  const words = [0, 1, 2, 3].map((word) => hex32(mix(kind * 4 + word, counter)));
  const all = words.join("");
  return `${all.slice(0, 8)}-${all.slice(8, 12)}-4${all.slice(13, 16)}-a${all.slice(17, 20)}-${all.slice(20, 32)}`;
}

/** ULID-like: a time prefix that grows with the counter, then random-looking characters. */
function artifactIdFor(counter: number): string {
  const time = (1_735_689_600_000 + counter * 1_000).toString(32).toUpperCase().padStart(10, "0");
  const random = `${mix(99, counter).toString(32)}${mix(98, counter).toString(32)}`
    .toUpperCase()
    .padStart(16, "0");
  return `${time}${random.slice(0, 16)}`;
}

function sha256For(imageNumber: number): string {
  return imageNumber.toString(16).padStart(64, "0");
}

// ---------------------------------------------------------------------------------------------------------------
// The conversation

export interface Speaker {
  userId: string;
  name: string;
}

export interface GeneratorOptions {
  /** Stored messages after the summary, the current input (last) included. */
  messageCount: number;
  seed?: number;
  persona?: PersonaInfo;
  owner?: Speaker;
  /** A second human and a blocked one; leave out for a one-to-one chat (e.g. rows that must satisfy foreign keys). */
  room?: { second: Speaker; blocked: Speaker } | null;
  /** An active summary covering the messages before the generated ones (seq 1 … summaryCovers). 0: none. */
  summaryCovers?: number;
  /** Media URL for an attachment: the loader gives data: URLs inside the media window, storage refs outside. */
  mediaUrl?: (attachment: { id: string; mime: string; messageIndex: number; messageCount: number }) => string;
  /** Ids from another space, for conversations stored side by side in one database (default 0: the usual ids). */
  idSpace?: number;
}

/** A conversation as the loader gives it to phase A; `messages` end with the current input (a user message). */
export type GeneratedConversation = Pick<
  BuildInput,
  "conversationId" | "persona" | "participants" | "messages" | "attachments" | "artifacts" | "summary"
> & {
  /** What the generator made, for the report. */
  stats: { images: number; toolPairs: number; largeToolOutputs: number; reasoning: number; blocked: number };
};

export const BENCH_PERSONA: PersonaInfo = {
  id: "00000009-0000-4000-8000-000000000001",
  name: "Aria",
  systemPrompt:
    "You are Aria, a travel planner. Be concise, check facts with your tools, and keep the user's budget in mind.",
};
export const BENCH_OWNER: Speaker = { userId: "user-ada", name: "Ada" };
export const BENCH_ROOM = {
  second: { userId: "user-bob", name: "Bob" },
  blocked: { userId: "user-mallory", name: "Mallory" },
};

const TINY_PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** The loader's URLs: a data: URL for the newest 10 messages (the default media window), a storage ref otherwise. */
export function loaderLikeMediaUrl(attachment: {
  id: string;
  mime: string;
  messageIndex: number;
  messageCount: number;
}): string {
  return attachment.messageCount - attachment.messageIndex <= 10
    ? `data:${attachment.mime};base64,${TINY_PNG_BASE64}`
    : `attachment://${attachment.id}`;
}

export function generateConversation(options: GeneratorOptions): GeneratedConversation {
  const random = seededRandom(options.seed ?? 42);
  const pool = makeSentencePool(seededRandom(7), 1_500);
  const persona = options.persona ?? BENCH_PERSONA;
  const owner = options.owner ?? BENCH_OWNER;
  const room = options.room === undefined ? BENCH_ROOM : options.room;
  const summaryCovers = options.summaryCovers ?? 100;
  const mediaUrl = options.mediaUrl ?? loaderLikeMediaUrl;
  const total = options.messageCount;
  const space = options.idSpace ?? 0;
  const idFor = (kind: number, counter: number) => uuidFor(kind + 8 * space, counter);

  const messages: StoredMessage[] = [];
  const attachments: StoredAttachment[] = [];
  const artifacts: StoredArtifact[] = [];
  const stats = { images: 0, toolPairs: 0, largeToolOutputs: 0, reasoning: 0, blocked: 0 };
  let attachmentCounter = 0;
  let artifactCounter = 0;
  let callCounter = 0;
  const baseTime = Date.UTC(2025, 0, 1);

  const push = (
    author: Pick<StoredMessage, "authorType" | "authorUserId" | "authorPersonaId" | "authorName">,
    parts: StoredPart[],
    textTokens: number,
    textLength: number,
    extra: Partial<Pick<StoredMessage, "replyToMessageId" | "forwardedFromName">> = {},
  ): StoredMessage => {
    const index = messages.length;
    const seq = summaryCovers + index + 1;
    // Same keys in the same order for every message, like rows mapped from the database.
    const message: StoredMessage = {
      id: idFor(1, seq),
      seq,
      authorType: author.authorType,
      authorUserId: author.authorUserId,
      authorPersonaId: author.authorPersonaId,
      authorName: author.authorName,
      parts,
      replyToMessageId: extra.replyToMessageId ?? null,
      forwardedFromName: extra.forwardedFromName ?? null,
      status: "complete",
      summarizedBy: null,
      tokenCounts: { o200k_base: textTokens, estimate: Math.ceil(textLength / 4) },
      segmentTokenCounts: null,
      createdAt: new Date(baseTime + seq * 30_000).toISOString(),
    };
    messages.push(message);
    return message;
  };

  const human = (speaker: Speaker) => ({
    authorType: "user" as const,
    authorUserId: speaker.userId,
    authorPersonaId: null,
    authorName: speaker.name,
  });
  const personaAuthor = {
    authorType: "persona" as const,
    authorUserId: null,
    authorPersonaId: persona.id,
    authorName: persona.name,
  };

  const addImages = (messageIndex: number, count: number, parts: StoredPart[]) => {
    const messageId = idFor(1, summaryCovers + messageIndex + 1);
    for (let index = 0; index < count; index++) {
      attachmentCounter++;
      const id = idFor(2, attachmentCounter);
      const emoji = random.chance(0.05);
      // One image in eight is a re-post of a recent one (same sha256): the duplicate rule has work to do.
      const imageNumber = random.chance(0.125)
        ? Math.max(1, attachmentCounter - random.int(1, 30))
        : attachmentCounter;
      const mime = random.chance(0.1) ? "image/gif" : "image/png";
      attachments.push({
        id,
        messageId,
        kind: "image",
        mime,
        sizeBytes: random.int(20_000, 900_000),
        sha256: sha256For(imageNumber),
        width: 1024,
        height: 768,
        isEmoji: emoji,
        isSticker: false,
        url: mediaUrl({ id, mime, messageIndex, messageCount: total }),
        filename: `photo-${attachmentCounter}.${mime === "image/gif" ? "gif" : "png"}`,
      });
      parts.push({ type: "media", attachmentId: id });
      stats.images++;
    }
  };

  const userTurn = (speaker: Speaker, isLast: boolean) => {
    const { text, tokens } = paragraph(random, pool, sentenceCount(random));
    const parts: StoredPart[] = [{ type: "text", text }];
    const index = messages.length;
    const extra: Partial<Pick<StoredMessage, "replyToMessageId" | "forwardedFromName">> = {};
    if (!isLast && random.chance(0.08)) {
      addImages(index, random.chance(0.8) ? 1 : random.int(2, 3), parts);
      if (random.chance(0.15) && room) extra.forwardedFromName = room.second.name;
    }
    if (!isLast && index > 0 && random.chance(0.05))
      extra.replyToMessageId = messages[random.int(Math.max(0, index - 20), index - 1)].id;
    push(human(speaker), parts, tokens, text.length, extra);
  };

  const assistantTurn = () => {
    const index = messages.length;
    const messageId = idFor(1, summaryCovers + index + 1);
    const parts: StoredPart[] = [];
    let tokens = 0;
    let length = 0;
    // Every text piece here has artifacts between it and the next: each is a segment of its own.
    const segments: { o200k_base: number[]; estimate: number[] } = { o200k_base: [], estimate: [] };
    const addText = () => {
      const piece = paragraph(random, pool, sentenceCount(random));
      parts.push({ type: "text", text: piece.text });
      segments.o200k_base.push(piece.tokens);
      segments.estimate.push(Math.ceil(piece.text.length / 4));
      // The stored count is of the text parts joined with newlines (one token each for the joins, near enough).
      tokens += piece.tokens + (length > 0 ? 1 : 0);
      length += piece.text.length + (length > 0 ? 1 : 0);
    };
    const newArtifact = (type: string, payload: Record<string, unknown>) => {
      artifactCounter++;
      const id = artifactIdFor(artifactCounter + space * 1_000_000);
      artifacts.push({
        id,
        messageId,
        type,
        payload,
        // Counted as the app counts what it writes.
        tokenCounts: artifactTokenCounts({ type, payload }),
        createdAt: new Date(baseTime + index * 30_000).toISOString(),
      });
      parts.push({ type: "artifact", artifactId: id });
    };
    if (random.chance(0.05)) {
      newArtifact("reasoning", { text: paragraph(random, pool, random.int(2, 6)).text });
      stats.reasoning++;
    }
    const toolRounds = random.chance(0.3) ? (random.chance(0.8) ? 1 : 2) : 0;
    if (toolRounds > 0 && random.chance(0.6)) addText();
    for (let round = 0; round < toolRounds; round++) {
      const parallel = random.chance(0.85) ? 1 : 2;
      const calls: { callId: string; name: string }[] = [];
      for (let call = 0; call < parallel; call++) {
        callCounter++;
        const callId = `call_${callCounter.toString(36)}`;
        const name = random.pick(["web_lookup", "hotel_search", "fare_finder", "current_time"]);
        newArtifact("function_call", {
          callId,
          name,
          arguments: JSON.stringify({ query: random.pick(pool).text, limit: random.int(3, 10) }),
        });
        calls.push({ callId, name });
      }
      for (const call of calls) {
        const large = random.chance(0.35);
        newArtifact("function_call_output", {
          callId: call.callId,
          name: call.name,
          output: toolOutput(random, pool, large),
        });
        stats.toolPairs++;
        if (large) stats.largeToolOutputs++;
      }
      // A provider-run search now and then: stored, never replayed.
      if (random.chance(0.05))
        newArtifact("web_search_call", { status: "completed", query: random.pick(pool).text });
    }
    addText();
    if (random.chance(0.01)) addImages(index, 1, parts);
    const message = push(personaAuthor, parts, tokens, length);
    if (parts.some((part) => part.type === "artifact")) message.segmentTokenCounts = segments;
  };

  while (messages.length < total) {
    const remaining = total - messages.length;
    if (remaining === 1) {
      userTurn(owner, true);
      break;
    }
    const roll = random.next();
    if (room && roll < 0.005) {
      const text = `${room.second.name} joined the conversation.`;
      push(
        { authorType: "system", authorUserId: null, authorPersonaId: null, authorName: "System" },
        [{ type: "text", text }],
        countO200k(text),
        text.length,
      );
      continue;
    }
    if (room && roll < 0.015) {
      stats.blocked++;
      userTurn(room.blocked, false);
      continue;
    }
    const speaker = room && roll < 0.08 ? room.second : owner;
    userTurn(speaker, false);
    // A burst: a second short line by the same person (collapsed into one entry by stage 2).
    if (messages.length < total - 1 && random.chance(0.1)) userTurn(speaker, false);
    if (messages.length < total - 1) assistantTurn();
  }

  const participants: ParticipantInfo[] = room ? [owner, room.second, room.blocked] : [owner];
  const summary: StoredSummary | null =
    summaryCovers > 0
      ? {
          id: idFor(3, 1),
          content: paragraph(random, pool, 12).text,
          coversThroughSeq: summaryCovers,
          messageCount: summaryCovers,
          createdAt: new Date(baseTime + summaryCovers * 30_000).toISOString(),
        }
      : null;
  // Through JSON, as rows come from the database driver: flat strings and plain objects, not the generator's own.
  const stored = JSON.parse(JSON.stringify({ messages, attachments, artifacts })) as {
    messages: StoredMessage[];
    attachments: StoredAttachment[];
    artifacts: StoredArtifact[];
  };
  return {
    conversationId: idFor(4, 1),
    persona,
    participants,
    messages: stored.messages,
    attachments: stored.attachments,
    artifacts: stored.artifacts,
    summary,
    stats,
  };
}

export const BENCH_TOOLS: ToolInfo[] = [
  { name: "web_lookup", description: "Searches the web.", rules: "Cite what you found." },
  { name: "hotel_search", description: "Finds hotels by city and dates." },
  { name: "fare_finder", description: "Finds flight fares." },
  { name: "current_time", description: "Returns the current date and time in UTC." },
  { name: "analyze_image", description: "Describes an image by its media handle." },
];

/**
 * Settings with the fetch limit lifted to `fetchLimit`. Up to the schema's maximum (10 000) they go through the
 * schema; beyond it the object is built directly, bypassing validation (the benchmark's 100 000 case only).
 */
export function liftedSettings(fetchLimit: number): ResolvedSettings {
  const base = defaultSettings();
  const settings: ResolvedSettings = {
    ...base,
    history: { ...base.history, messageFetchLimit: fetchLimit },
    stop: { strings: ["<END>"], speakerPattern: true },
    keyContextReminder: "The user travels in May; prefer public transport.",
  };
  return settings;
}

/** The BuildInput the turn runner would pass for this conversation (the current input stored, so among the messages). */
export function buildInputFor(
  conversation: GeneratedConversation,
  settings: ResolvedSettings,
  window?: { newest: number },
): BuildInput {
  const all = conversation.messages;
  const messages = window ? all.slice(Math.max(0, all.length - window.newest)) : all;
  let attachments = conversation.attachments;
  let artifacts = conversation.artifacts;
  if (window) {
    // The loader only loads media and artifacts of the loaded messages.
    const ids = new Set(messages.map((message) => message.id));
    attachments = attachments.filter((attachment) => ids.has(attachment.messageId));
    artifacts = artifacts.filter((artifact) => ids.has(artifact.messageId));
  }
  const currentInput = all[all.length - 1];
  const blocked = conversation.participants.find(
    (participant) => participant.userId === BENCH_ROOM.blocked.userId,
  );
  return {
    conversationId: conversation.conversationId,
    persona: conversation.persona,
    participants: conversation.participants,
    messages,
    attachments,
    artifacts,
    summary: conversation.summary,
    blocks: blocked
      ? [
          {
            personaId: conversation.persona.id,
            userId: blocked.userId,
            userName: blocked.name,
            blockType: "block",
            reason: "spam links",
            expiresAt: null,
          },
        ]
      : [],
    memories: [
      {
        id: "mem-1",
        area: "preference",
        content: "Ada prefers window seats.",
        conversationId: null,
        summaryId: null,
      },
      { id: "mem-2", area: "fact", content: "Ada is vegetarian.", conversationId: null, summaryId: null },
      {
        id: "mem-3",
        area: "session_summary",
        content: "Summary of this conversation so far.",
        conversationId: conversation.conversationId,
        summaryId: conversation.summary?.id ?? null,
      },
    ],
    tools: BENCH_TOOLS,
    maxToolSteps: 5,
    settings,
    personaNote: "Stay in character as Aria.",
    conversationNote: "Ada's trip is in May.",
    conversationInstructions: "Answer in English.",
    currentInput,
    impersonateUserId: null,
    userTurnNumber: countUserTurns(messages, currentInput),
    now: "2026-03-01T12:00:00.000Z",
  };
}
