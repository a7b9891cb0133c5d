"use client";
// One message in the transcript. Assistant replies render as markdown with their actions (copy, inspect the
// payload, regenerate the latest, flip between its variants, edit, branch from it); user messages are shown as
// typed, with copy, edit and branch. A failed reply says so once and offers Retry.
import type { FileUIPart } from "ai";
import { memo, useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { AlertIcon, ChevronRightIcon, InspectIcon, PencilIcon, RefreshIcon } from "@/components/ui/icons";
import type { ChatUIMessage } from "@/lib/chat/ui-messages";
import type { ModelOption } from "./api";
import { Markdown } from "./markdown/markdown";
import { MessageEditor } from "./message-editor";
import { MessageFile } from "./message-file";
import { MessageVersions } from "./message-versions";
import { QuestionVersions } from "./question-versions";
import { ThoughtBlock } from "./thought-block";

export function messageText(message: ChatUIMessage): string {
  return message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** The files a message carries (uploaded attachments and fetched image links, as file parts). */
export function messageFiles(message: ChatUIMessage): FileUIPart[] {
  return message.parts.filter((part): part is FileUIPart => part.type === "file");
}

export interface MessageActions {
  onInspect: (messageId: string) => void;
  /** A new variant of this reply (or a retry of a failed one), answered by `modelId` first when given. */
  onRegenerate: (replyId: string, modelId?: string) => void;
  /** The models the owner may regenerate a reply with ("Regenerate with…"); empty for everyone else. */
  regenerateModels: ModelOption[];
  /** Show this reply variant, or this version of a question with its branch. */
  onChooseVariant: (variantId: string) => Promise<void>;
  onEdit: (messageId: string, text: string, regenerate: boolean) => Promise<void>;
  onRestoreVersion: (messageId: string, versionId: string) => Promise<void>;
  onBranch: (messageId: string) => Promise<void>;
}

const BranchIcon = () => (
  <svg
    width="16"
    height="16"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    aria-hidden
  >
    <circle cx="6" cy="5" r="2" />
    <circle cx="6" cy="19" r="2" />
    <circle cx="18" cy="7" r="2" />
    <path d="M6 7v10M18 9c0 5-6 4-11 8" />
  </svg>
);

export const MessageItem = memo(function MessageItem({
  message,
  storedId,
  conversationId,
  personaName,
  showAuthor = false,
  streaming,
  inspected,
  canRegenerate,
  canEdit,
  canBranch,
  isLatestUserMessage,
  actions,
}: {
  message: ChatUIMessage;
  /** The id the server stored it under (differs from the client id for a just-sent user message). */
  storedId: string;
  conversationId: string;
  personaName: string;
  /** Show who wrote a user message (rooms, where several people write). */
  showAuthor?: boolean;
  streaming: boolean;
  inspected: boolean;
  /** The latest reply: it can get a new variant, or another of its variants can be chosen. */
  canRegenerate: boolean;
  canEdit: boolean;
  canBranch: boolean;
  /** The user's latest message: editing it offers "Save and regenerate". */
  isLatestUserMessage: boolean;
  actions: MessageActions;
}) {
  const [editing, setEditing] = useState(false);
  const text = messageText(message);
  const files = messageFiles(message);
  const status = message.metadata?.status;
  // Covered by the active summary: still shown, muted, since the model now sees it only through the summary.
  const summarized = message.metadata?.summarized === true;
  const edited = message.metadata?.edited === true;
  const saveEdit = async (newText: string, regenerate: boolean) => {
    await actions.onEdit(storedId, newText, regenerate);
    setEditing(false);
  };
  // Only the user's latest message offers to regenerate the reply to its edit.
  const editor = (
    <MessageEditor
      initialText={text}
      offerRegenerate={message.role === "user" && isLatestUserMessage}
      onSave={saveEdit}
      onCancel={() => setEditing(false)}
    />
  );
  const editButton = canEdit && !summarized && (
    <button
      type="button"
      className="button-ghost-sm"
      onClick={() => setEditing(true)}
      data-testid="edit-message"
      title={
        message.role === "user"
          ? "Edit: an answered question gets a new version with its own answer (< > switches between them)"
          : "Edit this message in place (the earlier version is kept)"
      }
    >
      <PencilIcon size={14} />
      Edit
    </button>
  );
  const branchButton = canBranch && (
    <button
      type="button"
      className="button-ghost-sm"
      onClick={() => void actions.onBranch(storedId)}
      data-testid="branch-message"
      title="A new conversation with the messages up to this one"
    >
      <BranchIcon />
      Branch
    </button>
  );
  const versions = edited && (
    <MessageVersions
      conversationId={conversationId}
      messageId={storedId}
      canRestore={canEdit}
      onRestore={(versionId) => actions.onRestoreVersion(storedId, versionId)}
    />
  );

  if (message.role === "user") {
    return (
      <article
        className={`group flex flex-col items-end ${summarized ? "opacity-60 transition-opacity hover:opacity-100" : ""}`}
        data-testid="message"
        data-role="user"
        data-message-id={storedId}
        data-summarized={summarized || undefined}
      >
        {showAuthor && message.metadata?.authorName && (
          <span
            className="mb-1 text-xs font-medium text-zinc-600 dark:text-zinc-400"
            data-testid="message-author"
          >
            {message.metadata.authorName}
          </span>
        )}
        {editing ? (
          editor
        ) : (
          <div
            data-bubble
            className="max-w-[85%] rounded-2xl rounded-br-md bg-zinc-100 px-4 py-2 text-sm leading-relaxed text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100"
          >
            {files.length > 0 && (
              <div className={`flex flex-wrap justify-end gap-1.5 ${text ? "mb-1.5" : ""}`}>
                {files.map((file) => (
                  <MessageFile key={file.url} file={file} facts={message.metadata?.files?.[file.url]} />
                ))}
              </div>
            )}
            {text && (
              <p className="break-words whitespace-pre-wrap" data-testid="message-text">
                {text}
              </p>
            )}
          </div>
        )}
        {!editing && (
          <div className="mt-1 flex items-center gap-0.5 text-zinc-600 dark:text-zinc-300">
            {message.metadata?.questionVersions && (
              <QuestionVersions
                versions={message.metadata.questionVersions}
                enabled={canBranch}
                onShow={actions.onChooseVariant}
              />
            )}
            {versions}
            <CopyButton text={text} testId="copy-message" label="Copy message" iconOnly />
            {editButton}
            {branchButton}
          </div>
        )}
      </article>
    );
  }

  const failed = status === "error";
  const stopped = status === "stopped";
  const variants = message.metadata?.variants;
  return (
    <article
      className={`group ${summarized ? "opacity-60 transition-opacity hover:opacity-100" : ""}`}
      data-testid="message"
      data-role="assistant"
      data-message-id={storedId}
      data-summarized={summarized || undefined}
      data-status={streaming ? "streaming" : (status ?? "complete")}
      data-inspected={inspected || undefined}
    >
      <div className="mb-1 flex items-center gap-2 text-xs">
        <span className="flex size-5 items-center justify-center rounded-full bg-indigo-700 text-[10px] font-semibold text-white">
          {(message.metadata?.authorName ?? personaName).slice(0, 1).toUpperCase()}
        </span>
        <span className="font-medium text-zinc-700 dark:text-zinc-300">
          {message.metadata?.authorName ?? personaName}
        </span>
        {status === "interrupted" && (
          <span
            className="chip bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200"
            data-testid="interrupted-chip"
            title="The reply broke off before it was finished: this is what was stored"
          >
            interrupted
          </span>
        )}
        {stopped && !streaming && (
          <span
            className="chip bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200"
            data-testid="stopped-chip"
            title="You stopped this reply: the model will see the text shown here"
          >
            stopped
          </span>
        )}
        {message.metadata?.modelId && (
          <span className="font-mono text-zinc-500 dark:text-zinc-400" data-testid="reply-model">
            {message.metadata.modelId}
          </span>
        )}
        {message.metadata?.fallbackFromModelId && (
          <span
            className="chip bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200"
            data-testid="reply-fallback"
            title="The first model failed: inspect the reply to see each attempt"
          >
            fell back from {message.metadata.fallbackFromModelId}
          </span>
        )}
      </div>
      <div
        data-bubble
        className={`rounded-xl pl-7 ${inspected ? "relative before:absolute before:inset-y-0 before:left-2 before:w-0.5 before:rounded before:bg-indigo-500" : ""}`}
      >
        {message.metadata?.reasoning && <ThoughtBlock reasoning={message.metadata.reasoning} />}
        {editing ? (
          editor
        ) : (
          <div data-testid="message-text">
            {text ? (
              <Markdown text={text} />
            ) : streaming || failed ? null : (
              <p className="text-sm text-zinc-600 italic dark:text-zinc-300">
                {stopped ? "(stopped before any text)" : "(empty reply)"}
              </p>
            )}
          </div>
        )}
        {(message.metadata?.toolNames?.length ?? 0) > 0 && (
          <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-300" data-testid="message-tools">
            Used{" "}
            {message.metadata?.toolNames?.map((name, index) => (
              <span key={name}>
                {index > 0 && ", "}
                <code className="font-mono">{name}</code>
              </span>
            ))}
            {" · "}inspect to see the calls and their outputs
          </p>
        )}
        {streaming && message.metadata?.retryProgress && (
          <p
            className="mt-1 text-xs text-zinc-600 dark:text-zinc-300"
            role="status"
            data-testid="retry-progress"
          >
            {message.metadata.retryProgress}
          </p>
        )}
        {streaming && !message.metadata?.retryProgress && (
          <span
            className="mt-1 inline-flex gap-1"
            role="status"
            aria-label="Streaming"
            data-testid="streaming-indicator"
          >
            <span className="size-1.5 animate-pulse-dot rounded-full bg-zinc-400" />
            <span className="size-1.5 animate-pulse-dot rounded-full bg-zinc-400 [animation-delay:150ms]" />
            <span className="size-1.5 animate-pulse-dot rounded-full bg-zinc-400 [animation-delay:300ms]" />
          </span>
        )}
        {failed && !streaming && (
          <p
            className="mt-1 flex items-center gap-1.5 text-sm text-red-700 dark:text-red-300"
            data-testid="message-failed"
          >
            <AlertIcon size={14} /> This reply failed. Inspect it to see each attempt and its error.
          </p>
        )}
        {!streaming && !editing && (
          <div className="mt-1.5 -ml-2 flex flex-wrap items-center gap-0.5 text-zinc-600 dark:text-zinc-300">
            {variants && (
              <span
                className="mr-1 inline-flex items-center"
                data-testid="variant-pager"
                title={
                  canRegenerate
                    ? undefined
                    : "Only the latest reply's variant can be changed: branch from here to take another path"
                }
              >
                <button
                  type="button"
                  className="button-ghost-sm px-1"
                  disabled={!canRegenerate || variants.index === 0}
                  onClick={() => void actions.onChooseVariant(variants.ids[variants.index - 1])}
                  aria-label="Previous variant"
                  data-testid="variant-previous"
                >
                  <ChevronRightIcon size={14} className="rotate-180" />
                </button>
                <span className="tabular-nums text-xs" data-testid="variant-position">
                  {variants.index + 1} / {variants.ids.length}
                </span>
                <button
                  type="button"
                  className="button-ghost-sm px-1"
                  disabled={!canRegenerate || variants.index === variants.ids.length - 1}
                  onClick={() => void actions.onChooseVariant(variants.ids[variants.index + 1])}
                  aria-label="Next variant"
                  data-testid="variant-next"
                >
                  <ChevronRightIcon size={14} />
                </button>
              </span>
            )}
            {text && <CopyButton text={text} testId="copy-message" />}
            <button
              type="button"
              className={`button-ghost-sm ${inspected ? "bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300" : ""}`}
              onClick={() => actions.onInspect(storedId)}
              data-testid="inspect-button"
              aria-pressed={inspected}
            >
              <InspectIcon />
              Inspect
            </button>
            {canRegenerate && (
              <button
                type="button"
                className="button-ghost-sm"
                onClick={() => actions.onRegenerate(storedId)}
                data-testid={failed ? "retry-reply" : "regenerate-button"}
                title={
                  failed
                    ? "Run the reply again; the failed one is replaced"
                    : "Write another variant of this reply; the others are kept"
                }
              >
                <RefreshIcon />
                {failed ? "Retry" : "Regenerate"}
              </button>
            )}
            {canRegenerate && actions.regenerateModels.length > 0 && (
              <select
                className="button-ghost-sm bg-transparent"
                aria-label="Regenerate with another model"
                data-testid="regenerate-with"
                value=""
                onChange={(event) => {
                  if (event.target.value) actions.onRegenerate(storedId, event.target.value);
                }}
              >
                <option value="">Regenerate with…</option>
                {actions.regenerateModels.map((model) => (
                  <option key={model.id} value={model.id}>
                    {model.label} ({model.id})
                  </option>
                ))}
              </select>
            )}
            {editButton}
            {branchButton}
            {versions}
          </div>
        )}
      </div>
    </article>
  );
});
