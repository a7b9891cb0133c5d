// An attempt's prompt cache against the previous attempt to the same model in its conversation: the breakpoints it
// sent, the byte prefix the two request bodies share, the first item that changed and the input tokens (and
// dollars) sent again because of it (lib/prompt-cache.ts says it in a sentence for the inspector).

import "server-only";
import { getPreviousAttemptToModel } from "@/db/attempt-queries";
import type { Database } from "@/db/client";
import { getModel } from "@/db/model-queries";
import type { Attempt, Model } from "@/db/schema";
import type { CacheBreakpointPlace, ContextItem, ModelPrices } from "@/lib/domain/types";
import { prefixStability } from "@/lib/payload-diff";
import { type CacheMissExplanation, explainCacheMiss } from "@/lib/prompt-cache";
import { toAttemptViews } from "./attempt-view";

type AttemptView = Awaited<ReturnType<typeof toAttemptViews>>[number];

export type AttemptCacheView = CacheMissExplanation & {
  breakpoints: CacheBreakpointPlace[];
  /** The attempt this one is compared with. */
  previousAttemptId: string;
};

/** Null for a conversation's first attempt to the model, or when either request body was not recorded. */
export async function attemptCacheView({
  db,
  attempt,
  view: now,
  readerId,
}: {
  db: Database;
  attempt: Attempt;
  /** The attempt's own view, as the route already built it. */
  view: AttemptView;
  readerId: string;
}): Promise<AttemptCacheView | null> {
  const previous = await getPreviousAttemptToModel({ db, attempt });
  if (!previous) return null;
  const [[before], model] = await Promise.all([
    toAttemptViews({ db, conversationId: attempt.conversationId, attemptRows: [previous], readerId }),
    getModel({ db, modelId: attempt.modelId }),
  ]);
  if (!before.request || !now.request) return null;
  const { stableBytes } = prefixStability(before.request.body, now.request.body);
  // The stored items are the pipeline's (stored as untyped JSON).
  const [beforeItems, nowItems] = [before.items as ContextItem[], now.items as ContextItem[]];
  return {
    // The tokens sent again are priced as the attempt itself was: at the prices it was recorded with.
    ...explainCacheMiss(beforeItems, nowItems, stableBytes, pricesOf(attempt, model)),
    breakpoints: nowItems.flatMap((item) => (item.cacheBreakpoint ? [item.cacheBreakpoint] : [])),
    previousAttemptId: previous.id,
  };
}

/** The prices the attempt was recorded with; the model's of today for an attempt recorded before they were kept. */
function pricesOf(attempt: Attempt, model: Model | null): ModelPrices | null | undefined {
  const stored = attempt.response?.prices;
  return stored === undefined ? model?.prices : stored;
}
