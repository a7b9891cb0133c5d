"use client";
// One conversation in the sidebar: a link, with rename (inline) and delete (after a confirm) for its owner, and
// anything shown under it (a search's message hits).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ReactNode, useEffect, useRef, useState } from "react";
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
  const router = useRouter();
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState(false);
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
  const remove = useMutation({
    mutationFn: () => deleteConversation(conversation.id),
    onSuccess: async () => {
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: conversationsKey });
      if (active) router.push("/chat");
    },
  });

  function commit() {
    const next = title.trim();
    if (!next || next === conversation.title) {
      setTitle(conversation.title);
      setRenaming(false);
      return;
    }
    rename.mutate(next);
  }

  if (renaming) {
    return (
      <li data-testid="conversation-item" data-conversation-id={conversation.id}>
        <form onSubmit={submitHandler(() => commit())}>
          <input
            ref={inputRef}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            onBlur={commit}
            onKeyDown={(event) => {
              if (event.key === "Escape") {
                setTitle(conversation.title);
                setRenaming(false);
              }
            }}
            maxLength={200}
            aria-label="Conversation title"
            className="input-sm py-1.5 text-sm"
            data-testid="rename-input"
            disabled={rename.isPending}
          />
          {rename.error && (
            <p className="px-1 pt-1 text-xs text-red-600" role="alert" data-testid="rename-error">
              {rename.error.message}
            </p>
          )}
        </form>
      </li>
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
              onClick={() => {
                setTitle(conversation.title);
                setRenaming(true);
              }}
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
        <ConfirmDialog
          open
          title="Delete this conversation?"
          message={
            <>
              <strong className="font-medium text-zinc-900 dark:text-zinc-100">{conversation.title}</strong>{" "}
              and all of its messages, turns and recorded payloads will be deleted. This cannot be undone.
              {remove.error && <span className="mt-2 block text-red-600">{remove.error.message}</span>}
            </>
          }
          confirmLabel={remove.isPending ? "Deleting…" : "Delete"}
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
          onCancel={() => setConfirming(false)}
          testId="confirm-delete"
        />
      )}
    </li>
  );
}
