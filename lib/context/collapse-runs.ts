// Phase A's collapse stage (docs/pipeline.md#collapse-runs): consecutive messages by the same author that are
// pure text become one history entry, so a burst of short lines reads as one turn. Messages with media or
// artifacts always stay on their own.

import type { StoredMessage, TraceEvent } from "@/lib/domain/types";
import { type HistoryEntry, isPureText, type MessageRun, sameAuthor } from "./messages";
import type { CollapsedHistory, PhaseAContext, ReachableHistory } from "./phases";
import type { Stage, StageResult } from "./stage";
import { traceEvent } from "./trace";

// lib/chat/summary/summarise.ts reads message text from here; the helper itself lives with the other message helpers.
export { messageText } from "./messages";

export function collapseRuns(messages: readonly StoredMessage[]): StageResult<HistoryEntry[]> {
  const entries: HistoryEntry[] = [];
  const trace: TraceEvent[] = [];
  let runStart = 0;
  /** Whether there is a message at `index` and it is pure text. */
  const pureTextAt = (index: number): boolean => {
    const message = messages[index];
    return message !== undefined && isPureText(message);
  };
  // Whether the message after the current run is pure text, carried over so each message is checked once.
  let nextPureText = pureTextAt(0);
  while (runStart < messages.length) {
    const first = messages[runStart];
    if (first === undefined) break;
    let runEnd = runStart + 1;
    const firstPureText = nextPureText;
    nextPureText = pureTextAt(runEnd);
    if (firstPureText) {
      let next = messages[runEnd];
      while (next !== undefined && nextPureText && sameAuthor(first, next)) {
        runEnd++;
        nextPureText = pureTextAt(runEnd);
        next = messages[runEnd];
      }
    }
    const run: MessageRun =
      runEnd === runStart + 1 ? [first] : [first, ...messages.slice(runStart + 1, runEnd)];
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
