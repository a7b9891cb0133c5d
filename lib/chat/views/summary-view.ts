// The API shape of summaries: every stored field plus its state. A summary is active (the one
// the model sees), superseded (a newer summary replaced it) or reverted (undone: it points at the summary it
// restored, or at itself when there was none).

import type { Summary } from "@/db/schema";

export type SummaryState = "active" | "superseded" | "reverted";

export interface SummaryView {
  id: string;
  conversationId: string;
  content: string;
  coversThroughSeq: number;
  messageCount: number;
  modelId: string | null;
  tokensBefore: number | null;
  tokensAfter: number | null;
  trigger: Summary["trigger"];
  supersededBy: string | null;
  createdAt: string;
  state: SummaryState;
  isActive: boolean;
}

/** Views of a conversation's summaries; pass them all so states can be told apart (order is kept). */
export function toSummaryViews(rows: readonly Summary[]): SummaryView[] {
  const createdAtById = new Map(rows.map((row) => [row.id, row.createdAt.getTime()]));
  return rows.map((row) => {
    let state: SummaryState = "active";
    if (row.supersededBy !== null) {
      const replacedAt = createdAtById.get(row.supersededBy);
      const replacedByNewer =
        row.supersededBy !== row.id && replacedAt !== undefined && replacedAt > row.createdAt.getTime();
      state = replacedByNewer ? "superseded" : "reverted";
    }
    return {
      id: row.id,
      conversationId: row.conversationId,
      content: row.content,
      coversThroughSeq: row.coversThroughSeq,
      messageCount: row.messageCount,
      modelId: row.modelId,
      tokensBefore: row.tokensBefore,
      tokensAfter: row.tokensAfter,
      trigger: row.trigger,
      supersededBy: row.supersededBy,
      createdAt: row.createdAt.toISOString(),
      state,
      isActive: state === "active",
    };
  });
}
