// The reasoning the model returned on one attempt, as its reply stored it: how long it thought and what, or that
// the provider kept the text hidden (docs/features.md#reasoning-and-provider-metadata). Nothing when it returned none.
import { type ReasoningView, thoughtForLabel } from "@/lib/chat/views/reasoning-view";

export function AttemptReasoning({ reasoning }: { reasoning: ReasoningView | null | undefined }) {
  if (!reasoning) return null;
  return (
    <section
      className="rounded-lg border border-violet-200 bg-violet-50/60 px-3 py-2 dark:border-violet-900 dark:bg-violet-950/30"
      data-testid="attempt-reasoning"
    >
      <h3 className="section-title flex flex-wrap items-center gap-2">
        Reasoning returned
        <span
          className="font-normal normal-case text-zinc-600 dark:text-zinc-300"
          data-testid="attempt-reasoning-duration"
        >
          {thoughtForLabel(reasoning)}
        </span>
      </h3>
      <p
        className="mt-1 max-h-64 overflow-y-auto whitespace-pre-wrap break-words text-xs text-zinc-700 dark:text-zinc-200"
        data-testid="attempt-reasoning-text"
      >
        {reasoning.hidden
          ? "The provider kept the reasoning hidden (it returned it encrypted or signed only)."
          : reasoning.text}
      </p>
    </section>
  );
}
