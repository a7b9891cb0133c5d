"use client";
// One model call on a page of its own (from the find-attempts page): the same inspector as beside the chat, its
// summary, payload, raw request and trace, with a way back to its conversation.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { ATTEMPT_KIND_LABELS } from "./attempt-kinds";
import { AttemptReasoning } from "./attempt-reasoning";
import { AttemptSummary } from "./attempt-summary";
import { PayloadSections } from "./payload-sections";
import { InspectorMessage } from "./reply-inspector";
import { attemptPayload } from "./types";
import { useAttempt } from "./use-inspector-data";

export function AttemptPage({ attemptId }: { attemptId: string }) {
  const router = useRouter();
  const attempt = useAttempt(attemptId);
  const full = attempt.data;
  return (
    <main
      className="mx-auto flex h-dvh w-full max-w-4xl flex-col"
      id="main-content"
      data-testid="attempt-page"
    >
      <header className="flex flex-wrap items-center gap-3 border-b border-zinc-200 px-4 py-3 text-sm dark:border-zinc-800">
        <Link href="/attempts" className="text-indigo-700 underline dark:text-indigo-300">
          Find attempts
        </Link>
        {full && (
          <>
            <span className="chip bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
              {ATTEMPT_KIND_LABELS[full.kind]}
            </span>
            <Link
              href={`/chat/${full.conversationId}`}
              className="text-indigo-700 underline dark:text-indigo-300"
              data-testid="attempt-page-conversation"
            >
              Open its conversation
            </Link>
          </>
        )}
      </header>
      {attempt.error && <InspectorMessage testId="inspector-error">{attempt.error.message}</InspectorMessage>}
      {!full && !attempt.error && (
        <InspectorMessage testId="inspector-loading">Loading the attempt…</InspectorMessage>
      )}
      {full && (
        <div className="flex min-h-0 flex-1 flex-col" data-testid="inspector">
          <PayloadSections
            payload={attemptPayload(full)}
            previousAttemptId={null}
            previousLabel="the previous turn"
            requests={full.requests}
            downloadName={`glassbox-attempt-${full.id.slice(0, 8)}.json`}
            usageNote={full.status === "ok" ? "not reported" : "none: the attempt failed"}
            onRevealMessage={(messageId) => router.push(`/chat/${full.conversationId}?message=${messageId}`)}
            header={
              <div
                className="space-y-2.5 border-b border-zinc-200 p-3 dark:border-zinc-800"
                data-testid="turn-header"
              >
                <AttemptSummary attempt={full} />
                <AttemptReasoning reasoning={full.response?.reasoning} />
              </div>
            }
          />
        </div>
      )}
    </main>
  );
}
