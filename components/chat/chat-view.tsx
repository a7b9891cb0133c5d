"use client";
// One conversation: header, transcript and composer, streaming through useChat; the prompt inspector beside it.
// The state lives in hooks (./hooks): the chat and its resume, the transcript's sync with the stored one, the
// reply being written and its stop, the message actions, the inspector's target and the draft.
import { useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import {
  type ConversationDetail,
  conversationKey,
  getConversation,
  type ModelOption,
  writeAsMe,
} from "./api";
import { ChatHeader } from "./chat-header";
import { ChatSidePanels } from "./chat-side-panels";
import { ComparePanel } from "./compare-panel";
import { Composer } from "./composer";
import { useComposerDraft } from "./hooks/use-composer-draft";
import { useConversationChat } from "./hooks/use-conversation-chat";
import { useInspectorTarget } from "./hooks/use-inspector-target";
import { useMessageActions } from "./hooks/use-message-actions";
import { useModelComparison } from "./hooks/use-model-comparison";
import { useReplyState } from "./hooks/use-reply-state";
import { useTranscriptSync } from "./hooks/use-transcript-sync";
import { MessageList } from "./message-list";
import type { SummaryList } from "./summary-api";
import { SummaryCompactButton } from "./summary-compact-button";
import { TypingRow } from "./typing-row";

/** Anyone but the owner regenerates with the conversation's own model (one array, so the actions stay the same). */
const NO_MODELS: ModelOption[] = [];

interface ChatViewProps {
  conversationId: string;
  initialDetail: ConversationDetail;
  initialMessages: ChatUIMessage[];
  initialSummaries: SummaryList;
  /** The owner or an admin: may compact, edit and revert summaries. */
  canManageSummaries: boolean;
  /** The signed-in user: they edit their own messages. */
  userId: string;
  /** The signed-in user's name, shown on what they send in a room. */
  userName: string;
  /** The server can resume a reply that is still streaming (REDIS_URL): reconnect to it on load. */
  resumeStream?: boolean;
  /** The conversation's last live event when the transcript was read: live updates start after it. */
  initialEventId: number;
}

export function ChatView(props: ChatViewProps) {
  const { conversationId, canManageSummaries } = props;
  const detail = useQuery({
    queryKey: conversationKey(conversationId),
    queryFn: () => getConversation(conversationId),
    initialData: props.initialDetail,
    staleTime: 30_000,
  }).data;
  const { isOwner, visibility } = detail.conversation;
  const chat = useConversationChat({
    conversationId,
    initialMessages: props.initialMessages,
    resumeStream: props.resumeStream ?? false,
    onTurnFinished: () => void sync.reloadTranscript().catch(() => {}),
  });
  const sync = useTranscriptSync({ ...props, status: chat.status, setMessages: chat.setMessages });
  const composerInput = useRef<HTMLTextAreaElement>(null);
  const reply = useReplyState({
    conversationId,
    messages: chat.messages,
    status: chat.status,
    stop: chat.stop,
    reloadTranscript: sync.reloadTranscript,
    holdWhile: sync.holdWhile,
    composerInput,
  });
  const inspector = useInspectorTarget();
  const comparison = useModelComparison({
    conversationId,
    noteTurnStarted: sync.noteTurnStarted,
    reloadTranscript: sync.reloadTranscript,
  });
  const { actions, send, retryRequest, pinVersion } = useMessageActions({
    conversationId,
    chat,
    author: props,
    regenerateModels: isOwner ? detail.models : NO_MODELS,
    onCompare: comparison.start,
    onInspect: inspector.toggleReply,
    noteTurnStarted: sync.noteTurnStarted,
    reloadTranscript: sync.reloadTranscript,
  });
  const composer = useComposerDraft({
    conversationId,
    send,
    onTyping: visibility === "room" ? sync.live.noteTyping : undefined,
  });
  const [summaryOpen, setSummaryOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  return (
    <div className="flex min-h-0 flex-1">
      <main
        id="main-content"
        className="flex min-w-0 flex-1 flex-col"
        data-testid="chat-view"
        data-status={chat.status}
        data-live={sync.live.connected ? "connected" : "connecting"}
      >
        <ChatHeader
          conversationId={conversationId}
          detail={detail}
          preview={{ open: inspector.target?.kind === "preview", onToggle: inspector.togglePreview }}
          onSettings={isOwner ? () => setSettingsOpen(true) : undefined}
          compactAction={
            canManageSummaries && (
              <SummaryCompactButton
                conversationId={conversationId}
                disabled={reply.replyRunning}
                onCompacted={(summary) => sync.showSummary(summary.id)}
              />
            )
          }
        />
        <MessageList
          messages={chat.messages}
          conversationId={conversationId}
          userId={props.userId}
          isOwner={isOwner}
          personaName={detail.persona.name}
          showAuthors={visibility === "room"}
          status={chat.status}
          replyInProgress={reply.replyInProgress}
          error={chat.error}
          inspectedMessageId={inspector.target?.kind === "reply" ? inspector.target.messageId : null}
          actions={actions}
          onRetryRequest={retryRequest}
          pinVersion={pinVersion}
          onViewSummary={() => setSummaryOpen(true)}
        />
        {comparison.comparison && (
          <ComparePanel
            comparison={comparison.comparison}
            onUse={(variantId) => void comparison.use(variantId)}
            onStop={() => void comparison.stop()}
            onClose={comparison.close}
          />
        )}
        {visibility === "room" && <TypingRow typists={sync.live.typists} />}
        <Composer
          value={composer.draft}
          onChange={composer.change}
          busy={reply.replyRunning}
          inputRef={composerInput}
          onStop={() => void reply.stopNow()}
          attachments={composer.picker.pending}
          onAddFiles={composer.picker.add}
          onRemoveAttachment={composer.picker.remove}
          onWriteAsMe={async () => (await writeAsMe(conversationId)).draft}
          onSend={composer.submit}
        />
      </main>
      <ChatSidePanels
        conversationId={conversationId}
        inspector={inspector}
        streamingMessageId={reply.streamingMessageId}
        draft={composer.draft}
        messages={chat.messages}
        summary={{ open: summaryOpen, onClose: () => setSummaryOpen(false), canManage: canManageSummaries }}
        settings={isOwner ? { open: settingsOpen, onClose: () => setSettingsOpen(false) } : null}
        onSummaryEdited={sync.refreshSummaries}
        onSummaryReverted={sync.showSummary}
      />
    </div>
  );
}
