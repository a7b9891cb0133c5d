// How many turns of this process may be setting up at once: reading what they need, storing the person's message
// (docs/features.md, "The turn's own cost"). Set-up is database round trips and CPU on one core; when many
// turns arrive together, letting all of them set up side by side makes each one wait for all the others, and
// every first token comes late. Admitted in arrival order a few at a time, the first turns answer quickly and the
// last no later than before. What comes after set-up (the model call, the stream) is not limited here.

import "server-only";
import pLimit, { type LimitFunction } from "p-limit";
import { env } from "@/lib/config/env";

let limiter: LimitFunction | null = null;

/** Runs `setUp` once fewer than TURN_SETUP_CONCURRENCY set-ups are running; in arrival order. */
export function admitTurnSetUp<Value>(setUp: () => Promise<Value>): Promise<Value> {
  const concurrency = env().TURN_SETUP_CONCURRENCY;
  if (limiter === null) limiter = pLimit(concurrency);
  else if (limiter.concurrency !== concurrency) limiter.concurrency = concurrency;
  return limiter(setUp);
}
