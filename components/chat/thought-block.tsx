"use client";

import { Disclosure } from "@/components/ui/disclosure";
// "Thought for 4 s" above a reply that reasoned: collapsed by default, opens to the reasoning the provider gave
// (docs/features.md#reasoning-and-provider-metadata).
import { type ReasoningView, thoughtForLabel } from "@/lib/chat/views/reasoning-view";

export function ThoughtBlock({ reasoning }: { reasoning: ReasoningView }) {
  return (
    <Disclosure
      className="group mb-1 text-xs text-zinc-600 dark:text-zinc-300"
      testId="thought-block"
      summaryClassName="cursor-pointer select-none rounded hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:text-zinc-100"
      summary={<span data-testid="thought-label">{thoughtForLabel(reasoning)}</span>}
    >
      {reasoning.hidden ? (
        <p className="mt-1 italic" data-testid="thought-text">
          The reasoning is hidden by the provider.
        </p>
      ) : (
        <p
          className="mt-1 whitespace-pre-wrap border-l-2 border-zinc-300 pl-2 dark:border-zinc-600"
          data-testid="thought-text"
        >
          {reasoning.text}
        </p>
      )}
    </Disclosure>
  );
}
