"use client";
// The line above the first message the latest request sent, when older messages (not summarised) were left out:
// nothing leaves the model's view without a mark the reader can see.
import { TextDivider } from "@/components/ui/text-divider";
import type { ChatMessageMetadata } from "@/lib/chat/views/ui-messages";

const REASON_LABELS: Record<string, string> = {
  "fetch-limit": "fetch limit",
  window: "history window",
  budget: "token budget",
};

export function ModelViewDivider({
  beforeMessageId,
  start,
}: {
  /** The stored id of the first message the model saw. */
  beforeMessageId: string;
  start: NonNullable<ChatMessageMetadata["modelViewStart"]>;
}) {
  const why = start.reasons.map((reason) => REASON_LABELS[reason.kind] ?? reason.kind).join(", ");
  return (
    <TextDivider
      className="text-xs text-sky-800 dark:text-sky-200"
      lineClassName="bg-sky-300 dark:bg-sky-700"
      testId="model-view-divider"
      data-before-message-id={beforeMessageId}
      title={start.reasons.map((reason) => reason.text).join("\n")}
    >
      The model sees from here: {start.hiddenCount} earlier{" "}
      {start.hiddenCount === 1 ? "message was" : "messages were"} not sent ({why})
    </TextDivider>
  );
}
