"use client";
// The persona's fallback models as an ordered list: tried top to bottom when the main model fails. Reorder with
// the up/down buttons (or by dragging a row), add from the models not yet listed, remove with ×.
import { useState } from "react";
import { ActionButtons } from "@/components/ui/action-buttons";
import type { ModelRow } from "./admin-api";

function move(list: string[], from: number, to: number): string[] {
  if (to < 0 || to >= list.length || from === to) return list;
  const next = [...list];
  const [entry] = next.splice(from, 1);
  next.splice(to, 0, entry);
  return next;
}

export function FallbackOrder({
  value,
  onChange,
  models,
  mainModelId,
  error,
}: {
  value: string[];
  onChange: (value: string[]) => void;
  models: ModelRow[];
  mainModelId: string;
  error?: string;
}) {
  const [dragged, setDragged] = useState<number | null>(null);
  const available = models.filter((model) => model.id !== mainModelId && !value.includes(model.id));
  return (
    <fieldset className="text-sm" data-testid="persona-fallbacks" aria-describedby="persona-fallbacks-help">
      <legend className="font-medium">Fallback models, in order</legend>
      <p id="persona-fallbacks-help" className="text-xs text-zinc-600 dark:text-zinc-400">
        Tried top to bottom when the main model fails or is unavailable (at most 5).
      </p>
      <ol className="mt-1 space-y-1">
        {value.map((modelId, index) => (
          <li
            key={modelId}
            draggable
            onDragStart={() => setDragged(index)}
            onDragOver={(event) => event.preventDefault()}
            onDrop={() => {
              if (dragged !== null) onChange(move(value, dragged, index));
              setDragged(null);
            }}
            className="flex items-center gap-2 rounded-lg border border-zinc-200 px-2 py-1 dark:border-zinc-800"
            data-testid="fallback-row"
            data-model-id={modelId}
          >
            <span className="w-5 text-right text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
              {index + 1}.
            </span>
            <span className="min-w-0 flex-1 truncate font-mono text-xs">{modelId}</span>
            <ActionButtons
              className="button-ghost-sm"
              actions={[
                {
                  label: "↑",
                  onClick: () => onChange(move(value, index, index - 1)),
                  disabled: index === 0,
                  ariaLabel: `Move ${modelId} up`,
                  testId: "fallback-up",
                },
                {
                  label: "↓",
                  onClick: () => onChange(move(value, index, index + 1)),
                  disabled: index === value.length - 1,
                  ariaLabel: `Move ${modelId} down`,
                  testId: "fallback-down",
                },
                {
                  label: "×",
                  onClick: () => onChange(value.filter((entry) => entry !== modelId)),
                  ariaLabel: `Remove ${modelId}`,
                  testId: "fallback-remove",
                },
              ]}
            />
          </li>
        ))}
      </ol>
      {available.length > 0 && (
        <label className="mt-1 flex items-center gap-2 text-xs">
          <span>Add a fallback</span>
          <select
            className="input-sm w-auto"
            value=""
            onChange={(event) => {
              if (event.target.value) onChange([...value, event.target.value]);
            }}
            data-testid="fallback-add"
          >
            <option value="">Choose a model…</option>
            {available.map((model) => (
              <option key={model.id} value={model.id}>
                {model.id}
              </option>
            ))}
          </select>
        </label>
      )}
      {error && (
        <p className="text-xs text-red-700 dark:text-red-300" data-testid="persona-fallbacks-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
