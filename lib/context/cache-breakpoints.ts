// Phase B's prompt-cache breakpoints (docs/pipeline.md#prompt-cache-breakpoints). A provider with explicit
// prompt caching (Anthropic) caches the request's prefix up to each block marked with a breakpoint, and bills a
// later request that repeats that prefix at the cached rate. So a breakpoint belongs where the prefix is stable
// from one turn to the next: after the system block, after the summary, and after the last history item before
// the current input (next turn, that whole history is the unchanged prefix). Decided here as data, on the items
// (`cacheBreakpoint`), with a trace event saying where and why; serialisation turns them into the provider's
// options. Never more than the provider's limit; `cache.breakpoints: off` places none.

import type { ResolvedSettings } from "@/lib/domain/settings";
import type {
  CacheBreakpointPlace,
  ContextItem,
  ModelDescriptor,
  ProviderName,
  TraceEvent,
} from "@/lib/domain/types";
import type { ItemsWithStops, PhaseBContext } from "./phases";
import type { Stage, StageResult } from "./stage";
import { traceEvent } from "./trace";

/** Breakpoints each provider accepts in one request; a provider not listed caches on its own (or not at all). */
export const CACHE_BREAKPOINT_LIMITS: Partial<Record<ProviderName, number>> = { anthropic: 4 };

/** The places in the order they are kept when the limit is lower than the candidates: the history breakpoint
 *  covers the most, the system block is the most stable, the summary changes only when it is rewritten. */
const PRIORITY: readonly CacheBreakpointPlace[] = ["history", "system", "summary"];

const PLACE_WORDS: Record<CacheBreakpointPlace, string> = {
  system: "after the system block",
  summary: "after the summary",
  history: "after the history",
};

export function describeBreakpointPlace(place: CacheBreakpointPlace): string {
  return PLACE_WORDS[place];
}

export function cacheBreakpointLimit(model: ModelDescriptor): number {
  return CACHE_BREAKPOINT_LIMITS[model.provider] ?? 0;
}

/** Where breakpoints would go, by item index: the last system item, the summary, the item before the last one. */
function candidatePlaces(items: readonly ContextItem[]): Map<number, CacheBreakpointPlace> {
  const places = new Map<number, CacheBreakpointPlace>();
  let lastSystem = -1;
  let summary = -1;
  // The last item is the current input (or, in a tool step, what the model answers now): it changes every turn,
  // so it never closes a cached prefix, even when a strict model's merge made the summary part of it.
  const last = items.length - 1;
  for (const [index, item] of items.entries()) {
    if (index === last) break;
    if (item.role === "system") lastSystem = index;
    else if (item.tag === "SUMMARY") summary = index;
  }
  if (lastSystem >= 0) places.set(lastSystem, "system");
  if (summary >= 0) places.set(summary, "summary");
  const beforeCurrent = last - 1;
  if (beforeCurrent >= 0 && !places.has(beforeCurrent) && items[beforeCurrent]?.role !== "system") {
    places.set(beforeCurrent, "history");
  }
  return places;
}

/**
 * The items with `cacheBreakpoint` set where the provider should cache the prefix. Marked items are copies (the
 * input items are never modified); the others are passed on as they are.
 */
export function placeCacheBreakpoints(
  items: readonly ContextItem[],
  model: ModelDescriptor,
  settings: ResolvedSettings,
  limit: number = cacheBreakpointLimit(model),
): StageResult<readonly ContextItem[]> {
  if (limit <= 0) return { value: items, trace: [] };
  const candidates = candidatePlaces(items);
  if (candidates.size === 0) return { value: items, trace: [] };
  if (settings.cache.breakpoints === "off") {
    return {
      value: items,
      trace: [
        traceEvent("cache", "breakpoints-off", "cache.breakpoints is off: no prompt-cache breakpoints sent", {
          counts: { candidates: candidates.size },
        }),
      ],
    };
  }

  const kept = new Set(
    PRIORITY.flatMap((place) =>
      [...candidates].filter(([, at]) => at === place).map(([index]) => index),
    ).slice(0, limit),
  );
  const marked: ContextItem[] = [];
  const value = items.map((item, index) => {
    const place = candidates.get(index);
    if (place === undefined || !kept.has(index)) return item;
    const copy: ContextItem = { ...item, cacheBreakpoint: place };
    marked.push(copy);
    return copy;
  });
  const trace: TraceEvent[] = [
    traceEvent(
      "cache",
      "placed-breakpoints",
      `${marked.length} prompt-cache breakpoint${marked.length === 1 ? "" : "s"} where the prefix is stable: ${marked
        .map((item) => describeBreakpointPlace(item.cacheBreakpoint ?? "history"))
        .join(", ")}`,
      {
        itemIds: marked.map((item) => item.id),
        counts: { breakpoints: marked.length, limit },
        details: { places: marked.map((item) => item.cacheBreakpoint) },
      },
    ),
  ];
  const dropped = candidates.size - kept.size;
  if (dropped > 0) {
    trace.push(
      traceEvent(
        "cache",
        "dropped-breakpoints",
        `${dropped} more breakpoint${dropped === 1 ? "" : "s"} would exceed ${model.id}'s limit of ${limit}`,
        { level: "warning", counts: { dropped, limit } },
      ),
    );
  }
  return { value, trace };
}

/** Phase B: the budgeted items, marked where the provider should cache the prefix. */
export const cacheBreakpointsStage: Stage<ItemsWithStops, ItemsWithStops, PhaseBContext> = {
  name: "cache",
  run(withStops, { model, settings }) {
    const { value: items, trace } = placeCacheBreakpoints(withStops.items, model, settings);
    return { value: { ...withStops, items }, trace };
  },
};
