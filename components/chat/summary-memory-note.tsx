"use client";
// Says, in the summary panel, when the active summary was also kept as the reader's memory: the persona then sees
// it in their other conversations with it, until they delete it in Settings → Memories.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { listOwnMemories, memoriesKey } from "@/components/settings/memories-api";

export function SummaryMemoryNote({ summaryId }: { summaryId: string }) {
  const memories = useQuery({ queryKey: memoriesKey, queryFn: listOwnMemories });
  const kept = memories.data?.memories.some((memory) => memory.summaryId === summaryId);
  if (!kept) return null;
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
