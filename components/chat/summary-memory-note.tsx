"use client";
// The summary panel's word on memories. A summary becomes the reader's memory (seen by the persona in their other
// conversations with it) only once they choose so: until they have chosen, the panel asks, once; "Keep" also keeps
// this summary. Once kept, it says so and links to Settings → Memories, where the choice can be changed.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { listOwnMemories, memoriesKey } from "@/components/settings/memories-api";
import { ActionButtons } from "@/components/ui/action-buttons";
import { apiFetch } from "@/components/ui/api-client";
import { ErrorMessage } from "@/components/ui/error-message";

export function SummaryMemoryNote({
  summaryId,
  conversationId,
}: {
  summaryId: string;
  conversationId: string;
}) {
  const memories = useQuery({ queryKey: memoriesKey, queryFn: listOwnMemories });
  if (!memories.data) return null;
  if (memories.data.memories.some((memory) => memory.summaryId === summaryId)) return <KeptNote />;
  if (!memories.data.preferences.chosen) return <KeepQuestion conversationId={conversationId} />;
  return null;
}

function KeptNote() {
  return (
    <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="summary-memory-note">
      This summary is also kept as your memory: the persona sees it in your other conversations with it.{" "}
      <Link href="/settings/memories" className="underline">
        See or delete it in Settings → Memories
      </Link>
      .
    </p>
  );
}

/** The question's answers: keep summaries as memories, or not. */
const CHOICES = [
  { keep: true, label: "Keep as memories", className: "button-primary", testId: "summary-memory-keep" },
  { keep: false, label: "Don't keep", testId: "summary-memory-decline" },
];

function KeepQuestion({ conversationId }: { conversationId: string }) {
  const queryClient = useQueryClient();
  const choose = useMutation({
    mutationFn: (keep: boolean) =>
      apiFetch("/api/memories/preferences", {
        method: "PUT",
        body: keep ? { sessionSummaries: true, keepSummaryOf: conversationId } : { sessionSummaries: false },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memoriesKey }),
  });
  return (
    <div
      className="space-y-2 rounded-lg border border-zinc-200 p-3 text-xs dark:border-zinc-800"
      data-testid="summary-memory-question"
    >
      <p className="text-zinc-700 dark:text-zinc-300">
        Keep summaries as memories? The persona would then see this summary, and those of your other compacted
        conversations, in your other conversations with it. You are asked once; change it any time in{" "}
        <Link href="/settings/memories" className="underline">
          Settings → Memories
        </Link>
        .
      </p>
      <div className="flex gap-2">
        <ActionButtons
          actions={CHOICES.map(({ keep, ...choice }) => ({
            ...choice,
            onClick: () => choose.mutate(keep),
            disabled: choose.isPending,
          }))}
        />
      </div>
      <ErrorMessage message={choose.error?.message ?? null} testId="summary-memory-error" />
    </div>
  );
}
