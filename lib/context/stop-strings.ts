// Phase B's stop sequences (docs/pipeline.md#stop-strings), built per provider.
// The configured strings first, then a gateway caller's own `stop`, then (opt-in) `"\n" + name + ":"` for every
// other participant, so the model stops before writing someone else's line; the newline prefix still lets a reply
// start with "Name:". De-duplicated in order, then capped at what the model accepts (OpenAI 4, Gemini 5), so a long
// list is not rejected; the dropped ones are traced.

import type { ResolvedSettings } from "@/lib/domain/settings";
import type { ContextItem, ModelDescriptor } from "@/lib/domain/types";
import type { BudgetedItems, ItemsWithStops, PhaseBContext } from "./phases";
import type { Stage, StageResult } from "./stage";

/** `"\n" + name + ":"` with runs of whitespace in the name collapsed, so "Ann  Lee" and "Ann Lee" stop alike. */
export function speakerStopString(name: string): string {
  return `\n${canonicalName(name)}:`;
}

function canonicalName(name: string): string {
  return name.trim().replace(/\s+/g, " ");
}

/**
 * Names of the other participants: senders of non-assistant dialogue items, most recent speaker first (the one
 * most likely to be imitated next keeps its place under the cap), never the voice being generated.
 */
export function otherSpeakerNames(items: readonly ContextItem[]): string[] {
  const ownNames = new Set<string>();
  for (const item of items)
    if (item.role === "assistant" && item.sender) ownNames.add(canonicalName(item.sender.name));
  const names: string[] = [];
  const seen = new Set<string>();
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item = items[index];
    const sender = item?.sender;
    if (!sender || item.role !== "user") continue;
    if (sender.type === "system" || sender.type === "tool") continue;
    const name = canonicalName(sender.name);
    if (name.length === 0 || ownNames.has(name) || seen.has(name)) continue;
    seen.add(name);
    names.push(name);
  }
  return names;
}

export function buildStopSequences(
  items: readonly ContextItem[],
  model: ModelDescriptor,
  settings: ResolvedSettings,
  /** The caller's own stop strings (a gateway call's `stop`): after the configured ones, before the names. */
  callStops: readonly string[] = [],
): StageResult<string[]> {
  const candidates = [...settings.stop.strings, ...callStops];
  if (settings.stop.speakerPattern)
    for (const name of otherSpeakerNames(items)) candidates.push(speakerStopString(name));

  const unique: string[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (candidate.length === 0 || seen.has(candidate)) continue;
    seen.add(candidate);
    unique.push(candidate);
  }

  const limit = Math.max(0, model.capabilities.maxStopSequences);
  if (unique.length <= limit) return { value: unique, trace: [] };
  const dropped = unique.slice(limit);
  return {
    value: unique.slice(0, limit),
    trace: [
      {
        stage: "stop-strings",
        action: "dropped-stop-strings",
        reason: `${dropped.length} stop string(s) over ${model.id}'s limit of ${limit} were not sent`,
        level: "warning",
        counts: { kept: limit, dropped: dropped.length },
        details: { dropped, limit },
      },
    ],
  };
}

/** Phase B: the stop sequences for the attempt, from the settings and the other speakers' names. */
export const stopStringsStage: Stage<BudgetedItems, ItemsWithStops, PhaseBContext> = {
  name: "stop-strings",
  run(budgeted, { model, settings, callOptions }) {
    const { value: stopSequences, trace } = buildStopSequences(
      budgeted.items,
      model,
      settings,
      callOptions?.stop,
    );
    return { value: { ...budgeted, stopSequences }, trace };
  },
};
