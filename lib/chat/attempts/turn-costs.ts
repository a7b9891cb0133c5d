// Costs for the inspector's index of model calls: each attempt's from its reported usage at the prices it was
// recorded with (its model's of today for an attempt older than that, ./attempt-cost.ts), each
// turn's as the sum of its attempts', and the conversation's as the sum of its turns' and of its other calls'
// (summaries, titles, drafts). Unknown stays unknown.

import "server-only";
import type { Database } from "@/db/client";
import { listModels } from "@/db/model-queries";
import { type Cost, type ModelPrices, sumCosts, type TokenUsage } from "@/lib/pricing";
import { attemptCost } from "./attempt-cost";

interface CostableAttempt {
  modelId: string;
  usage: TokenUsage | null;
  /** For a stopped or failed attempt: what its estimate is counted from (db/attempt-queries.ts attemptSummaryColumns). */
  status?: string;
  error?: { status?: number } | null;
  sentTokens?: number | null;
  streamedText?: string | null;
  /** The prices it was recorded with, as `[prices]` (db/attempt-queries.ts); null on older attempts. */
  pricesAtRecord?: [ModelPrices | null] | null;
  /** A cost the attempt's view already computed (./attempt-cost.ts, with its estimate for a stopped or failed
   *  attempt); the summary rows carry none and are priced from their usage. */
  cost?: Cost | null;
}

/** A call with its cost, without the fields its estimate was counted from. */
type Priced<Call> = Omit<Call, "sentTokens" | "streamedText" | "pricesAtRecord"> & { cost: Cost | null };

export async function withCosts<
  Attempt extends CostableAttempt,
  Turn extends { attempts: Attempt[] },
  OtherCall extends CostableAttempt,
>({
  db,
  turns,
  otherCalls,
}: {
  db: Database;
  turns: Turn[];
  otherCalls: OtherCall[];
}): Promise<{
  turns: (Omit<Turn, "attempts"> & { attempts: Priced<Attempt>[]; cost: Cost | null })[];
  otherCalls: Priced<OtherCall>[];
  cost: Cost | null;
}> {
  const priced = await pricer(db);
  const costedTurns = turns.map((turn) => {
    const attempts = turn.attempts.map(priced);
    return { ...turn, attempts, cost: sumCosts(attempts.map((attempt) => attempt.cost)) };
  });
  const costedCalls = otherCalls.map(priced);
  return {
    turns: costedTurns,
    otherCalls: costedCalls,
    cost: sumCosts([...costedTurns.map((turn) => turn.cost), ...costedCalls.map((call) => call.cost)]),
  };
}

/** Each call with its cost (the find-attempts page's rows). */
export async function withAttemptCosts<Call extends CostableAttempt>({
  db,
  calls,
}: {
  db: Database;
  calls: Call[];
}): Promise<Priced<Call>[]> {
  return calls.map(await pricer(db));
}

/**
 * Prices a call from the registry's prices, read once: as the attempt's view does (./attempt-cost.ts), so a
 * stopped or failed attempt's estimate is the same in every view.
 */
async function pricer(db: Database) {
  const modelsById = new Map((await listModels({ db })).map((model) => [model.id, model]));
  return <Call extends CostableAttempt>(call: Call) => {
    const { sentTokens, streamedText, pricesAtRecord, ...rest } = call;
    return {
      ...rest,
      cost:
        call.cost !== undefined
          ? call.cost
          : attemptCost(
              {
                status: call.status ?? "ok",
                error: call.error,
                items: [{ tokens: sentTokens ?? 0 }],
                response: {
                  text: streamedText ?? "",
                  usage: call.usage,
                  ...(pricesAtRecord ? { prices: pricesAtRecord[0] } : {}),
                },
              },
              modelsById.get(call.modelId),
            ),
    } as Priced<Call>;
  };
}
