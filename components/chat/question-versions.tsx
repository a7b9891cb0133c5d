"use client";
// The `< 1 / 2 >` on a question that edits forked: each version is shown with the conversation that followed it,
// so stepping to another version shows its whole branch (the server keeps every branch; see
// db/message-tree-queries.ts). A refusal (a reply is being written, the question is summarised) is shown under it.
import { useMutation } from "@tanstack/react-query";
import { ErrorMessage } from "@/components/ui/error-message";
import { StepButtons } from "./step-buttons";

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
  // Switching runs on the server; while it does, neither button can start another.
  const show = useMutation({ mutationFn: onShow });
  return (
    <span className="mr-1 inline-flex flex-col items-end" data-testid="question-branch">
      <span
        className="inline-flex items-center"
        title="Versions of this question: each one with the conversation that followed it"
      >
        <StepButtons
          versions={versions}
          enabled={enabled && !show.isPending}
          onStep={(versionId) => show.mutate(versionId)}
          what="version of this question"
          testIds={{
            previous: "question-branch-prev",
            position: "question-branch-label",
            next: "question-branch-next",
          }}
        />
      </span>
      <ErrorMessage
        message={show.error?.message}
        testId="question-branch-error"
        textClassName="text-xs text-red-700 dark:text-red-300"
      />
    </span>
  );
}
