// The one contract every pipeline stage follows, and the runner that runs a phase's stages in order. A stage is a
// pure function of its input (what the stage before it produced) and the phase's context (what every stage of the
// phase may read: the build input, the settings, the attempt's model). It returns its output and the trace events
// of what it changed. See docs/pipeline.md.

import type { StageTiming, TraceEvent } from "@/lib/domain/types";

/** What every stage returns: its output, and what it changed (nothing when it kept everything). */
export interface StageResult<Value> {
  value: Value;
  trace: TraceEvent[];
}

/** One step of a phase. `name` is how the phase's `stageTimings` list it. */
export interface Stage<Input, Output, Context> {
  readonly name: string;
  run(input: Input, context: Context): StageResult<Output>;
}

/**
 * A monotonic clock in milliseconds (e.g. `performance.now`), passed in by the caller so the pipeline itself
 * reads no clock: without one, every stage's time is recorded as 0 and the result stays deterministic.
 */
export type Clock = () => number;

/** A phase's run: the last stage's output, every stage's events in stage order, and each stage's time. */
export interface PhaseRun<Output> {
  value: Output;
  trace: TraceEvent[];
  stageTimings: StageTiming[];
}

// Each stage's input type is checked against the output type of the stage before it when the list is built
// (`followedBy`); the runner itself only passes values along.
type AnyStage<Context> = Stage<never, unknown, Context>;

/** A phase: stages run in the order they were added, each given the output of the one before. */
export class StageList<Input, Output, Context> {
  private constructor(private readonly stages: readonly AnyStage<Context>[]) {}

  static startingWith<Input, Output, Context>(
    stage: Stage<Input, Output, Context>,
  ): StageList<Input, Output, Context> {
    return new StageList<Input, Output, Context>([stage]);
  }

  followedBy<Next>(stage: Stage<Output, Next, Context>): StageList<Input, Next, Context> {
    return new StageList<Input, Next, Context>([...this.stages, stage]);
  }

  /** The stages' names, in the order they run. */
  get names(): string[] {
    return this.stages.map((stage) => stage.name);
  }

  run(input: Input, context: Context, clock: Clock | null = null): PhaseRun<Output> {
    const trace: TraceEvent[] = [];
    const stageTimings: StageTiming[] = [];
    let value: unknown = input;
    for (const stage of this.stages) {
      const startedAt = clock === null ? 0 : clock();
      const result = (stage as Stage<unknown, unknown, Context>).run(value, context);
      stageTimings.push({ stage: stage.name, ms: clock === null ? 0 : clock() - startedAt });
      appendAll(trace, result.trace);
      value = result.value;
    }
    return { value: value as Output, trace, stageTimings };
  }
}

/** Append without spreading into arguments (a long trace would overflow the call stack). */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}
