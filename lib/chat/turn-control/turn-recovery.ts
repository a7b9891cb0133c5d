// Turns whose instance died (kill -9, a crash, a lost host) would otherwise stay `running` forever, their replies
// `streaming`. Each instance sweeps for them soon after it starts and then on a timer: its own turns from an
// earlier life at once (its id is stable across restarts), any other instance's once their heartbeat is stale.

import "server-only";
import { hostname } from "node:os";
import type { Database } from "@/db/client";
import { recoverAbandonedTurns } from "@/db/turn-queries";
import { env } from "@/lib/config/env";
import { publishMessage } from "@/lib/live/publish";
import { logger } from "@/lib/logger";
import { turnsRunningHere } from "./turn-stops";

const FIRST_SWEEP_DELAY_MS = 1_000;
const SWEEP_INTERVAL_MS = 30_000;

/**
 * This instance's id, the same after a restart: INSTANCE_ID when set, else host and port (read when first needed,
 * since the server sets PORT as it starts). The worker processes of one instance (WEB_CONCURRENCY) each add their
 * number: they share the port, and each must leave the others' running turns alone.
 */
export function instanceId(): string {
  const { INSTANCE_ID, INSTANCE_WORKER, PORT } = env();
  const instance = INSTANCE_ID || `${hostname()}:${PORT}`;
  return INSTANCE_WORKER ? `${instance}/worker-${INSTANCE_WORKER}` : instance;
}

/**
 * Mark abandoned turns interrupted. `runningHere` (by default the turns this process runs) are left alone; at
 * shutdown, once the grace period is over, nothing is (docs/deploy.md#graceful-shutdown).
 */
export async function sweepAbandonedTurns(
  db: Database,
  runningHere: ReadonlySet<string> = turnsRunningHere(),
): Promise<number> {
  const recovered = await recoverAbandonedTurns({
    db,
    instanceId: instanceId(),
    runningHere,
    onReplyInterrupted: (reply) => void publishMessage({ db, ...reply }),
  });
  if (recovered > 0) logger.warn({ recovered }, "marked turns of a dead instance interrupted");
  return recovered;
}

/** Start the sweeps (once per process). */
export function startTurnRecovery(getDb: () => Promise<Database>): void {
  const globalForRecovery = globalThis as unknown as { glassboxTurnRecovery?: boolean };
  if (globalForRecovery.glassboxTurnRecovery) return;
  globalForRecovery.glassboxTurnRecovery = true;
  const sweep = () => {
    getDb()
      .then(sweepAbandonedTurns)
      .catch((error) => logger.warn({ err: error }, "could not sweep for abandoned turns"));
  };
  setTimeout(sweep, FIRST_SWEEP_DELAY_MS).unref();
  setInterval(sweep, SWEEP_INTERVAL_MS).unref();
}
