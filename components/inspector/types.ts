// The API shapes the inspector reads: turns with their attempts, and the preview's dry run. Each is derived from
// the server function that builds it (lib/chat/views/attempt-view.ts, lib/chat/turn/preview-turn.ts, db/turn-queries.ts), as the
// browser receives it: JSON, so dates are strings. Type-only imports: nothing of the server reaches the bundle.
import type { AsJson } from "@/components/ui/api-client";
import type { listOtherModelCallSummaries } from "@/db/attempt-queries";
import type { UnclaimedElement, WireAddress } from "@/db/schema";
import type { listTurnSummaries, listTurnsWithAttempts } from "@/db/turn-queries";
import type { previewTurn } from "@/lib/chat/turn/preview-turn";
import type { toAttemptViews } from "@/lib/chat/views/attempt-view";
import type { ContextItem, ProviderName, TraceEvent } from "@/lib/domain/types";
import type { Cost } from "@/lib/pricing";

type ServerAttemptView = Awaited<ReturnType<typeof toAttemptViews>>[number];

/**
 * An item as an attempt's view gives it: `redacted` when someone else's private memory was replaced in it, and
 * where it sits in the request body (docs/features.md#wire-reconciliation): absent on attempts recorded without.
 */
export type ViewItem = ContextItem & { redacted?: boolean } & Partial<WireAddress>;

/**
 * An attempt as GET /api/attempts/:id and GET /turns send it. The database stores items and trace as untyped
 * JSON; what the pipeline wrote there is its ContextItem and TraceEvent.
 */
export type AttemptView = AsJson<Omit<ServerAttemptView, "items" | "trace" | "requests">> & {
  items: ViewItem[];
  trace: TraceEvent[];
  requests: (Omit<AsJson<ServerAttemptView["requests"][number]>, "items"> & { items: ViewItem[] | null })[];
};

/** What a model call was for ("replay": a recorded attempt run again). */
export type AttemptKind = AttemptView["kind"];
export type BudgetView = NonNullable<AttemptView["budget"]>;
export type UsageView = NonNullable<AttemptView["usage"]>;

type ServerTurnSummary = Awaited<ReturnType<typeof listTurnSummaries>>[number];
type ServerOtherCallSummary = Awaited<ReturnType<typeof listOtherModelCallSummaries>>[number];

/** An attempt as listed by `GET /turns?fields=summary`: everything but the payload, with its cost. */
export type AttemptSummaryView = AsJson<ServerOtherCallSummary> & {
  /** From the model's prices and the reported usage; null when either is unknown. */
  cost: Cost | null;
};

/** A turn as listed by `GET /turns?fields=summary`: its attempts without their payloads, and its cost. */
export type TurnSummaryView = AsJson<Omit<ServerTurnSummary, "attempts">> & {
  attempts: AttemptSummaryView[];
  /** The sum of its attempts' known costs. */
  cost: Cost | null;
};

/** A turn as `GET /turns` sends it, each attempt in full. */
export type TurnView = AsJson<Omit<Awaited<ReturnType<typeof listTurnsWithAttempts>>[number], "attempts">> & {
  attempts: AttemptView[];
};

export type PreviewView = AsJson<Awaited<ReturnType<typeof previewTurn>>>;

/** What the payload views need, from an attempt or a preview alike. */
export interface PayloadView {
  modelId: string;
  provider: ProviderName | null;
  items: ViewItem[];
  trace: TraceEvent[];
  budget: BudgetView | null;
  usage: UsageView | null;
  request: { url: string; body: string } | null;
  /** Body elements no item explains, and the adapter's warnings (absent where not reconciled). */
  unclaimed?: UnclaimedElement[];
  warnings?: string[];
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
    unclaimed: attempt.unclaimed,
    warnings: attempt.warnings,
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
