// The API shapes the inspector reads: turns with their attempts, and the preview's dry run. They
// mirror lib/chat/attempt-view.ts and lib/chat/preview-turn.ts as JSON (dates are strings).
import type { ResolvedSettings } from "@/lib/context/settings";
import type { ContextItem, ProviderName, TraceEvent } from "@/lib/context/types";
import type { Cost } from "@/lib/pricing";

export interface BudgetView {
  usableTokens: number;
  totalTokens: number;
  reservedOutputTokens: number;
  contextWindow: number;
}

export interface UsageView {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
}

/** What a model call was for ("replay" is reserved for replaying a recorded attempt). */
export type AttemptKind = "reply" | "summary" | "title" | "write_as_me" | "replay";

export interface AttemptView {
  id: string;
  /** Null for a call that answers no turn (a summary, a title, a write-as-me draft). */
  turnId: string | null;
  kind: AttemptKind;
  attemptNumber: number;
  stepNumber: number;
  modelId: string;
  provider: ProviderName | null;
  status: "ok" | "error" | "stopped";
  error: { code: string; message: string; status?: number } | null;
  items: ContextItem[];
  trace: TraceEvent[];
  settings: ResolvedSettings;
  settingsVersion: number;
  budget: BudgetView | null;
  request: { url: string; body: string } | null;
  requests: { url: string; status: number | null; body: string }[];
  response: { text: string; finishReason: string | null; usage: UsageView | null } | null;
  usage: UsageView | null;
  /** From the model's prices and the reported usage; null when either is unknown. */
  cost: Cost | null;
  timings: { queuedAt: string; firstByteMs?: number; firstTokenMs?: number; doneMs?: number };
  /** Someone else's private memories this attempt carried, replaced for this reader; null when none. */
  privateMemoryRedaction: {
    count: number;
    owners: { userId: string; name: string }[];
    notice: string;
  } | null;
  createdAt: string;
}

/** An item as an attempt's view gives it: `redacted` when someone else's private memory was replaced in it. */
export type ViewItem = ContextItem & { redacted?: boolean };

/** An attempt as listed by `GET /turns?fields=summary`: everything but the payload. */
export type AttemptSummaryView = Pick<
  AttemptView,
  | "id"
  | "turnId"
  | "kind"
  | "attemptNumber"
  | "stepNumber"
  | "modelId"
  | "status"
  | "error"
  | "usage"
  | "cost"
  | "timings"
  | "settingsVersion"
  | "createdAt"
>;

export interface TurnSummaryView extends Omit<TurnView, "attempts"> {
  attempts: AttemptSummaryView[];
  /** The sum of its attempts' known costs. */
  cost: Cost | null;
}

export interface TurnView {
  id: string;
  conversationId: string;
  userMessageId: string | null;
  assistantMessageId: string | null;
  status: "running" | "ok" | "error" | "stopped" | "interrupted";
  settingsVersion: number;
  createdAt: string;
  attempts: AttemptView[];
}

export interface PreviewView {
  modelId: string;
  provider: ProviderName;
  settingsVersion: number;
  settings: ResolvedSettings;
  items: ContextItem[];
  trace: TraceEvent[];
  budget: BudgetView;
  request: { url: string; body: string };
}

/** What the payload views need, from an attempt or a preview alike. */
export interface PayloadView {
  modelId: string;
  provider: ProviderName | null;
  items: ContextItem[];
  trace: TraceEvent[];
  budget: BudgetView | null;
  usage: UsageView | null;
  request: { url: string; body: string } | null;
}

export function attemptPayload(attempt: AttemptView): PayloadView {
  return {
    modelId: attempt.modelId,
    provider: attempt.provider,
    items: attempt.items,
    trace: attempt.trace,
    budget: attempt.budget,
    usage: attempt.usage,
    request: attempt.request,
  };
}

export function previewPayload(preview: PreviewView): PayloadView {
  return { ...preview, usage: null };
}

/** The attempt that stands for a turn: the one that succeeded, else the last one tried. */
export function representativeAttempt<Attempt extends { status: string }>(turn: {
  attempts: Attempt[];
}): Attempt | null {
  return turn.attempts.findLast((attempt) => attempt.status === "ok") ?? turn.attempts.at(-1) ?? null;
}
