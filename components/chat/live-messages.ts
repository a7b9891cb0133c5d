// Puts a message that arrived live into the shown transcript (docs/features.md, "Live rooms"): in place of the
// copy already shown (the same stored id, or the browser's own id for a message this page sent), in place of the
// variant it replaces (a regenerated reply answers the same message), or else where its seq puts it. An event can
// arrive after the page already holds a later state of its message (events are published after their write, and a
// reload may read past them): a reply shown as ended is never taken back to `streaming`, since a stored reply
// never goes back to it (each reply is a new row that starts `streaming`).
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";

export function applyLiveMessage(
  messages: ChatUIMessage[],
  incoming: ChatUIMessage,
  clientMessageId: string | null,
): ChatUIMessage[] {
  const same = messages.findIndex(
    (message) => message.id === incoming.id || (clientMessageId !== null && message.id === clientMessageId),
  );
  const replyTo = incoming.role === "assistant" ? incoming.metadata?.replyToMessageId : undefined;
  const replaced =
    same >= 0 || !replyTo
      ? same
      : messages.findIndex(
          (message) => message.role === "assistant" && message.metadata?.replyToMessageId === replyTo,
        );
  if (replaced >= 0) {
    if (sameContent(messages[replaced], incoming) || isOlderState(messages[replaced], incoming))
      return messages;
    return messages.map((message, index) => (index === replaced ? incoming : message));
  }
  // Messages this page has not had stored yet carry no seq: they stay last.
  const seq = incoming.metadata?.seq ?? Number.POSITIVE_INFINITY;
  const after = messages.findIndex((message) => (message.metadata?.seq ?? Number.POSITIVE_INFINITY) > seq);
  if (after < 0) return [...messages, incoming];
  return [...messages.slice(0, after), incoming, ...messages.slice(after)];
}

function sameContent(shown: ChatUIMessage, incoming: ChatUIMessage): boolean {
  return (
    shown.id === incoming.id &&
    shown.metadata?.status === incoming.metadata?.status &&
    shown.metadata?.edited === incoming.metadata?.edited &&
    JSON.stringify(shown.parts) === JSON.stringify(incoming.parts)
  );
}

function isOlderState(shown: ChatUIMessage, incoming: ChatUIMessage): boolean {
  const shownStatus = shown.metadata?.status;
  return (
    shown.id === incoming.id &&
    incoming.metadata?.status === "streaming" &&
    shownStatus !== undefined &&
    shownStatus !== "streaming"
  );
}
