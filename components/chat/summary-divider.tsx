"use client";
// The line after the last summarised message: everything above it reaches the model only through the summary.
import { TextDivider } from "@/components/ui/text-divider";

export function SummaryDivider({
  afterMessageId,
  onViewSummary,
}: {
  /** The stored id of the last summarised message (the divider's anchor, for tests and links). */
  afterMessageId: string;
  onViewSummary?: () => void;
}) {
  return (
    <TextDivider
      className="text-[11px] text-amber-700 dark:text-amber-300"
      lineClassName="bg-amber-300/70 dark:bg-amber-700/60"
      data-after-message-id={afterMessageId}
      testId="summary-divider"
      after={
        onViewSummary && (
          <button
            type="button"
            onClick={onViewSummary}
            className="shrink-0 rounded-md border border-amber-300 px-2 py-0.5 font-medium hover:bg-amber-50 dark:border-amber-700 dark:hover:bg-amber-950/50"
            data-testid="view-summary"
          >
            View summary
          </button>
        )
      }
    >
      Earlier messages are summarised: the model now sees them only as a summary
    </TextDivider>
  );
}
