"use client";
// "Compare": the latest turn answered by each chosen model (POST /api/chat/:id/compare), one after another, each
// answer streaming into its own column; "Use this answer" chooses that variant, as the variant flip does, so it is
// what later turns send. The transcript is reloaded once the comparison ends (its last answer is then chosen).
import { useCallback, useRef, useState } from "react";
import { apiErrorOf } from "@/components/ui/api-client";
import { type CompareChunk, eventChunks, forEachEventText } from "@/lib/compare-stream";
import { chooseVariant, stopReply } from "../message-api";

export interface ComparedAnswer {
  modelId: string;
  /** The model that answered when it was not the one asked (a fallback). */
  answeredBy: string | null;
  text: string;
  /** The reply variant this answer is stored as, once the server names it. */
  variantId: string | null;
  status: "waiting" | "streaming" | "done" | "error";
  error: string | null;
}

export interface ModelComparison {
  answers: ComparedAnswer[];
  running: boolean;
  /** The comparison as a whole was refused. */
  error: string | null;
}

export function useModelComparison({
  conversationId,
  noteTurnStarted,
  reloadTranscript,
}: {
  conversationId: string;
  noteTurnStarted: () => void;
  reloadTranscript: () => Promise<void>;
}) {
  const [comparison, setComparison] = useState<ModelComparison | null>(null);
  const running = useRef<{ abort: AbortController; shownChars: () => number } | null>(null);

  const start = useCallback(
    async (replyId: string, modelIds: string[]) => {
      noteTurnStarted();
      setComparison({ answers: modelIds.map(waitingAnswer), running: true, error: null });
      let current = -1;
      let currentText = "";
      const apply = (chunk: Record<string, unknown>) => {
        if (chunk.type === "data-compare") {
          current = (chunk as unknown as CompareChunk).data.index;
          currentText = "";
        } else if (chunk.type === "text-delta" && typeof chunk.delta === "string") currentText += chunk.delta;
        // The update runs later, when the next model's chunks may have come: it takes this chunk's index now.
        const index = current;
        setComparison((state) => state && { ...state, answers: withChunk(state.answers, index, chunk) });
      };
      const abort = new AbortController();
      running.current = { abort, shownChars: () => currentText.length };
      try {
        const response = await fetch(`/api/chat/${conversationId}/compare`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ messageId: replyId, modelIds }),
          signal: abort.signal,
        });
        if (!response.ok || !response.body) throw await apiErrorOf(response);
        await forEachEventText(response.body, (events) => eventChunks(events).forEach(apply));
        setComparison((state) => state && { ...state, running: false });
      } catch (error) {
        const message = abort.signal.aborted
          ? null
          : error instanceof Error
            ? error.message
            : "The comparison failed.";
        setComparison((state) => state && { ...state, running: false, error: message });
      } finally {
        running.current = null;
      }
      await reloadTranscript().catch(() => {});
    },
    [conversationId, noteTurnStarted, reloadTranscript],
  );

  const use = useCallback(
    async (variantId: string) => {
      await chooseVariant(conversationId, variantId);
      setComparison(null);
      await reloadTranscript();
    },
    [conversationId, reloadTranscript],
  );

  // Stop: no further model is started, and the answer being written is stopped where the user sees it.
  const stop = useCallback(async () => {
    const stopping = running.current;
    if (!stopping) return;
    const shownChars = stopping.shownChars();
    stopping.abort.abort();
    await stopReply(conversationId, shownChars).catch(() => {});
  }, [conversationId]);

  return { comparison, start, use, stop, close: useCallback(() => setComparison(null), []) };
}

function waitingAnswer(modelId: string): ComparedAnswer {
  return { modelId, answeredBy: null, text: "", variantId: null, status: "waiting", error: null };
}

/** The answers with one chunk of answer `index`'s stream applied. */
export function withChunk(
  answers: ComparedAnswer[],
  index: number,
  chunk: Record<string, unknown>,
): ComparedAnswer[] {
  const answer = answers[index];
  if (!answer) return answers;
  const next = { ...answer };
  if (chunk.type === "data-compare") {
    const { error } = (chunk as unknown as CompareChunk).data;
    next.status = error ? "error" : "streaming";
    next.error = error ?? null;
  } else if (chunk.type === "start" && typeof chunk.messageId === "string") next.variantId = chunk.messageId;
  else if (chunk.type === "text-delta" && typeof chunk.delta === "string") next.text += chunk.delta;
  else if (chunk.type === "message-metadata") {
    const modelId = (chunk.messageMetadata as { modelId?: unknown } | undefined)?.modelId;
    if (typeof modelId === "string") next.answeredBy = modelId === answer.modelId ? null : modelId;
  } else if (chunk.type === "error" && typeof chunk.errorText === "string") {
    next.status = "error";
    next.error = chunk.errorText;
  } else if (chunk.type === "finish" && next.status !== "error") next.status = "done";
  else return answers;
  return answers.map((existing, position) => (position === index ? next : existing));
}
