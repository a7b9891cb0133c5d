"use client";
// One conversation in the sidebar: a link, with rename (inline) and delete (after a confirm) for its owner, and
// anything shown under it (a search's message hits).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ReactNode, type RefObject, useEffect, useRef, useState } from "react";
import { ConfirmDialog } from "@/components/ui/dialog";
import { IconButton } from "@/components/ui/icon-button";
import { PencilIcon, TrashIcon } from "@/components/ui/icons";
import { submitHandler } from "@/components/ui/submit-handler";
import {
  type ConversationSummary,
  conversationKey,
  conversationsKey,
  deleteConversation,
  updateConversation,
} from "./api";

export function ConversationListItem({
  conversation,
  active,
  canEdit,
  children,
}: {
  conversation: ConversationSummary;
  active: boolean;
  canEdit: boolean;
  /** Shown under the entry, e.g. the search hits in this conversation. */
  children?: ReactNode;
}) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const { renaming, startRenaming, stopRenaming, title, setTitle, commit, rename, inputRef } =
    useRename(conversation);

  const remove = useMutation({
    mutationFn: () => deleteConversation(conversation.id),
    onSuccess: async () => {
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: conversationsKey });
      if (active) router.push("/chat");
    },
  });

  if (renaming) {
    return (
      <RenameForm
        conversation={conversation}
        title={title}
        onTitle={setTitle}
        onCommit={commit}
        onCancel={stopRenaming}
        pending={rename.isPending}
        error={rename.error?.message}
        inputRef={inputRef}
      />
    );
  }

  return (
    <li data-testid="conversation-item" data-conversation-id={conversation.id} data-active={active}>
      <div
        className={`group relative flex items-center rounded-lg ${
          active ? "bg-zinc-200/70 dark:bg-zinc-800" : "hover:bg-zinc-100 dark:hover:bg-zinc-800/50"
        }`}
      >
        <Link
          href={`/chat/${conversation.id}`}
          className={`min-w-0 flex-1 truncate px-2 py-1.5 text-sm ${active ? "font-medium text-zinc-900 dark:text-zinc-50" : "text-zinc-700 dark:text-zinc-300"} ${canEdit ? "max-md:pr-16 group-hover:pr-16 group-focus-within:pr-16" : ""}`}
          data-testid="conversation-link"
          title={conversation.title}
          aria-current={active ? "page" : undefined}
        >
          {conversation.title}
        </Link>
        {canEdit && (
          <span className="absolute right-1 hidden items-center group-focus-within:flex group-hover:flex max-md:flex">
            <IconButton
              label={`Rename ${conversation.title}`}
              title="Rename"
              onClick={startRenaming}
              className="size-7"
              testId="rename-conversation"
            >
              <PencilIcon size={14} />
            </IconButton>
            <IconButton
              label={`Delete ${conversation.title}`}
              title="Delete"
              onClick={() => setConfirming(true)}
              className="size-7 hover:text-red-600 dark:hover:text-red-400"
              testId="delete-conversation"
            >
              <TrashIcon size={14} />
            </IconButton>
          </span>
        )}
      </div>
      {children}
      {confirming && (
        <DeleteConfirmation
          conversation={conversation}
          onDelete={() => remove.mutate()}
          pending={remove.isPending}
          error={remove.error?.message}
          onClose={() => setConfirming(false)}
        />
      )}
    </li>
  );
}

/** Renaming inline: the box starts from the current title; an empty or unchanged title just closes it. */
function useRename(conversation: ConversationSummary) {
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(conversation.title);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (renaming) inputRef.current?.select();
  }, [renaming]);

  const rename = useMutation({
    mutationFn: (next: string) => updateConversation(conversation.id, { title: next }),
    onSuccess: async () => {
      setRenaming(false);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: conversationsKey }),
        queryClient.invalidateQueries({ queryKey: conversationKey(conversation.id) }),
      ]);
    },
  });

  const stopRenaming = () => {
    setTitle(conversation.title);
    setRenaming(false);
  };
  const startRenaming = () => {
    setTitle(conversation.title);
    setRenaming(true);
  };
  function commit() {
    const next = title.trim();
    if (!next || next === conversation.title) {
      stopRenaming();
      return;
    }
    rename.mutate(next);
  }
  return { renaming, startRenaming, stopRenaming, title, setTitle, commit, rename, inputRef };
}

/** The title as a box: Enter or leaving it saves, Escape puts the old title back. */
function RenameForm({
  conversation,
  title,
  onTitle,
  onCommit,
  onCancel,
  pending,
  error,
  inputRef,
}: {
  conversation: ConversationSummary;
  title: string;
  onTitle: (title: string) => void;
  onCommit: () => void;
  onCancel: () => void;
  pending: boolean;
  error: string | undefined;
  inputRef: RefObject<HTMLInputElement | null>;
}) {
  return (
    <li data-testid="conversation-item" data-conversation-id={conversation.id}>
      <form onSubmit={submitHandler(() => onCommit())}>
        <input
          ref={inputRef}
          value={title}
          onChange={(event) => onTitle(event.target.value)}
          onBlur={onCommit}
          onKeyDown={(event) => {
            if (event.key === "Escape") onCancel();
          }}
          maxLength={200}
          aria-label="Conversation title"
          className="input-sm py-1.5 text-sm"
          data-testid="rename-input"
          disabled={pending}
        />
        {error && (
          <p className="px-1 pt-1 text-xs text-red-600" role="alert" data-testid="rename-error">
            {error}
          </p>
        )}
      </form>
    </li>
  );
}

/** The question before deleting a conversation, with what the delete takes with it. */
function DeleteConfirmation({
  conversation,
  onDelete,
  pending,
  error,
  onClose,
}: {
  conversation: ConversationSummary;
  onDelete: () => void;
  pending: boolean;
  error: string | undefined;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      open
      title="Delete this conversation?"
      message={
        <>
          <strong className="font-medium text-zinc-900 dark:text-zinc-100">{conversation.title}</strong> and
          all of its messages, turns and recorded payloads will be deleted. This cannot be undone.
          {error && <span className="mt-2 block text-red-600">{error}</span>}
        </>
      }
      confirmLabel={pending ? "Deleting…" : "Delete"}
      pending={pending}
      onConfirm={onDelete}
      onCancel={onClose}
      testId="confirm-delete"
    />
  );
}
