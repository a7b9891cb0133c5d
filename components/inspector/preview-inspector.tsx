"use client";
// The next turn's payload, previewed: what the message being written would send, with settings changed on the
// spot, built by the server's real pipeline without calling a model or storing anything.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { conversationKey, getConversation } from "@/components/chat/api";
import { useDebouncedValue } from "@/components/chat/use-debounced-value";
import type { ResolvedSettings } from "@/lib/domain/settings";
import { PayloadSections } from "./payload-sections";
import { PreviewControls } from "./preview-controls";
import { hasEdits, PLACEHOLDER_TEXT, type PreviewEdits, previewOverride } from "./preview-settings";
import { InspectorMessage } from "./reply-inspector";
import { type PreviewView, previewPayload, representativeAttempt } from "./types";
import { usePreview, useTurnSummaries } from "./use-inspector-data";

export function PreviewInspector({
  conversationId,
  draft,
  onRevealMessage,
}: {
  conversationId: string;
  /** The composer's current text. */
  draft: string;
  onRevealMessage: (messageId: string) => void;
}) {
  // The box follows the composer's draft (empty when there is none) until it is typed in: then it is the preview's own.
  const [ownText, setOwnText] = useState<string | null>(null);
  const text = ownText ?? draft;
  const [edits, setEdits] = useState<PreviewEdits>({});
  const [base, setBase] = useState<ResolvedSettings | null>(null);
  const detail = useQuery({
    queryKey: conversationKey(conversationId),
    queryFn: () => getConversation(conversationId),
  });
  const conversationNote = detail.data?.conversation.settingsOverride.contextNote?.text ?? "";

  // A turn needs a message: an empty box is previewed with its placeholder's words standing in for one.
  const request = useMemo(
    () => ({
      text: text.trim() ? text : PLACEHOLDER_TEXT,
      settings: base ? previewOverride(base, edits, conversationNote) : undefined,
    }),
    [text, base, edits, conversationNote],
  );
  const debounced = useDebouncedValue(request, 250);
  const preview = usePreview(conversationId, debounced);
  const turns = useTurnSummaries(conversationId);

  // The settings of an unedited preview are the resolved ones: the starting values of the controls.
  useEffect(() => {
    if (preview.data && !debounced.settings && !preview.isPlaceholderData) setBase(preview.data.settings);
  }, [preview.data, preview.isPlaceholderData, debounced.settings]);

  // A refused change (an out-of-range number) keeps the last good payload on screen beside the message.
  const [lastGood, setLastGood] = useState<PreviewView | null>(null);
  useEffect(() => {
    if (preview.data) setLastGood(preview.data);
  }, [preview.data]);
  const shown = preview.data ?? lastGood;

  const lastTurn = turns.data?.at(-1);
  const lastAttempt = lastTurn ? representativeAttempt(lastTurn) : null;
  const pending = preview.isFetching || debounced !== request;
  const state = preview.error ? "error" : pending ? "loading" : "ready";

  return (
    <div
      className="flex min-h-0 flex-1 flex-col"
      data-testid="payload-preview"
      data-state={state}
      data-edited={hasEdits(edits) || undefined}
    >
      {shown ? (
        <PayloadSections
          payload={previewPayload(shown)}
          previousAttemptId={lastAttempt?.id ?? null}
          previousLabel={`the last turn (turn ${turns.data?.length ?? 0})`}
          downloadName={`glassbox-${conversationId.slice(0, 8)}-preview.json`}
          usageNote="none: a preview calls no model"
          onRevealMessage={onRevealMessage}
          header={
            <div className="space-y-2 border-b border-zinc-200 p-3 dark:border-zinc-800">
              <PreviewControls
                text={text}
                onText={setOwnText}
                edits={edits}
                onEdit={setEdits}
                onReset={() => setEdits({})}
                base={base}
                conversationNote={conversationNote}
              />
              <p
                className="flex items-center gap-2 text-[11px] text-zinc-500 dark:text-zinc-400"
                data-testid="preview-status"
              >
                <span
                  className={`size-1.5 rounded-full ${state === "error" ? "bg-red-500" : state === "loading" ? "animate-pulse-dot bg-amber-500" : "bg-emerald-500"}`}
                />
                {state === "loading"
                  ? "Rebuilding…"
                  : state === "error"
                    ? "The last change was refused:"
                    : `Built for ${shown.modelId} with settings v${shown.settingsVersion}`}
              </p>
              {shown.replyInProgress && (
                <p
                  role="status"
                  className="rounded-lg bg-amber-50 px-2.5 py-1.5 text-xs text-amber-900 dark:bg-amber-950/40 dark:text-amber-200"
                  data-testid="preview-reply-in-progress"
                >
                  A reply is still being written: this preview holds its text so far. A message sent now is
                  refused until it is stored or stopped.
                </p>
              )}
              {preview.error && (
                <p
                  role="alert"
                  className="rounded-lg bg-red-50 px-2.5 py-1.5 text-xs text-red-800 dark:bg-red-950/40 dark:text-red-200"
                  data-testid="preview-error"
                >
                  {preview.error.message}
                </p>
              )}
            </div>
          }
        />
      ) : preview.error ? (
        <InspectorMessage testId="preview-error">{preview.error.message}</InspectorMessage>
      ) : (
        <InspectorMessage testId="inspector-loading">Building the next payload…</InspectorMessage>
      )}
    </div>
  );
}
