// Puts a message that arrived live into the shown transcript (docs/features.md, "Live rooms"): in place of the
// copy already shown (the same stored id, or the browser's own id for a message this page sent), in place of the
// variant it replaces (a regenerated reply answers the same message), or else where its seq puts it.
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
    if (sameContent(messages[replaced], incoming)) return messages;
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
