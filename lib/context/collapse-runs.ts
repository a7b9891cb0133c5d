// Phase A's collapse stage (docs/architecture.md#collapse-runs): consecutive messages by the same author that are
// pure text become one history entry, so a burst of short lines reads as one turn. Messages with media or
// artifacts always stay on their own.

import { type HistoryEntry, isPureText, sameAuthor } from "./messages";
import type { CollapsedHistory, PhaseAContext, ReachableHistory } from "./phases";
import type { Stage, StageResult } from "./stage";
import { traceEvent } from "./trace";
import type { StoredMessage, TraceEvent } from "./types";

// lib/chat/summarise.ts reads message text from here; the helper itself lives with the other message helpers.
export { messageText } from "./messages";

export function collapseRuns(messages: readonly StoredMessage[]): StageResult<HistoryEntry[]> {
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
  return { value: entries, trace };
}

/** Phase A: runs of pure-text messages by one author become one entry. */
export const collapseStage: Stage<ReachableHistory, CollapsedHistory, PhaseAContext> = {
  name: "collapse",
  run({ loaded, history, hiddenMessageIds }) {
    const { value: entries, trace } = collapseRuns(history);
    return { value: { loaded, entries, hiddenMessageIds }, trace };
  },
};
