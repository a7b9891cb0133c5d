"use client";
// The `< 1 / 2 >` on a question that edits forked: each version is shown with the conversation that followed it,
// so stepping to another version shows its whole branch (the server keeps every branch; see
// db/message-tree-queries.ts). A refusal (a reply is being written, the question is summarised) is shown under it.
import { useState } from "react";
import { ErrorMessage } from "@/components/ui/error-message";
import { ChevronRightIcon } from "@/components/ui/icons";

export function QuestionVersions({
  versions,
  enabled,
  onShow,
}: {
  /** The question's versions, oldest first, and which one is shown. */
  versions: { ids: string[]; index: number };
  /** False while a reply is being written: nothing can switch then. */
  enabled: boolean;
  /** Show the version with this id, with its branch. */
  onShow: (versionId: string) => Promise<void>;
}) {
  const [switching, setSwitching] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { ids, index } = versions;
  const show = async (step: -1 | 1) => {
    setSwitching(true);
    setError(null);
    try {
      await onShow(ids[index + step]);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setSwitching(false);
    }
  };
  const step = (direction: -1 | 1) => {
    const target = index + direction;
    return {
      disabled: !enabled || switching || target < 0 || target >= ids.length,
      onClick: () => void show(direction),
    };
  };
  return (
    <span className="mr-1 inline-flex flex-col items-end" data-testid="question-branch">
      <span
        className="inline-flex items-center"
        title="Versions of this question: each one with the conversation that followed it"
      >
        <button
          type="button"
          className="button-ghost-sm px-1"
          {...step(-1)}
          aria-label="Previous version of this question"
          data-testid="question-branch-prev"
        >
          <ChevronRightIcon size={14} className="rotate-180" />
        </button>
        <span className="tabular-nums text-xs" data-testid="question-branch-label">
          {index + 1} / {ids.length}
        </span>
        <button
          type="button"
          className="button-ghost-sm px-1"
          {...step(1)}
          aria-label="Next version of this question"
          data-testid="question-branch-next"
        >
          <ChevronRightIcon size={14} />
        </button>
      </span>
      <ErrorMessage
        message={error}
        testId="question-branch-error"
        textClassName="text-xs text-red-700 dark:text-red-300"
      />
    </span>
  );
}
