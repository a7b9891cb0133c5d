// The API shapes the inspector reads: turns with their attempts, and the preview's dry run, as the routes send them
// (lib/api/responses.ts) after JSON. Type-only imports: nothing of the server reaches the bundle.
import type { UnclaimedElement, WireAddress } from "@/db/attempt-records";
import type { ApiOutput } from "@/lib/api/responses";
import type { ContextItem, ProviderName, TraceEvent } from "@/lib/domain/types";

type SentAttemptView = ApiOutput<"GET /api/attempts/:id">["attempt"];

/**
 * An item as an attempt's view gives it: `redacted` when someone else's private memory was replaced in it, and
 * where it sits in the request body (docs/features.md#wire-reconciliation): absent on attempts recorded without.
 */
export type ViewItem = ContextItem & { redacted?: boolean } & Partial<WireAddress>;

/**
 * An attempt as GET /api/attempts/:id and GET /turns send it. The database stores items and trace as untyped
 * JSON; what the pipeline wrote there is its ContextItem and TraceEvent.
 */
export type AttemptView = Omit<SentAttemptView, "items" | "trace" | "requests"> & {
  items: ViewItem[];
  trace: TraceEvent[];
  requests: (Omit<SentAttemptView["requests"][number], "items"> & { items: ViewItem[] | null })[];
};

/**
 * An attempt as a route sent it, its stored JSON read as the pipeline's types: the one place the inspector trusts
 * that the items and trace the database holds are what the pipeline wrote.
 */
export function readAttemptView(sent: SentAttemptView): AttemptView {
  return sent as AttemptView;
}

/** What a model call was for ("replay": a recorded attempt run again). */
export type AttemptKind = AttemptView["kind"];
export type BudgetView = NonNullable<AttemptView["budget"]>;
export type UsageView = NonNullable<AttemptView["usage"]>;

/** The light index of a conversation's model calls (`GET /turns?fields=summary`): no payloads, with costs. */
export type CallIndex = ApiOutput<"GET /api/conversations/:id/turns?fields=summary">;

/** A call that answers no turn, as listed in the index: everything but the payload, with its cost. */
export type AttemptSummaryView = CallIndex["otherCalls"][number];

/** A turn as listed in the index: its attempts without their payloads, and its cost. */
export type TurnSummaryView = CallIndex["turns"][number];

export type PreviewView = ApiOutput<"POST /api/conversations/:id/preview">["preview"];

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
