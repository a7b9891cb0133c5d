// Stage 2 (seed 000): consecutive messages by the same author that are pure text become one history entry, so
// a burst of short lines reads as one turn. Messages with media or artifacts always stay on their own.

import { traceEvent } from "./trace";
import type { ItemSender, StoredMessage, TraceEvent } from "./types";

/**
 * One unit of history between stages 2 and 4: a stored message (or a collapsed run of pure-text messages by one
 * author), or a notice that stands in for messages (e.g. blocked users' turns).
 */
export type HistoryEntry =
  | { kind: "message"; messages: StoredMessage[] }
  | { kind: "notice"; id: string; text: string; sourceMessageIds: string[]; sender: ItemSender };

/** Pure text: at least one part, and every part is text. */
export function isPureText(message: StoredMessage): boolean {
  if (message.parts.length === 0) return false;
  for (const part of message.parts) if (part.type !== "text") return false;
  return true;
}

/** Same author: same kind of author, same user or persona, and the same shown name. */
export function sameAuthor(a: StoredMessage, b: StoredMessage): boolean {
  return (
    a.authorType === b.authorType &&
    a.authorUserId === b.authorUserId &&
    a.authorPersonaId === b.authorPersonaId &&
    a.authorName === b.authorName
  );
}

/** A message's text parts joined by newlines ("" when it has none). */
export function messageText(message: Pick<StoredMessage, "parts">): string {
  let text = "";
  let first = true;
  for (const part of message.parts) {
    if (part.type !== "text") continue;
    text = first ? part.text : `${text}\n${part.text}`;
    first = false;
  }
  return text;
}

export function collapseRuns(messages: readonly StoredMessage[]): {
  entries: HistoryEntry[];
  trace: TraceEvent[];
} {
  const entries: HistoryEntry[] = [];
  const trace: TraceEvent[] = [];
  let runStart = 0;
  // Whether the message after the current run is pure text, carried over so each message is checked once.
  let nextPureText = messages.length > 0 && isPureText(messages[0]);
  while (runStart < messages.length) {
    const first = messages[runStart];
    let runEnd = runStart + 1;
    const firstPureText = nextPureText;
    nextPureText = runEnd < messages.length && isPureText(messages[runEnd]);
    if (firstPureText) {
      while (runEnd < messages.length && nextPureText && sameAuthor(first, messages[runEnd])) {
        runEnd++;
        nextPureText = runEnd < messages.length && isPureText(messages[runEnd]);
      }
    }
    const run = runEnd === runStart + 1 ? [first] : messages.slice(runStart, runEnd);
    entries.push({ kind: "message", messages: run });
    if (run.length > 1) {
      trace.push(
        traceEvent(
          "collapse",
          "collapsed",
          `${run.length} consecutive text messages by ${first.authorName} collapsed into 1`,
          {
            itemIds: [`msg:${first.id}`],
            messageIds: run.map((message) => message.id),
            counts: { messages: run.length },
          },
        ),
      );
    }
    runStart = runEnd;
  }
  return { entries, trace };
}
