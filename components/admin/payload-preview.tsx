"use client";
// "Preview on a conversation": pick one of your conversations, type a message, and see the payload the next turn
// would send with the unsaved edits, item by item, with what changed against the saved version.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/ui/api-client";
import { ErrorMessage } from "@/components/ui/error-message";
import { PendingButton, SelectField } from "@/components/ui/form-controls";
import { submitHandler } from "@/components/ui/submit-handler";
import type { ApiOutput } from "@/lib/api/responses";
import { diffItems, itemText } from "@/lib/payload-diff";
import { adminKeys, type PreviewResult } from "./admin-api";

export interface PreviewPair {
  saved: PreviewResult;
  edited: PreviewResult;
}

export function PayloadPreview({
  runPreview,
  disabledReason,
}: {
  runPreview: (conversationId: string, text: string) => Promise<PreviewPair>;
  disabledReason?: string | null;
}) {
  const conversations = useQuery({
    queryKey: adminKeys.conversations,
    queryFn: () => apiFetch<ApiOutput<"GET /api/conversations">>("/api/conversations"),
  });
  const [conversationId, setConversationId] = useState("");
  const [text, setText] = useState("Hello!");
  const preview = useMutation({ mutationFn: () => runPreview(conversationId || firstId(), text) });

  function firstId(): string {
    return conversations.data?.conversations[0]?.id ?? "";
  }

  const pair = preview.data;
  const noConversations = conversations.data && conversations.data.conversations.length === 0;

  return (
    <section
      className="space-y-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800"
      data-testid="payload-preview"
    >
      <h2 className="font-medium">Preview on a conversation</h2>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        The payload the next turn would send with your unsaved edits. Nothing is stored and no model is
        called.
      </p>
      {noConversations ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          You have no conversations yet: start one in the chat to preview on it.
        </p>
      ) : (
        <form className="flex flex-wrap items-end gap-2" onSubmit={submitHandler(() => preview.mutate())}>
          <SelectField
            label="Conversation"
            value={conversationId || firstId()}
            options={(conversations.data?.conversations ?? []).map((conversation): [string, string] => [
              conversation.id,
              conversation.title,
            ])}
            onChange={setConversationId}
            testId="preview-conversation"
          />
          <label className="min-w-48 flex-1 text-sm">
            Next message
            <input
              className="input"
              value={text}
              onChange={(event) => setText(event.target.value)}
              data-testid="preview-text"
            />
          </label>
          <PendingButton
            type="submit"
            pending={preview.isPending}
            pendingLabel="Building…"
            disabled={Boolean(disabledReason) || !(conversationId || firstId())}
            testId="preview-run"
          >
            Preview
          </PendingButton>
        </form>
      )}
      {disabledReason && <p className="text-xs text-amber-700 dark:text-amber-300">{disabledReason}</p>}
      <ErrorMessage message={preview.error?.message} testId="preview-error" />
      {pair && <PreviewDiff pair={pair} />}
    </section>
  );
}

/** The edited payload item by item, each marked when it differs from the saved one, and what the edits removed. */
function PreviewDiff({ pair }: { pair: PreviewPair }) {
  const diff = diffItems(pair.saved.items, pair.edited.items);
  const changedIds = new Set(
    diff.entries
      .filter((entry) => entry.change !== "same" && entry.change !== "removed")
      .map((entry) => entry.item.id),
  );
  const removed = diff.entries.filter((entry) => entry.change === "removed").map((entry) => entry.item);
  return (
    <div className="space-y-2">
      <p className="text-sm" data-testid="preview-diff">
        Versus saved: <strong data-testid="diff-added">{diff.counts.added}</strong> added,{" "}
        <strong data-testid="diff-removed">{diff.counts.removed}</strong> removed,{" "}
        <strong data-testid="diff-changed">{diff.counts.changed}</strong> changed,{" "}
        <strong data-testid="diff-moved">{diff.counts.moved}</strong> moved · {pair.edited.items.length} items
        · {pair.edited.modelId}
      </p>
      {removed.length > 0 && (
        <ul className="space-y-1" data-testid="preview-removed">
          {removed.map((item) => (
            <li key={item.id} className="rounded bg-red-50 px-2 py-1 text-xs line-through dark:bg-red-950">
              {item.tag} · {item.role}: {itemText(item).slice(0, 200)}
            </li>
          ))}
        </ul>
      )}
      <ol className="space-y-1" data-testid="preview-items">
        {pair.edited.items.map((item) => (
          <li
            key={item.id}
            className={`rounded border px-2 py-1 text-xs ${changedIds.has(item.id) ? "border-lime-500 bg-lime-50 dark:bg-lime-950" : "border-zinc-200 dark:border-zinc-800"}`}
            data-testid="preview-item"
            data-tag={item.tag}
            data-role={item.role}
            data-changed={changedIds.has(item.id) ? "true" : "false"}
          >
            <span className="font-mono font-semibold">{item.tag}</span>{" "}
            <span className="text-zinc-500 dark:text-zinc-400">{item.role}</span>
            <pre className="mt-1 whitespace-pre-wrap break-words font-sans">{itemText(item)}</pre>
          </li>
        ))}
      </ol>
    </div>
  );
}
