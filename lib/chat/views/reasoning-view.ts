// What the chat shows of a reply's reasoning: how long the model thought, and what it thought when the provider
// gave the text (docs/features.md#reasoning-and-provider-metadata). Built from the stored reasoning artifacts'
// payloads, both for the live reply and for the transcript; client-safe.

export interface ReasoningView {
  /** From the first block's start to the last block's end; null when the times are not known. */
  durationMs: number | null;
  /** The blocks' text, blank-line separated; empty when the provider kept it hidden. */
  text: string;
  /** The model reasoned but the provider sent no text (encrypted reasoning, or only a signature). */
  hidden: boolean;
}

function timeOf(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

/** The view of a reply's reasoning blocks, in order; null when it has none. */
export function reasoningView(payloads: readonly Record<string, unknown>[]): ReasoningView | null {
  if (payloads.length === 0) return null;
  const texts: string[] = [];
  let start: number | null = null;
  let end: number | null = null;
  for (const payload of payloads) {
    if (typeof payload.text === "string" && payload.text.trim() !== "") texts.push(payload.text.trim());
    const startedAt = timeOf(payload.startedAt);
    const endedAt = timeOf(payload.endedAt);
    if (startedAt !== null && (start === null || startedAt < start)) start = startedAt;
    if (endedAt !== null && (end === null || endedAt > end)) end = endedAt;
  }
  const text = texts.join("\n\n");
  return {
    durationMs: start !== null && end !== null ? Math.max(0, end - start) : null,
    text,
    hidden: text === "",
  };
}

/** When an attempt ran: from its start (`queuedAt`) for `doneMs`; `answered` when it ended with a response. */
export interface AttemptWindow {
  queuedAt: string;
  doneMs?: number;
  answered: boolean;
}

/** Clock readings are whole milliseconds on both sides: a block may start in the millisecond the attempt began. */
const CLOCK_SLACK_MS = 1;

/**
 * The reasoning one attempt returned, from the reasoning its reply stored: the blocks that started while the
 * attempt ran. A block with no start time (an imported one) belongs to the attempt that answered. Null when none.
 */
export function attemptReasoning(
  payloads: readonly Record<string, unknown>[],
  attempt: AttemptWindow,
): ReasoningView | null {
  const start = timeOf(attempt.queuedAt);
  const end = start === null || attempt.doneMs === undefined ? null : start + attempt.doneMs;
  const mine = payloads.filter((payload) => {
    const startedAt = timeOf(payload.startedAt);
    if (startedAt === null || start === null) return attempt.answered;
    return startedAt >= start - CLOCK_SLACK_MS && (end === null || startedAt <= end + CLOCK_SLACK_MS);
  });
  return reasoningView(mine);
}

/** "Thought for 4 s", "Thought for 1 min 5 s", "Thought for a moment" (under half a second, or unknown). */
export function thoughtForLabel(view: Pick<ReasoningView, "durationMs">): string {
  const ms = view.durationMs;
  if (ms === null || ms < 500) return "Thought for a moment";
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `Thought for ${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0 ? `Thought for ${minutes} min` : `Thought for ${minutes} min ${rest} s`;
}
