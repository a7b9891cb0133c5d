// The current input goes last, exactly once (docs/pipeline.md#current-input). The route stores the user's
// message before building, so the loaded messages often contain it; it is taken out of the history by id before
// any other stage (so it is never collapsed, windowed or noted as history), and put back at the very end (the PHP
// agent's duplicate-prompt bug).

import type { ContextItem, StoredMessage } from "@/lib/domain/types";
import type { HistoryItems, PhaseAContext } from "./phases";
import type { Stage, StageResult } from "./stage";
import { traceEvent } from "./trace";

/** The loaded messages without the current input. Returns the same array when it is not among them. */
export function excludeCurrentInput(
  messages: readonly StoredMessage[],
  currentInput: StoredMessage,
): StageResult<StoredMessage[]> {
  let firstMatch = -1;
  for (let index = 0; index < messages.length; index++) {
    if (messages[index]?.id === currentInput.id) {
      firstMatch = index;
      break;
    }
  }
  if (firstMatch === -1) return { value: messages as StoredMessage[], trace: [] };
  let history: StoredMessage[];
  // The route stores the input before loading, so it is usually the newest message: one copy, no filtering.
  if (firstMatch === messages.length - 1) history = messages.slice(0, firstMatch);
  else {
    history = messages.slice(0, firstMatch);
    for (let index = firstMatch + 1; index < messages.length; index++) {
      const message = messages[index];
      if (message !== undefined && message.id !== currentInput.id) history.push(message);
    }
  }
  return {
    value: history,
    trace: [
      traceEvent(
        "current-input",
        "moved-current-input",
        "the current input was among the loaded messages; it is sent once, last",
        {
          messageIds: [currentInput.id],
        },
      ),
    ],
  };
}

/** Append the current input item, removing any other item with its id first. */
export function appendCurrentInput(
  items: readonly ContextItem[],
  current: ContextItem,
): StageResult<ContextItem[]> {
  let firstDuplicate = -1;
  for (let index = 0; index < items.length && firstDuplicate === -1; index++)
    if (items[index]?.id === current.id) firstDuplicate = index;
  // Usually there is no copy: one array of the final size.
  if (firstDuplicate === -1) return { value: items.concat([current]), trace: [] };
  const out: ContextItem[] = items.slice(0, firstDuplicate);
  let duplicates = 0;
  for (let index = firstDuplicate; index < items.length; index++) {
    const item = items[index];
    if (item === undefined) continue;
    if (item.id === current.id) duplicates++;
    else out.push(item);
  }
  out.push(current);
  const trace =
    duplicates === 0
      ? []
      : [
          traceEvent(
            "current-input",
            "dropped-duplicate-input",
            "an earlier copy of the current input was removed",
            { itemIds: [current.id] },
          ),
        ];
  return { value: out, trace };
}

/**
 * Phase A: the current input last, once. A current input with no stored parts at all is a continuation's (the turn
 * answers the tool results that end the history, with no new message): nothing is appended.
 */
export const currentInputStage: Stage<HistoryItems, ContextItem[], PhaseAContext> = {
  name: "current-input",
  run: ({ items, current }, { input }) =>
    input.currentInput.parts.length === 0
      ? { value: [...items], trace: [] }
      : appendCurrentInput(items, current),
};

/**
 * The current input's user turn number: user turns in the loaded window, the current one included (consecutive
 * user messages share a turn). The turn loader, the bench and the property tests all count this way.
 */
export function countUserTurns(messages: readonly StoredMessage[], currentInput: StoredMessage): number {
  let turns = 0;
  let previousWasUser = false;
  for (const message of messages) {
    const isUser = message.authorType === "user";
    if (isUser && !previousWasUser) turns++;
    previousWasUser = isUser;
  }
  const currentIsLoaded = messages.some((message) => message.id === currentInput.id);
  return currentIsLoaded ? turns : turns + (previousWasUser ? 0 : 1);
}
