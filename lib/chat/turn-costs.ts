// Costs for the inspector's index of turns: each attempt's from its model's prices and reported usage, each
// turn's as the sum of its attempts', and the conversation's as the sum of its turns'. Unknown stays unknown.

import type { Database } from "@/db/client";
import { listModels } from "@/db/queries";
import { type Cost, costOfUsage, sumCosts, type TokenUsage } from "@/lib/pricing";

interface CostableAttempt {
  modelId: string;
  usage: TokenUsage | null;
}

export async function withCosts<Attempt extends CostableAttempt, Turn extends { attempts: Attempt[] }>({
  db,
  turns,
}: {
  db: Database;
  turns: Turn[];
}): Promise<{
  turns: (Turn & { attempts: (Attempt & { cost: Cost | null })[]; cost: Cost | null })[];
  cost: Cost | null;
}> {
  const pricesByModel = new Map((await listModels({ db })).map((model) => [model.id, model.prices]));
  const costed = turns.map((turn) => {
    const attempts = turn.attempts.map((attempt) => ({
      ...attempt,
      cost: costOfUsage(attempt.usage, pricesByModel.get(attempt.modelId)),
    }));
    return { ...turn, attempts, cost: sumCosts(attempts.map((attempt) => attempt.cost)) };
  });
  return { turns: costed, cost: sumCosts(costed.map((turn) => turn.cost)) };
}
