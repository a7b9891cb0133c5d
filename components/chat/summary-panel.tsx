"use client";
// The summary panel: the active summary (what it covers, its text, edit and revert for the owner or an admin)
// and, below it, the earlier summaries, read only.
import { useQuery } from "@tanstack/react-query";
import { Dialog } from "@/components/ui/dialog";
import { SummaryActive, type SummaryConversation } from "./summary-active";
import { listSummaries, type SummaryList, summariesKey } from "./summary-api";
import { SummaryHistory } from "./summary-history";

export function SummaryPanel({
  open,
  onClose,
  ...conversation
}: SummaryConversation & { open: boolean; onClose: () => void }) {
  const { conversationId } = conversation;
  const list = useQuery<SummaryList>({
    queryKey: summariesKey(conversationId),
    queryFn: () => listSummaries(conversationId),
    enabled: open,
  });
  const summaries = list.data?.summaries ?? [];
  const active = summaries.find((summary) => summary.isActive) ?? null;
  const previous = active
    ? (summaries.find((summary) => summary.state === "superseded" && summary.supersededBy === active.id) ??
      null)
    : null;
  const earlier = summaries.filter((summary) => !summary.isActive);

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Conversation summary"
      testId="summary-panel"
      className="max-w-2xl"
    >
      <div className="space-y-5">
        {list.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading…</p>}
        {list.error && (
          <p className="text-sm text-red-600" role="alert" data-testid="summary-load-error">
            {list.error.message}
          </p>
        )}
        {list.data && !active && (
          <p
            className="rounded-lg bg-zinc-50 px-3 py-2 text-sm text-zinc-600 dark:bg-zinc-900 dark:text-zinc-300"
            data-testid="summary-none"
          >
            No summary is active: the model sees the conversation's messages verbatim (as far as the budget
            allows).
          </p>
        )}
        {active && (
          <SummaryActive
            // A new active summary starts a fresh edit and confirm state.
            key={active.id}
            summary={active}
            previous={previous}
            {...conversation}
          />
        )}
        <SummaryHistory summaries={earlier} />
      </div>
    </Dialog>
  );
}
