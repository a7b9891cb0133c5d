"use client";
// "Compare" under the latest reply: choose up to four of the models the owner may answer with, then run the turn
// on each (the comparison's columns show under the transcript).
import { useState } from "react";
import { Disclosure } from "@/components/ui/disclosure";
import { MAX_COMPARED_MODELS } from "@/lib/compare-stream";
import type { ModelOption } from "./api";

export function ComparePicker({
  models,
  onCompare,
}: {
  models: ModelOption[];
  onCompare: (modelIds: string[]) => void;
}) {
  const [chosen, setChosen] = useState<string[]>([]);
  const toggle = (modelId: string) =>
    setChosen((current) =>
      current.includes(modelId) ? current.filter((id) => id !== modelId) : [...current, modelId],
    );
  return (
    <Disclosure
      summary="Compare"
      summaryClassName="button-ghost-sm cursor-pointer list-none"
      className="relative"
      testId="compare-picker"
    >
      <fieldset className="absolute left-0 z-10 mt-1 w-72 space-y-1 rounded border border-zinc-200 bg-white p-3 text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900">
        <legend className="sr-only">Models to compare</legend>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          Run this turn on up to {MAX_COMPARED_MODELS} models, side by side.
        </p>
        {models.map((model) => {
          const checked = chosen.includes(model.id);
          return (
            <label key={model.id} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={checked}
                disabled={!checked && chosen.length >= MAX_COMPARED_MODELS}
                onChange={() => toggle(model.id)}
                data-testid="compare-model-option"
                value={model.id}
              />
              <span>
                {model.label} <span className="font-mono text-xs">({model.id})</span>
              </span>
            </label>
          );
        })}
        <button
          type="button"
          className="button-primary mt-2 w-full"
          disabled={chosen.length === 0}
          onClick={(event) => {
            event.currentTarget.closest("details")?.removeAttribute("open");
            onCompare(chosen);
            setChosen([]);
          }}
          data-testid="compare-run"
        >
          Compare {chosen.length || ""} model{chosen.length === 1 ? "" : "s"}
        </button>
      </fieldset>
    </Disclosure>
  );
}
