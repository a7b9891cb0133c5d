"use client";
// The inspector for one assistant reply: its turn's attempts as tabs (from the light index of turns), the chosen
// attempt's full payload (fetched on its own), and the diff against the previous turn.
import type { ReactNode } from "react";
import { useState } from "react";
import { AttemptReasoning } from "./attempt-reasoning";
import { AttemptSummary, AttemptTabs } from "./attempt-summary";
import { CostLabel } from "./cost-label";
import { OtherModelCalls } from "./other-model-calls";
import { PayloadSections } from "./payload-sections";
import { PromptCacheSummary } from "./prompt-cache-summary";
import { ReplayPanel } from "./replay-panel";
import { TurnTimeline } from "./turn-timeline";
import { attemptPayload, representativeAttempt } from "./types";
import { useAttempt, useConversationCost, useOtherModelCalls, useTurnSummaries } from "./use-inspector-data";

export function ReplyInspector({
  conversationId,
  messageId,
  streaming,
  onRevealMessage,
}: {
  conversationId: string;
  messageId: string;
  streaming: boolean;
  onRevealMessage: (messageId: string) => void;
}) {
  const turns = useTurnSummaries(conversationId);
  const otherCalls = useOtherModelCalls(conversationId).data ?? [];
  const conversationCost = useConversationCost(conversationId);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const list = turns.data ?? [];
  const index = list.findIndex((turn) => turn.assistantMessageId === messageId);
  const turn = index >= 0 ? list[index] : null;
  const previousTurn = index > 0 ? list[index - 1] : null;
  // A summary, title or write-as-me call chosen from the list opens here like one of the turn's attempts.
  const chosen =
    turn?.attempts.find((entry) => entry.id === chosenId) ??
    otherCalls.find((entry) => entry.id === chosenId) ??
    turn?.attempts.at(-1) ??
    null;
  const previousAttempt = previousTurn ? representativeAttempt(previousTurn) : null;
  const attempt = useAttempt(chosen?.id ?? null);

  if (turns.isLoading)
    return <InspectorMessage testId="inspector-loading">Loading the recorded attempts…</InspectorMessage>;
  if (turns.error) return <InspectorMessage testId="inspector-error">{turns.error.message}</InspectorMessage>;
  if (!turn || !chosen) {
    return (
      <InspectorMessage testId="inspector-pending">
        {streaming || turn?.status === "running"
          ? "This reply is still streaming. Its attempts are recorded when each one ends, and appear here then."
          : "No attempts were recorded for this message."}
      </InspectorMessage>
    );
  }
  if (attempt.error)
    return <InspectorMessage testId="inspector-error">{attempt.error.message}</InspectorMessage>;
  if (!attempt.data)
    return (
      <InspectorMessage testId="inspector-loading">Loading attempt #{chosen.attemptNumber}…</InspectorMessage>
    );

  const full = attempt.data;
  return (
    <PayloadSections
      key={full.id}
      payload={attemptPayload(full)}
      previousAttemptId={previousAttempt?.id ?? null}
      previousLabel={`turn ${index} (its ${previousAttempt?.status === "ok" ? "successful" : "last"} attempt)`}
      requests={full.requests}
      downloadName={`glassbox-${conversationId.slice(0, 8)}-turn${index + 1}-attempt${full.attemptNumber}.json`}
      usageNote={full.status === "ok" ? "not reported" : "none: the attempt failed"}
      onRevealMessage={onRevealMessage}
      header={
        <div
          className="space-y-2.5 border-b border-zinc-200 p-3 dark:border-zinc-800"
          data-testid="turn-header"
          data-turn-index={index + 1}
        >
          <p className="text-xs text-zinc-500 dark:text-zinc-400">
            Turn <span className="font-medium text-zinc-800 dark:text-zinc-200">{index + 1}</span> of{" "}
            {list.length} · {turn.attempts.length} {turn.attempts.length === 1 ? "attempt" : "attempts"}
            {turn.status === "running" && " · still running"} · this turn{" "}
            <CostLabel cost={turn.cost} testId="turn-cost" /> · conversation{" "}
            <CostLabel cost={conversationCost.data} testId="conversation-cost" />
          </p>
          <AttemptTabs
            attempts={turn.attempts}
            selectedId={full.id}
            onSelect={setChosenId}
            className="space-y-2.5"
          >
            <TurnTimeline attempts={turn.attempts} selectedId={full.id} onSelect={setChosenId} />
            <AttemptSummary attempt={full} />
            <AttemptReasoning reasoning={full.response?.reasoning} />
            <PromptCacheSummary
              attempt={full}
              calls={[...list.flatMap((entry) => entry.attempts), ...otherCalls]}
            />
            {full.kind !== "replay" && (
              <ReplayPanel
                key={full.id}
                conversationId={conversationId}
                source={full}
                modelIds={[
                  ...new Set(
                    [...list.flatMap((entry) => entry.attempts), ...otherCalls].map((entry) => entry.modelId),
                  ),
                ]}
              />
            )}
            <OtherModelCalls calls={otherCalls} selectedId={chosenId} onSelect={setChosenId} />
          </AttemptTabs>
        </div>
      }
    />
  );
}

export function InspectorMessage({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <div
      className="flex flex-1 items-center justify-center p-6 text-center text-sm text-zinc-500 dark:text-zinc-400"
      data-testid={testId}
    >
      <p className="max-w-xs">{children}</p>
    </div>
  );
}
