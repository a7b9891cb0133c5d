"use client";
// The answers of a model comparison side by side (columns on a wide screen, stacked on a phone), each labelled
// with its model and streaming as it comes; "Use this answer" makes that variant the reply later turns send.
import { CloseIcon, StopIcon } from "@/components/ui/icons";
import type { ComparedAnswer, ModelComparison } from "./hooks/use-model-comparison";
import { Markdown } from "./markdown/markdown";

/** Tailwind needs each class written out: one column per answer from the md breakpoint on. */
const COLUMNS = ["md:grid-cols-1", "md:grid-cols-1", "md:grid-cols-2", "md:grid-cols-3", "md:grid-cols-4"];

export function ComparePanel({
  comparison,
  onUse,
  onStop,
  onClose,
}: {
  comparison: ModelComparison;
  onUse: (variantId: string) => void;
  /** No further model is started; the answer being written is stopped. */
  onStop: () => void;
  onClose: () => void;
}) {
  const { answers, running, error } = comparison;
  return (
    <section
      className="max-h-[55vh] shrink-0 overflow-y-auto border-t border-zinc-200 px-4 py-3 dark:border-zinc-800"
      aria-label="Model comparison"
      data-testid="compare-panel"
      data-running={running}
    >
      <div className="mb-2 flex items-center justify-between text-sm">
        <h2 className="font-medium">{running ? "Comparing models…" : "Compared models: choose an answer"}</h2>
        {running ? (
          <button type="button" className="button-ghost-sm" onClick={onStop} data-testid="compare-stop">
            <StopIcon />
            Stop
          </button>
        ) : (
          <button
            type="button"
            className="button-ghost-sm"
            onClick={onClose}
            aria-label="Close the comparison: the reply stays as it is"
            data-testid="compare-close"
          >
            <CloseIcon />
          </button>
        )}
      </div>
      {error && (
        <p className="mb-2 text-sm text-red-700 dark:text-red-300" role="alert" data-testid="compare-error">
          {error}
        </p>
      )}
      <div className={`grid grid-cols-1 gap-3 ${COLUMNS[answers.length]}`}>
        {answers.map((answer) => (
          <CompareColumn
            key={answer.modelId}
            answer={answer}
            canUse={!running && answer.status === "done"}
            onUse={onUse}
          />
        ))}
      </div>
    </section>
  );
}

function CompareColumn({
  answer,
  canUse,
  onUse,
}: {
  answer: ComparedAnswer;
  canUse: boolean;
  onUse: (variantId: string) => void;
}) {
  const { modelId, answeredBy, text, variantId, status, error } = answer;
  return (
    <article
      className="flex min-w-0 flex-col rounded border border-zinc-200 p-3 text-sm dark:border-zinc-700"
      data-testid="compare-answer"
      data-model-id={modelId}
      data-status={status}
    >
      <h3 className="mb-2 font-mono text-xs text-zinc-600 dark:text-zinc-300" data-testid="compare-model">
        {modelId}
        {answeredBy && <span> (answered by {answeredBy})</span>}
      </h3>
      <div className="min-h-8 flex-1" data-testid="compare-text">
        {text ? <Markdown text={text} /> : <StatusLine status={status} />}
      </div>
      {error && (
        <p className="mt-2 text-red-700 dark:text-red-300" role="alert">
          {error}
        </p>
      )}
      {variantId && (
        <button
          type="button"
          className="button-primary mt-3 self-start"
          disabled={!canUse}
          onClick={() => onUse(variantId)}
          data-testid="compare-use"
        >
          Use this answer
        </button>
      )}
    </article>
  );
}

function StatusLine({ status }: { status: ComparedAnswer["status"] }) {
  const words = { waiting: "Waiting for the models before it…", streaming: "Writing…", done: "", error: "" };
  return <span className="text-zinc-500 dark:text-zinc-400">{words[status]}</span>;
}
