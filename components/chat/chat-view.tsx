"use client";
// One conversation: header, transcript and composer, streaming through useChat; the prompt inspector beside it.
import { useChat } from "@ai-sdk/react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { DefaultChatTransport, type FileUIPart } from "ai";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { InspectorPanel, type InspectorTarget } from "@/components/inspector/inspector-panel";
import { ApiError } from "@/components/ui/api-client";
import type { ChatUIMessage } from "@/lib/chat/ui-messages";
import {
  type ConversationDetail,
  conversationKey,
  conversationsKey,
  getConversation,
  turnsKey,
  writeAsMe,
} from "./api";
import { useAttachmentPicker } from "./attachment-picker";
import { ChatHeader } from "./chat-header";
import { Composer } from "./composer";
import { ConversationSettings } from "./conversation-settings";
import { branchFrom, chooseVariant, editMessage, restoreMessageVersion, stopReply } from "./message-api";
import { type MessageActions, messageFiles, messageText } from "./message-item";
import { MessageList } from "./message-list";
import { revealMessage } from "./reveal-message";
import { listSummaries, loadTranscript, type SummaryList, summariesKey } from "./summary-api";
import { SummaryCompactButton } from "./summary-compact-button";
import { SummaryPanel } from "./summary-panel";
import { TypingRow } from "./typing-row";
import { useLiveConversation } from "./use-live-conversation";

/** Below this width the inspector is a drawer over the transcript (Tailwind's lg breakpoint). */
const SIDE_BY_SIDE_MIN_WIDTH = 1024;

