// Stage 11: the current input goes last, exactly once. The route stores the user's message before building, so
// the loaded messages often contain it; it is taken out of the history by id before any other stage (so it is
// never collapsed, windowed or noted as history), and put back at the very end (seed 002's duplicate-prompt bug).

import { traceEvent } from "./trace";
import type { ContextItem, StoredMessage, TraceEvent } from "./types";

/** The loaded messages without the current input. Returns the same array when it is not among them. */
export function excludeCurrentInput(
  messages: readonly StoredMessage[],
  currentInput: StoredMessage,
): { messages: StoredMessage[]; trace: TraceEvent[] } {
  let found = false;
  for (const message of messages) {
    if (message.id === currentInput.id) {
      found = true;
      break;
    }
  }
  if (!found) return { messages: messages as StoredMessage[], trace: [] };
  const history: StoredMessage[] = [];
  for (const message of messages) if (message.id !== currentInput.id) history.push(message);
  return {
    messages: history,
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
): { items: ContextItem[]; trace: TraceEvent[] } {
  const out: ContextItem[] = [];
  let duplicates = 0;
  for (const item of items) {
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
  return { items: out, trace };
}
