// The signed-in user's memories, as Settings → Memories and the summary panel read them.
import { apiFetch } from "@/components/ui/api-client";
import type { ApiOutput } from "@/lib/api/responses";

export type MemoryPage = ApiOutput<"GET /api/memories">;
/** A memory as GET /api/memories sends it (the time as JSON text). */
export type OwnMemoryView = MemoryPage["memories"][number];

export const memoriesKey = ["memories"] as const;

export const listOwnMemories = () => apiFetch<MemoryPage>("/api/memories");