export function ChatView({
  conversationId,
  initialDetail,
  initialMessages,
  initialSummaries,
  canManageSummaries,
  userId,
  userName,
  resumeStream = false,
  initialEventId,
}: {
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
}) {
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: conversationKey(conversationId),
    queryFn: () => getConversation(conversationId),
    initialData: initialDetail,
    staleTime: 30_000,
  }).data;

  const transport = useMemo(
    () =>
      new DefaultChatTransport<ChatUIMessage>({
        api: "/api/chat",
        // The server owns the history: send only the new message.
        // A regenerate may name the model that answers it (body.modelId, "Regenerate with…").
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId, body }) => ({
          body: { id, message: messages[messages.length - 1], trigger, messageId, modelId: body?.modelId },
        }),
        prepareReconnectToStreamRequest: ({ id }) => ({ api: `/api/chat/${id}/stream` }),
      }),
    [],
  );
  // After a turn, the stored transcript replaces the streamed one: stored ids, variants, the final status.
  const reloadAfterTurn = useRef<() => void>(() => {});
  const { messages, setMessages, sendMessage, regenerate, status, stop, error, clearError } =
    useChat<ChatUIMessage>({
      id: conversationId,
      messages: initialMessages,
      transport,
      resume: resumeStream,
      onFinish: ({ isAbort }) => {
        // The turn's attempts are recorded by now: refresh the inspector, the preview and the list order.
        void queryClient.invalidateQueries({ queryKey: turnsKey(conversationId) });
        void queryClient.invalidateQueries({ queryKey: ["preview", conversationId] });
        void queryClient.invalidateQueries({ queryKey: conversationsKey });
        // The turn may have summarised older messages (token or turn mode): the transcript follows below.
        void queryClient.invalidateQueries({ queryKey: summariesKey(conversationId) });
        // A stop reloads once the server has stored what the user saw (see stopNow).
        if (!isAbort) reloadAfterTurn.current();
      },
    });

  const [draft, setDraft] = useState("");
  const picker = useAttachmentPicker(conversationId);
  const [inspector, setInspector] = useState<InspectorTarget | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [pinVersion, setPinVersion] = useState(0);
  const busy = status === "submitted" || status === "streaming";
  // A reply this page is not streaming is being written (after a reload without a stream to resume, or another
  // reader's turn in a room): the stored copy says so. Stop works on it, and nothing new starts until it is stored
  // (the server refuses a turn then too; docs/features.md, "Stop").
  // A copy the server says is no longer written (Stop answered 409, its final write lost) does not hold the page.
  const [notWritten, setNotWritten] = useState<string | null>(null);
  const latestReply = messages.findLast((message) => message.role === "assistant");
  const replyInProgress =
    !busy && latestReply?.metadata?.status === "streaming" && latestReply.id !== notWritten;
  const replyRunning = busy || replyInProgress;

  // Summaries: the transcript marks what the active summary covers, so it is reloaded whenever that changes.
  const activeSummaryId =
    useQuery({
      queryKey: summariesKey(conversationId),
      queryFn: () => listSummaries(conversationId),
      initialData: initialSummaries,
      staleTime: 30_000,
    }).data.activeSummaryId ?? null;
  const [summaryOpen, setSummaryOpen] = useState(false);
  /** The active summary the shown transcript's marks belong to. */
  const transcriptSummaryId = useRef(activeSummaryId);
  // A reload that comes back after the next turn has started would put the old transcript over it: such a result
  // is dropped (the turn reloads again when it ends).
  const statusRef = useRef(status);
  statusRef.current = status;
  // While a stop is on its way the stored reply is still the streaming one: a reload then would show an older text
  // than the user saw (the live events' reload after the stream closes did, in e2e/chat-ui.spec.ts). Such a result is
  // dropped, and the live events wait; stopNow reloads once the server has stored the stopped reply.
  const stoppingRef = useRef(false);
  const composerInput = useRef<HTMLTextAreaElement>(null);
  const [stopping, setStopping] = useState(false);
  /** Bumped whenever a turn starts (send, regenerate), before useChat's status says so. */
  const turnsStarted = useRef(0);
  const syncTranscript = useCallback(
    async (summaryId: string | null) => {
      transcriptSummaryId.current = summaryId;
      const startedBefore = turnsStarted.current;
      const loaded = await loadTranscript(conversationId);
      const turnRunning = statusRef.current === "submitted" || statusRef.current === "streaming";
      if (turnRunning || stoppingRef.current || turnsStarted.current !== startedBefore) return;
      setMessages(loaded);
    },
    [conversationId, setMessages],
  );
  useEffect(() => {
    // Never swap the messages under a streaming reply: this runs again when the turn is over.
    if (busy || activeSummaryId === transcriptSummaryId.current) return;
    // A failed reload keeps the transcript as it was: the marks are only a display aid, and a reload fixes them.
    syncTranscript(activeSummaryId).catch(() => {});
  }, [activeSummaryId, busy, syncTranscript]);
  const afterSummaryChange = useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: summariesKey(conversationId) }),
      queryClient.invalidateQueries({ queryKey: ["preview", conversationId] }),
    ]);
  }, [conversationId, queryClient]);
  const reloadTranscript = useCallback(async () => {
    await syncTranscript(transcriptSummaryId.current);
    void queryClient.invalidateQueries({ queryKey: turnsKey(conversationId) });
    void queryClient.invalidateQueries({ queryKey: ["preview", conversationId] });
  }, [conversationId, queryClient, syncTranscript]);
  reloadAfterTurn.current = () => {
    reloadTranscript().catch(() => {});
  };
  const live = useLiveConversation({
    conversationId,
    initialEventId,
    busy: busy || stopping,
    setMessages,
    reloadTranscript,
  });

  const send = useCallback(
    (text: string, files: FileUIPart[]) => {
      clearError();
      turnsStarted.current++;
      setPinVersion((version) => version + 1);
      const metadata = { authorName: userName, authorUserId: userId };
      void sendMessage(text ? { text, files, metadata } : { files, metadata });
    },
    [clearError, sendMessage, userName, userId],
  );

  // The request was refused before anything was stored (rate limit, a lost connection): send it again.
  const retryRequest = useCallback(() => {
    const lastMessage = messages.at(-1);
    if (lastMessage?.role !== "user") return;
    const text = messageText(lastMessage);
    const files = messageFiles(lastMessage);
    setMessages(messages.slice(0, -1));
    if (text.trim() || files.length > 0) send(text, files);
  }, [messages, send, setMessages]);

  // Stop: the server keeps exactly the text shown now. The request goes out first, then the stream is closed.
  const stopNow = useCallback(async () => {
    // The Stop button goes away with the stream: the message box keeps the focus, not <body>.
    composerInput.current?.focus();
    const lastMessage = messages.at(-1);
    const shownChars = lastMessage?.role === "assistant" ? messageText(lastMessage).length : 0;
    stoppingRef.current = true;
    setStopping(true);
    try {
      const stopped = stopReply(conversationId, shownChars);
      await stop();
      // 409: the reply had already ended by itself; either way the stored transcript is what counts.
      await stopped.catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 409 && lastMessage?.role === "assistant") {
          setNotWritten(lastMessage.id);
        }
      });
    } finally {
      stoppingRef.current = false;
      setStopping(false);
    }
    await reloadTranscript().catch(() => {});
  }, [conversationId, messages, reloadTranscript, stop]);

  // Escape stops a streaming reply from anywhere on the page, as the Stop button does; an open dialog, a drawer
  // shown over the page (components/ui/drawer.tsx) and a field with its own Escape (renaming, editing a message)
  // keep theirs.
  useEffect(() => {
    if (!replyRunning) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented || document.querySelector("dialog[open]")) return;
      const drawerShown = [...document.querySelectorAll<HTMLElement>("[data-drawer-backdrop]")].some(
        (backdrop) => backdrop.getClientRects().length > 0,
      );
      if (drawerShown) return;
      const target = event.target as HTMLElement | null;
      const ownField = target?.matches("input, textarea, select") && target !== composerInput.current;
      if (ownField) return;
      void stopNow();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [replyRunning, stopNow]);

  const router = useRouter();
  const actions = useMemo<MessageActions>(
    () => ({
      onInspect: (messageId) =>
        setInspector((current) =>
          current?.kind === "reply" && current.messageId === messageId ? null : { kind: "reply", messageId },
        ),
      onRegenerate: (replyId, modelId) => {
        clearError();
        turnsStarted.current++;
        void regenerate({ messageId: replyId, ...(modelId ? { body: { modelId } } : {}) });
      },
      regenerateModels: detail.conversation.isOwner ? detail.models : [],
      onChooseVariant: async (variantId) => {
        await chooseVariant(conversationId, variantId);
        await reloadTranscript();
      },
      onEdit: async (messageId, text, regenerateReply) => {
        const { message: edited } = await editMessage(conversationId, messageId, text);
        await reloadTranscript();
        // An answered question forked: the new version is the latest message, and it gets its own answer.
        if (edited.id !== messageId) {
          turnsStarted.current++;
          void regenerate({ messageId: edited.id });
          return;
        }
        if (!regenerateReply) return;
        // The reply to the edited message, now the latest: a new variant answers the edited text.
        const reply = messagesRef.current.find(
          (message) => message.role === "assistant" && message.metadata?.replyToMessageId === messageId,
        );
        if (reply) {
          turnsStarted.current++;
          void regenerate({ messageId: reply.id });
        }
      },
      onRestoreVersion: async (messageId, versionId) => {
        await restoreMessageVersion(conversationId, messageId, versionId);
        await reloadTranscript();
      },
      onBranch: async (messageId) => {
        const branch = await branchFrom(conversationId, messageId);
        await queryClient.invalidateQueries({ queryKey: conversationsKey });
        router.push(`/chat/${branch.id}`);
      },
    }),
    [clearError, conversationId, detail, queryClient, regenerate, reloadTranscript, router],
  );
  const messagesRef = useRef(messages);
  messagesRef.current = messages;

  const onRevealMessage = useCallback((messageId: string) => {
    // On a small screen the drawer covers the transcript: close it so the message can be seen.
    if (window.innerWidth < SIDE_BY_SIDE_MIN_WIDTH) setInspector(null);
    requestAnimationFrame(() => revealMessage(messageId));
  }, []);

  const streamingMessageId = status === "streaming" || replyInProgress ? messages.at(-1)?.id : undefined;
  return (
    <div className="flex min-h-0 flex-1">
      <main
        id="main-content"
        className="flex min-w-0 flex-1 flex-col"
        data-testid="chat-view"
        data-status={status}
        data-live={live.connected ? "connected" : "connecting"}
      >
        <ChatHeader
          conversationId={conversationId}
          title={detail.conversation.title}
          personaName={detail.persona.name}
          detail={detail}
          isOwner={detail.conversation.isOwner}
          previewOpen={inspector?.kind === "preview"}
          onPreview={() =>
            setInspector((current) => (current?.kind === "preview" ? null : { kind: "preview" }))
          }
          onSettings={() => setSettingsOpen(true)}
          compactAction={
            canManageSummaries && (
              <SummaryCompactButton
                conversationId={conversationId}
                disabled={replyRunning}
                onCompacted={async (summary) => {
                  await syncTranscript(summary.id);
                  await afterSummaryChange();
                }}
              />
            )
          }
        />
        <MessageList
          messages={messages}
          conversationId={conversationId}
          userId={userId}
          isOwner={detail.conversation.isOwner}
          personaName={detail.persona.name}
          showAuthors={detail.conversation.visibility === "room"}
          status={status}
          replyInProgress={replyInProgress}
          error={error}
          inspectedMessageId={inspector?.kind === "reply" ? inspector.messageId : null}
          actions={actions}
          onRetryRequest={retryRequest}
          pinVersion={pinVersion}
          onViewSummary={() => setSummaryOpen(true)}
        />
        {detail.conversation.visibility === "room" && <TypingRow typists={live.typists} />}
        <Composer
          value={draft}
          onChange={(value) => {
            setDraft(value);
            if (value.trim() && detail.conversation.visibility === "room") live.noteTyping();
          }}
          busy={replyRunning}
          inputRef={composerInput}
          onStop={() => void stopNow()}
          attachments={picker.pending}
          onAddFiles={picker.add}
          onRemoveAttachment={picker.remove}
          onWriteAsMe={async () => (await writeAsMe(conversationId)).draft}
          onSend={() => {
            const text = draft.trim();
            const files = picker.ready.map(
              (attachment): FileUIPart => ({
                type: "file",
                mediaType: attachment.mime,
                url: attachment.url,
                ...(attachment.filename ? { filename: attachment.filename } : {}),
              }),
            );
            if (!text && files.length === 0) return;
            setDraft("");
            picker.clear();
            send(text, files);
          }}
        />
      </main>
      {inspector && (
        <InspectorPanel
          conversationId={conversationId}
          target={inspector}
          replyStreaming={inspector.kind === "reply" && inspector.messageId === streamingMessageId}
          draft={draft}
          onClose={() => setInspector(null)}
          onRevealMessage={onRevealMessage}
        />
      )}
      <SummaryPanel
        conversationId={conversationId}
        open={summaryOpen}
        onClose={() => setSummaryOpen(false)}
        messages={messages}
        canManage={canManageSummaries}
        onEdited={afterSummaryChange}
        onReverted={async (restoredSummaryId) => {
          await syncTranscript(restoredSummaryId);
          await afterSummaryChange();
        }}
      />
      {detail.conversation.isOwner && (
        <ConversationSettings
          conversationId={conversationId}
          open={settingsOpen}
          onClose={() => setSettingsOpen(false)}
        />
      )}
    </div>
  );
}
