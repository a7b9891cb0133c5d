"use client";
// The conversation's model calls that answer no turn (summaries, titles, write-as-me drafts, replays), each with
// its kind: choosing one opens it in the inspector like a reply's attempt.
import { Disclosure } from "@/components/ui/disclosure";
import { ATTEMPT_KIND_LABELS } from "./attempt-kinds";
import type { AttemptSummaryView } from "./types";

export function OtherModelCalls({
  calls,
  selectedId,
  onSelect,
}: {
  calls: AttemptSummaryView[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  if (calls.length === 0) return null;
  return (
    <Disclosure
      className="text-xs"
      testId="other-model-calls"
      summary={`Other model calls (${calls.length})`}
    >
      <ul className="mt-1.5 space-y-1">
        {calls.map((call) => (
          <li key={call.id}>
            <button
              type="button"
              onClick={() => onSelect(call.id)}
              aria-pressed={call.id === selectedId}
              className="flex w-full items-center gap-2 rounded-lg px-2 py-1 text-left hover:bg-zinc-100 aria-pressed:bg-indigo-50 dark:hover:bg-zinc-900 dark:aria-pressed:bg-indigo-950"
              data-testid="other-model-call"
              data-kind={call.kind}
              data-status={call.status}
            >
              <span
                className="chip bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"
                data-testid="call-kind"
              >
                {ATTEMPT_KIND_LABELS[call.kind]}
              </span>
              <span className="truncate font-mono text-[11px] text-zinc-600 dark:text-zinc-400">
                #{call.attemptNumber} {call.modelId}
              </span>
              <span className="ml-auto font-mono text-[11px]">{call.status}</span>
            </button>
          </li>
        ))}
      </ul>
    </Disclosure>
  );
}
