// The offline model's summariser: with no provider key, summaries are still made, extractively
// and deterministically, so compaction and its inspector views work without a network. One line per user turn
// (its first sentence), after the lines of the previous summary, so offline summaries chain like real ones.

import "server-only";
import type { StoredMessage, StoredSummary } from "@/lib/domain/types";

export const OFFLINE_SUMMARY_HEADER = "Summary of";
/** Enough lines to stay well under the summariser prompt's 500 words. */
const MAX_LINES = 40;
const MAX_SENTENCE_CHARS = 160;

/** The first sentence of a text, on one line, capped. */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const match = /^.*?[.!?](?=\s|$)/.exec(flat);
  const sentence = match ? match[0] : flat;
  return sentence.length > MAX_SENTENCE_CHARS ? `${sentence.slice(0, MAX_SENTENCE_CHARS - 1)}…` : sentence;
}

function textOf(message: StoredMessage): string {
  return message.parts
    .filter((part): part is Extract<StoredMessage["parts"][number], { type: "text" }> => part.type === "text")
    .map((part) => part.text)
    .join(" ");
}

const OMITTED_LINE = /^- \((\d+) earlier points? omitted\)$/;

/**
 * The previous summary as lines: its own bullet lines when it is an offline summary (with the count of points it
 * had already left out), else its first sentence.
 */
function previousLines(summary: StoredSummary | null | undefined): { lines: string[]; omitted: number } {
  const content = summary?.content.trim() ?? "";
  if (content === "") return { lines: [], omitted: 0 };
  const bullets = content.split("\n").filter((line) => line.startsWith("- "));
  if (!content.startsWith(OFFLINE_SUMMARY_HEADER) || bullets.length === 0) {
    return { lines: [`- Earlier: ${firstSentence(content)}`], omitted: 0 };
  }
  const omittedMatch = OMITTED_LINE.exec(bullets[0]);
  return omittedMatch
    ? { lines: bullets.slice(1), omitted: Number(omittedMatch[1]) }
    : { lines: bullets, omitted: 0 };
}

/**
 * "Summary of N messages:" then one "- Name: first sentence" line per user turn (consecutive user messages make
 * one turn, as in planSummary; the first non-empty text is used). N counts the messages condensed so far, the
 * previous summary's included. Over MAX_LINES lines, the oldest give way to a count of what was left out.
 */
export function offlineSummary({
  messages,
  previousSummary,
}: {
  messages: readonly StoredMessage[];
  previousSummary?: StoredSummary | null;
}): string {
  const previous = previousLines(previousSummary);
  const lines = previous.lines;
  let previousWasUser = false;
  for (const message of messages) {
    const isUser = message.authorType === "user";
    const text = isUser ? textOf(message).trim() : "";
    if (isUser && !previousWasUser && text !== "")
      lines.push(`- ${message.authorName}: ${firstSentence(text)}`);
    previousWasUser = isUser && (previousWasUser || text !== "");
  }
  const condensed = (previousSummary?.messageCount ?? 0) + messages.length;
  // One line is kept for the count of what was left out, whenever something was.
  const room = previous.omitted > 0 || lines.length > MAX_LINES ? MAX_LINES - 1 : MAX_LINES;
  const dropped = Math.max(0, lines.length - room);
  const omitted = previous.omitted + dropped;
  const shown =
    omitted > 0
      ? [`- (${omitted} earlier point${omitted === 1 ? "" : "s"} omitted)`, ...lines.slice(dropped)]
      : lines;
  const header = `${OFFLINE_SUMMARY_HEADER} ${condensed} message${condensed === 1 ? "" : "s"}:`;
  return [header, ...shown].join("\n");
}
