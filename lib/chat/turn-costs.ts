// Costs for the inspector's index of model calls: each attempt's from its model's prices and reported usage, each
// turn's as the sum of its attempts', and the conversation's as the sum of its turns' and of its other calls'
// (summaries, titles, drafts). Unknown stays unknown.

import "server-only";
import type { Database } from "@/db/client";
import { listModels } from "@/db/queries";
import { type Cost, costOfUsage, sumCosts, type TokenUsage } from "@/lib/pricing";

interface CostableAttempt {
  modelId: string;
  usage: TokenUsage | null;
  /** A cost the attempt's view already computed (./attempt-cost.ts, with its estimate for a stopped or failed
   *  attempt); the summary rows carry none and are priced from their usage. */
  cost?: Cost | null;
}

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
  turns: (Turn & { attempts: (Attempt & { cost: Cost | null })[]; cost: Cost | null })[];
  otherCalls: (OtherCall & { cost: Cost | null })[];
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
}): Promise<(Call & { cost: Cost | null })[]> {
  return calls.map(await pricer(db));
}

/** Prices a call from the registry's prices, read once. */
async function pricer(db: Database) {
  const pricesByModel = new Map((await listModels({ db })).map((model) => [model.id, model.prices]));
  return <Call extends CostableAttempt>(call: Call) => ({
    ...call,
    cost: call.cost !== undefined ? call.cost : costOfUsage(call.usage, pricesByModel.get(call.modelId)),
  });
}
