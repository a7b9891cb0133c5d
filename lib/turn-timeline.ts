// A turn's model calls as a waterfall: each attempt's bar starts when it was queued (relative to the turn's first
// attempt), marked "queued" with its wall-clock time since that moment comes before the attempt's own pipeline
// stages and its request, and ends when it was done, with marks at its first byte and first token. The gaps between bars are the
// waits between retries. Pure and client-safe; the inspector draws what this computes.

export interface TimedAttempt {
  id: string;
  attemptNumber: number;
  stepNumber: number;
  modelId: string;
  status: string;
  timings: { queuedAt: string; firstByteMs?: number; firstTokenMs?: number; doneMs?: number };
}

export interface TimelineRow {
  id: string;
  label: string;
  status: string;
  /** When the attempt was queued (ISO time), before its first stage ran: the "queued" mark. */
  queuedAt: string;
  /** Milliseconds from the turn's first attempt being queued. */
  startMs: number;
  endMs: number;
  firstByteMs: number | null;
  firstTokenMs: number | null;
  /** Positions on the shared scale, 0–100. */
  queuedPercent: number;
  startPercent: number;
  widthPercent: number;
  firstBytePercent: number | null;
  firstTokenPercent: number | null;
}

export interface Timeline {
  totalMs: number;
  rows: TimelineRow[];
}

export function turnTimeline(attempts: readonly TimedAttempt[]): Timeline {
  if (attempts.length === 0) return { totalMs: 0, rows: [] };
  const starts = attempts.map((attempt) => Date.parse(attempt.timings.queuedAt));
  const origin = Math.min(...starts);
  const spans = attempts.map((attempt, index) => {
    const startMs = (starts[index] ?? origin) - origin;
    const doneMs = attempt.timings.doneMs ?? attempt.timings.firstTokenMs ?? attempt.timings.firstByteMs ?? 0;
    return { attempt, startMs, endMs: startMs + doneMs };
  });
  const totalMs = Math.max(1, ...spans.map((span) => span.endMs));
  const percent = (ms: number) => Math.min(100, Math.max(0, (ms / totalMs) * 100));
  const at = (startMs: number, offset: number | undefined) =>
    offset === undefined ? null : { ms: offset, percent: percent(startMs + offset) };
  return {
    totalMs,
    rows: spans.map(({ attempt, startMs, endMs }) => {
      const firstByte = at(startMs, attempt.timings.firstByteMs);
      const firstToken = at(startMs, attempt.timings.firstTokenMs);
      return {
        id: attempt.id,
        label: `#${attempt.attemptNumber}${attempt.stepNumber > 0 ? ` step ${attempt.stepNumber}` : ""} ${attempt.modelId}`,
        status: attempt.status,
        queuedAt: attempt.timings.queuedAt,
        startMs,
        endMs,
        firstByteMs: firstByte?.ms ?? null,
        firstTokenMs: firstToken?.ms ?? null,
        queuedPercent: percent(startMs),
        startPercent: percent(startMs),
        widthPercent: Math.max(0.5, percent(endMs) - percent(startMs)),
        firstBytePercent: firstByte?.percent ?? null,
        firstTokenPercent: firstToken?.percent ?? null,
      };
    }),
  };
}
