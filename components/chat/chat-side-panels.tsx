"use client";
// What opens beside or over the transcript: the prompt inspector, the summary panel and the owner's settings.
import { InspectorPanel } from "@/components/inspector/inspector-panel";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import { ConversationSettings } from "./conversation-settings";
import type { useInspectorTarget } from "./hooks/use-inspector-target";
import { SummaryPanel } from "./summary-panel";

export function ChatSidePanels({
  conversationId,
  inspector,
  streamingMessageId,
  draft,
  messages,
  summary,
  settings,
  onSummaryEdited,
  onSummaryReverted,
}: {
  conversationId: string;
  inspector: ReturnType<typeof useInspectorTarget>;
  /** The reply being written, if any: the inspector waits for it to be stored. */
  streamingMessageId: string | undefined;
  /** The message box's text, for the preview of the next request. */
  draft: string;
  messages: ChatUIMessage[];
  summary: { open: boolean; onClose: () => void; canManage: boolean };
  /** The owner's settings dialog; null for everyone else. */
  settings: { open: boolean; onClose: () => void } | null;
  onSummaryEdited: () => Promise<void>;
  onSummaryReverted: (restoredSummaryId: string | null) => Promise<void>;
}) {
  const target = inspector.target;
  return (
    <>
      {target && (
        <InspectorPanel
          conversationId={conversationId}
          target={target}
          replyStreaming={target.kind === "reply" && target.messageId === streamingMessageId}
          draft={draft}
          onClose={inspector.close}
          onRevealMessage={inspector.revealInTranscript}
        />
      )}
      <SummaryPanel
        conversationId={conversationId}
        open={summary.open}
        onClose={summary.onClose}
        messages={messages}
        canManage={summary.canManage}
        onEdited={onSummaryEdited}
        onReverted={onSummaryReverted}
      />
      {settings && (
        <ConversationSettings
          conversationId={conversationId}
          open={settings.open}
          onClose={settings.onClose}
        />
      )}
    </>
  );
}
