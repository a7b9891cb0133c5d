// Phase A's first stage: what counts as history in the loaded messages. Not the current input (the last stage puts
// it at the end), nothing the summary covers (the summary stands in for it); and when the loader's fetch limit
// left older unsummarised messages out, an event that says so. See docs/pipeline.md.

import type { BuildInput, StoredMessage, TraceEvent } from "@/lib/domain/types";
import { excludeCurrentInput } from "./current-input";
import type { PhaseAContext } from "./phases";
import type { Stage } from "./stage";
import { appendAll } from "./stage";
import { dropCoveredMessages } from "./summary-placement";
import { plural, traceEvent } from "./trace";

/** Phase A: the loaded messages without the current input and without what the summary covers. */
export const loadStage: Stage<readonly StoredMessage[], readonly StoredMessage[], PhaseAContext> = {
  name: "load",
  run(messages, { input }) {
    const trace: TraceEvent[] = [];
    const loadEvent = fetchLimitEvent(input);
    if (loadEvent !== null) trace.push(loadEvent);
    if (input.privateMemoriesWithheld) trace.push(privateMemoriesWithheldEvent());
    const history = historyMessages(messages, input, trace);
    for (const message of history) if (message.editedAt) trace.push(editedMessageEvent(message));
    return { value: history, trace };
  },
};

/**
 * The loaded messages without the current input and without what the summary covers, in one pass for the usual
 * case (the input stored as the newest message, nothing covered); anything else goes through the two steps.
 */
function historyMessages(
  messages: readonly StoredMessage[],
  { currentInput, summary }: BuildInput,
  trace: TraceEvent[],
): readonly StoredMessage[] {
  const last = messages.length - 1;
  // Message ids are unique: when the newest message is the input, no other is, and ids need no comparing.
  const inputIsNewest = messages[last]?.id === currentInput.id;
  let inputAt = inputIsNewest ? last : -1;
  let covered = false;
  for (let index = 0; index < messages.length && !covered; index++) {
    const message = messages[index];
    if (message === undefined) break;
    if (inputIsNewest ? index === last : message.id === currentInput.id) {
      if (inputAt === -1) inputAt = index;
      continue;
    }
    covered = message.summarizedBy !== null || (summary !== null && message.seq <= summary.coversThroughSeq);
  }
  if (!covered && inputAt === -1) return messages;
  if (!covered && inputAt === last) {
    // The same event excludeCurrentInput reports, made by it.
    appendAll(trace, excludeCurrentInput([currentInput], currentInput).trace);
    return messages.slice(0, last);
  }
  const withoutInput = excludeCurrentInput(messages, currentInput);
  appendAll(trace, withoutInput.trace);
  const uncovered = dropCoveredMessages(withoutInput.value, summary);
  appendAll(trace, uncovered.trace);
  return uncovered.value;
}

/** A message edited in place: the payload differs from here on from what earlier turns sent. */
function editedMessageEvent(message: StoredMessage): TraceEvent {
  return traceEvent(
    "load",
    "edited-message",
    `message #${message.seq} by ${message.authorName} was edited after it was sent: earlier turns sent its previous text`,
    { itemIds: [`msg:${message.id}`], messageIds: [message.id] },
  );
}

/** In a room every member can read the payload, so the loader left the sender's private memories out. */
function privateMemoriesWithheldEvent(): TraceEvent {
  return traceEvent(
    "load",
    "private-memories-withheld",
    "a room: the sender's private memories are not used, because every member of the room can read this payload; only the persona's own memories are",
  );
}

/** The loader's fetch-limit slide, when it left older unsummarised messages out. */
function fetchLimitEvent(input: BuildInput): TraceEvent | null {
  const window = input.loadedWindow;
  if (!window || window.omittedCount <= 0) return null;
  const limit = input.settings.history.messageFetchLimit;
  return traceEvent(
    "load",
    "fetch-limit",
    `${plural(window.omittedCount, "older message")} not loaded (history.messageFetchLimit ${limit})`,
    {
      counts: { omitted: window.omittedCount, messageFetchLimit: limit },
      details: { omittedBeforeSeq: window.omittedBeforeSeq },
    },
  );
}
