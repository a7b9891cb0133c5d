// Token counting. OpenAI-family models use their real BPE (gpt-tokenizer); other families use an estimate
// calibrated against o200k_base on English prose and code (≈ 4 characters a token). Counts are per text, so the
// caller can cache them per message at write time and a turn only tokenises what is new.

import { createRequire } from "node:module";
import type { ContextItem, ItemPart, TokenizerName } from "@/lib/domain/types";

type CountTokens = typeof import("gpt-tokenizer/encoding/o200k_base").countTokens;

const requireFromHere = createRequire(import.meta.url);
/**
 * Each encoding's module, by a literal name, which the build points at the package itself: it stays outside the
 * bundle (next.config.mjs).
 */
const ENCODINGS: Record<"o200k_base" | "cl100k_base", () => { countTokens: CountTokens }> = {
  o200k_base: () => requireFromHere("gpt-tokenizer/encoding/o200k_base"),
  cl100k_base: () => requireFromHere("gpt-tokenizer/encoding/cl100k_base"),
};
const loadedEncodings = new Map<string, CountTokens>();

/**
 * An encoding's counter, loaded the first time a text is counted with it: each one's tables take tens of MB in
 * every process, and most deployments only ever use one of the two.
 */
function encodingCounter(name: "o200k_base" | "cl100k_base"): CountTokens {
  let count = loadedEncodings.get(name);
  if (!count) {
    count = ENCODINGS[name]().countTokens;
    loadedEncodings.set(name, count);
  }
  return count;
}

/** Characters per token for the estimate; measured on mixed prose and code against o200k_base. */
const ESTIMATE_CHARS_PER_TOKEN = 4;
/** Role markers and message framing that every provider adds per message. */
export const TOKENS_PER_MESSAGE = 4;
/** What an image costs in the budget, whatever its size: OpenAI's low-detail tile cost, a fair middle. */
export const TOKENS_PER_IMAGE = 765;
const TOKENS_PER_OTHER_MEDIA = 258;

/**
 * What a video, an audio clip or a document costs, estimated from its size (docs/features.md#documents-audio-and-video):
 * the providers bill by duration and pages, which the bytes only suggest. Audio: 32 tokens a second (Gemini's
 * rate) at 128 kbit/s; video: about 300 tokens a second (a frame a second plus its sound) at 1 Mbit/s; a PDF: 800
 * tokens a page (its text plus the page image OpenAI adds) at 50 KB a page. Never less than a still image's
 * minimum, 258.
 */
export function mediaTokens(kind: "video" | "audio" | "file", sizeBytes: number | undefined): number {
  if (sizeBytes === undefined) return TOKENS_PER_OTHER_MEDIA;
  const estimate =
    kind === "audio"
      ? (sizeBytes / 16_000) * 32
      : kind === "video"
        ? (sizeBytes / 125_000) * 300
        : Math.ceil(sizeBytes / 50_000) * 800;
  return Math.max(TOKENS_PER_OTHER_MEDIA, Math.ceil(estimate));
}

/** People may type "<|endoftext|>": count special-token text as ordinary text instead of throwing. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function countTextTokens(text: string, tokenizer: TokenizerName): number {
  if (text.length === 0) return 0;
  switch (tokenizer) {
    case "o200k_base":
    case "cl100k_base":
      return countsOfRecentTexts[tokenizer].count(text, encodingCounter(tokenizer));
    case "estimate":
      return Math.ceil(text.length / ESTIMATE_CHARS_PER_TOKEN);
  }
}

/**
 * The counts of texts counted lately, for one encoding. A turn counts some texts again: the persona's prompt for
 * the summary's decision and for the budget, each replayed tool output's trimmed form, a message as it was stored
 * and again as the current input; and the next turn counts the same prompt and outputs. Looking a text up costs a
 * hash of it, far less than encoding it. Texts shorter than MIN_CHARS are encoded each time (as cheap as the
 * lookup); at most MAX_CHARS of text are kept, the least recently counted dropped first.
 */
class RecentCounts {
  static readonly MIN_CHARS = 256;
  static readonly MAX_CHARS = 1_000_000;
  private readonly counts = new Map<string, number>();
  private keptChars = 0;

  count(text: string, encode: CountTokens): number {
    // A text of over a quarter of the bound would push most of the others out: it is encoded each time.
    if (text.length < RecentCounts.MIN_CHARS || text.length > RecentCounts.MAX_CHARS / 4)
      return encode(text, PLAIN_TEXT);
    const known = this.counts.get(text);
    if (known !== undefined) {
      // Counted again: now the most recent.
      this.counts.delete(text);
      this.counts.set(text, known);
      return known;
    }
    const counted = encode(text, PLAIN_TEXT);
    this.counts.set(ownCopy(text), counted);
    this.keptChars += text.length;
    for (const oldest of this.counts.keys()) {
      if (this.keptChars <= RecentCounts.MAX_CHARS) break;
      this.counts.delete(oldest);
      this.keptChars -= oldest.length;
    }
    return counted;
  }

  /** How many characters of text it keeps (for the test of its bound). */
  get size(): number {
    return this.keptChars;
  }
}

/**
 * The text as a string of its own. A text cut from a longer one (a trimmed output) can share that one's memory, and
 * kept as a key it would keep all of it alive; UTF-16 copies every code unit as it is, lone surrogates too.
 */
function ownCopy(text: string): string {
  return Buffer.from(text, "utf16le").toString("utf16le");
}

const countsOfRecentTexts = {
  o200k_base: new RecentCounts(),
  cl100k_base: new RecentCounts(),
};

/** The characters of text kept with their counts, per encoding: never more than RecentCounts.MAX_CHARS. */
export function recentCountsSize(): Record<keyof typeof countsOfRecentTexts, number> {
  return {
    o200k_base: countsOfRecentTexts.o200k_base.size,
    cl100k_base: countsOfRecentTexts.cl100k_base.size,
  };
}

export function countPartTokens(part: ItemPart, tokenizer: TokenizerName): number {
  switch (part.type) {
    case "text":
    case "reasoning":
      return countTextTokens(part.text, tokenizer);
    case "image":
      return TOKENS_PER_IMAGE;
    case "video":
    case "audio":
    case "file":
      return mediaTokens(part.type, part.sizeBytes);
    case "media":
      return TOKENS_PER_OTHER_MEDIA;
    case "tool-call":
      return (
        countTextTokens(part.toolName, tokenizer) + countTextTokens(stringifyForCount(part.input), tokenizer)
      );
    case "tool-result":
      return countTextTokens(stringifyForCount(part.output), tokenizer);
  }
}

export function countItemTokens(item: Pick<ContextItem, "parts">, tokenizer: TokenizerName): number {
  let total = TOKENS_PER_MESSAGE;
  for (const part of item.parts) total += countPartTokens(part, tokenizer);
  return total;
}

function stringifyForCount(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
}
