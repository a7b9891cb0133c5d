// What a caller caches when it writes a message or an artifact, so a turn tokenises only what is new
// (docs/pipeline.md#token-counts): a message's text count, the counts of its text segments when tool calls
// split it, and the count of the part an artifact replays as. The pipeline reads these (`tokenCounts`,
// `segmentTokenCounts`) instead of re-tokenising history; a tokenizer missing from the cache is counted when
// needed.

import type { StoredArtifact, StoredPart, TokenizerName } from "@/lib/domain/types";
import { hasArtifactParts, messageText, textSegments } from "./messages";
import { replayedArtifactPart } from "./stored-artifacts";
import { countPartTokens, countTextTokens } from "./tokens";

/** The tokenizers counted at write time: the OpenAI family's and the estimate every other family uses. */
export const CACHED_TOKENIZERS: readonly TokenizerName[] = ["o200k_base", "estimate"];

/**
 * Loads the tables of the encodings every stored message is counted with, so that the first message a process
 * stores does not wait for them to be built. The server calls it as it starts (instrumentation.ts).
 */
export function loadCachedTokenizers(): void {
  for (const tokenizer of CACHED_TOKENIZERS) countTextTokens("load", tokenizer);
}

export interface MessageTokenCounts {
  tokenCounts: Partial<Record<TokenizerName, number>>;
  /** Only for text split by artifacts; null otherwise. */
  segmentTokenCounts: Partial<Record<TokenizerName, number[]>> | null;
}

export function messageTokenCounts(
  parts: readonly StoredPart[],
  tokenizers: readonly TokenizerName[] = CACHED_TOKENIZERS,
): MessageTokenCounts {
  const message = { parts: parts as StoredPart[] };
  const text = messageText(message);
  const tokenCounts: Partial<Record<TokenizerName, number>> = {};
  for (const tokenizer of tokenizers) tokenCounts[tokenizer] = countTextTokens(text, tokenizer);
  if (!hasArtifactParts(message)) return { tokenCounts, segmentTokenCounts: null };
  const segments = textSegments(message);
  const segmentTokenCounts: Partial<Record<TokenizerName, number[]>> = {};
  for (const tokenizer of tokenizers)
    segmentTokenCounts[tokenizer] = segments.map((segment) => countTextTokens(segment, tokenizer));
  return { tokenCounts, segmentTokenCounts };
}

/** The count of what the artifact replays as; empty for a type never replayed or a malformed artifact. */
export function artifactTokenCounts(
  artifact: Pick<StoredArtifact, "type" | "payload">,
  tokenizers: readonly TokenizerName[] = CACHED_TOKENIZERS,
): Partial<Record<TokenizerName, number>> {
  const part = replayedArtifactPart(artifact);
  const counts: Partial<Record<TokenizerName, number>> = {};
  if (part === null) return counts;
  for (const tokenizer of tokenizers) counts[tokenizer] = countPartTokens(part, tokenizer);
  return counts;
}
