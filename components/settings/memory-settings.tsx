"use client";
// Settings → Memories: what the personas remember about the signed-in user, which they may correct or delete (the
// next turn sees the change), and whether a conversation's summary may become such a memory.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/ui/api-client";
import { ItemList } from "@/components/ui/item-list";
import { PageHeading } from "@/components/ui/page-heading";
import { listOwnMemories, memoriesKey, type OwnMemoryView } from "./memories-api";

export function MemorySettings() {
  const queryClient = useQueryClient();
  const page = useQuery({ queryKey: memoriesKey, queryFn: listOwnMemories });
  const refresh = () => queryClient.invalidateQueries({ queryKey: memoriesKey });
  const remove = useMutation({
    mutationFn: (memoryId: string) => apiFetch<void>(`/api/memories/${memoryId}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
  const preferences = useMutation({
    mutationFn: (sessionSummaries: boolean) =>
      apiFetch("/api/memories/preferences", { method: "PUT", body: { sessionSummaries } }),
    onSuccess: refresh,
  });
  const error = page.error ?? remove.error ?? preferences.error;

  return (
    <main id="main-content" className="mx-auto max-w-2xl space-y-5 p-6" data-testid="memory-settings">
      <PageHeading title="Memories" />
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        What the personas remember about you. They see these in every conversation with them; a change here
        applies from the next reply on.
      </p>
      {page.data && (
        <label className="flex items-start gap-3 rounded-xl border border-zinc-200 p-3 text-sm dark:border-zinc-800">
          <input
            type="checkbox"
            className="mt-1"
            checked={page.data.preferences.sessionSummaries}
            disabled={preferences.isPending}
            onChange={(event) => preferences.mutate(event.target.checked)}
            data-testid="session-summaries-toggle"
          />
          <span>
            <span className="font-medium">Keep conversation summaries as memories</span>
            <span className="block text-zinc-600 dark:text-zinc-400">
              When a conversation is compacted, its summary also becomes a memory the persona sees in your
              other conversations with it. Turning this off applies to the next summary; delete earlier ones
              below.
            </span>
          </span>
        </label>
      )}
      {page.isPending && <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading…</p>}
      <ItemList items={page.data?.memories} emptyText="No memories yet." emptyTestId="no-memories">
        {(memory) => (
          <MemoryItem memory={memory} onDelete={() => remove.mutate(memory.id)} onSaved={refresh} />
        )}
      </ItemList>
      {error && (
        <p role="alert" className="text-sm text-red-600" data-testid="memory-error">
          {error.message}
        </p>
      )}
    </main>
  );
}

function MemoryItem({
  memory,
  onDelete,
  onSaved,
}: {
  memory: OwnMemoryView;
  onDelete: () => void;
  onSaved: () => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (content: string) =>
      apiFetch(`/api/memories/${memory.id}`, { method: "PATCH", body: { content } }),
    onSuccess: () => {
      setDraft(null);
      onSaved();
    },
  });
  const origin =
    memory.area === "session_summary"
      ? `Summary of ${memory.conversationTitle ?? "a conversation"}`
      : memory.area.replaceAll("_", " ");
  return (
    <li
      className="space-y-2 rounded-xl border border-zinc-200 p-3 dark:border-zinc-800"
      data-testid="memory"
      data-area={memory.area}
    >
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {origin}
        {memory.personaName ? ` · ${memory.personaName}` : ""}
      </p>
      {draft === null ? (
        <p className="text-sm whitespace-pre-wrap" data-testid="memory-content">
          {memory.content}
        </p>
      ) : (
        <textarea
          className="input min-h-24 w-full"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          aria-label="Memory text"
          data-testid="memory-editor"
        />
      )}
      <div className="flex gap-2">
        {draft === null ? (
          <>
            <button
              type="button"
              className="button-ghost-sm"
              onClick={() => setDraft(memory.content)}
              data-testid="edit-memory"
            >
              Edit
            </button>
            <button type="button" className="button-ghost-sm" onClick={onDelete} data-testid="delete-memory">
              Delete
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className="button-secondary"
              disabled={save.isPending || !draft.trim()}
              onClick={() => save.mutate(draft.trim())}
              data-testid="save-memory"
            >
              Save
            </button>
            <button type="button" className="button-ghost-sm" onClick={() => setDraft(null)}>
              Cancel
            </button>
          </>
        )}
      </div>
      {save.error && (
        <p role="alert" className="text-sm text-red-600">
          {save.error.message}
        </p>
      )}
    </li>
  );
}
