// The signed-in user's memories, as Settings → Memories and the summary panel read them.
import { apiFetch } from "@/components/ui/api-client";
import type { OwnMemory } from "@/db/memory-queries";

/** A memory as GET /api/memories sends it (the time as JSON text). */
export type OwnMemoryView = Omit<OwnMemory, "scope" | "updatedAt"> & { updatedAt: string };

export interface MemoryPage {
  memories: OwnMemoryView[];
  preferences: { sessionSummaries: boolean };
}

export const memoriesKey = ["memories"] as const;

export const listOwnMemories = () => apiFetch<MemoryPage>("/api/memories");
