// Timing helpers: medians of several runs after warm-up, with the spread, and an optional full GC between runs
// (outside the timed region) when node runs with --expose-gc, so one run's garbage is not collected in the next.

export interface Sample {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function summarise(values: readonly number[]): Sample {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), runs: values.length };
}

/** node --expose-gc's full collection, or undefined without the flag. */
export const collectGarbage = (globalThis as { gc?: () => void }).gc;

/** Whether runs start from a collected heap (node --expose-gc). */
export const gcBetweenRuns = typeof collectGarbage === "function";

/** Time `work` `runs` times after `warmup` untimed runs; the result of each run is kept alive until it is timed. */
export function timeSync(work: () => unknown, { runs, warmup }: { runs: number; warmup: number }): Sample {
  for (let index = 0; index < warmup; index++) work();
  const times: number[] = [];
  for (let index = 0; index < runs; index++) {
    collectGarbage?.();
    const start = performance.now();
    const result = work();
    times.push(performance.now() - start);
    keep(result);
  }
  return summarise(times);
}

export async function timeAsync(
  work: () => Promise<unknown>,
  { runs, warmup }: { runs: number; warmup: number },
): Promise<Sample> {
  for (let index = 0; index < warmup; index++) await work();
  const times: number[] = [];
  for (let index = 0; index < runs; index++) {
    collectGarbage?.();
    const start = performance.now();
    const result = await work();
    times.push(performance.now() - start);
    keep(result);
  }
  return summarise(times);
}

/** A sink, so the engine cannot drop work whose result is unused. */
let sink: unknown;
function keep(value: unknown): void {
  sink = value;
}
export function lastResult(): unknown {
  return sink;
}

/** A figure for the table: two decimals, or a dash when it was not measured. */
export function ms(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : value.toFixed(2);
}

/** Milliseconds with two decimals. */
export function round(value: number, decimals = 2): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** The nearest-rank percentile (p in 0–100) of a non-empty list. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
