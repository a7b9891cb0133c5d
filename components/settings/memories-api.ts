// The signed-in user's memories, as Settings → Memories and the summary panel read them.
import { apiFetch } from "@/components/ui/api-client";

export interface OwnMemoryView {
  id: string;
  area: string;
  content: string;
  personaName: string | null;
  conversationId: string | null;
  conversationTitle: string | null;
  summaryId: string | null;
  updatedAt: string;
}

export interface MemoryPage {
  memories: OwnMemoryView[];
  preferences: { sessionSummaries: boolean };
}

export const memoriesKey = ["memories"] as const;

export const listOwnMemories = () => apiFetch<MemoryPage>("/api/memories");
