// Graceful shutdown (docs/deploy.md#graceful-shutdown). On SIGTERM (or SIGINT) the instance stops taking new
// turns (POST /api/chat and /api/ready answer 503), lets the replies it is streaming finish for up to
// SHUTDOWN_GRACE_MS, then stops the rest and stores them `interrupted` (with a database sweep behind it, the same
// one crash recovery uses), lets the titles being generated finish, closes live event streams (their readers
// reconnect to another instance), stops accepting connections, waits for requests in flight, closes Redis and the
// database pool, and exits.
//
// Next.js installs its own SIGTERM/SIGINT handler in `next start` (close the HTTP server, wait for every open
// connection, exit): it would wait forever for a live event stream and exit in the middle of ours. `npm start`
// sets NEXT_MANUAL_SIG_HANDLE so Next installs none; under a bare `next start`, its handler (already installed
// when instrumentation.ts runs) is removed here, so only this sequence runs.

import "server-only";
import { Server } from "node:http";
import { databaseHandle } from "@/db/client";
import { settleTitleGenerations } from "@/lib/chat/generated/title";
import { sweepAbandonedTurns } from "@/lib/chat/turn-control/turn-recovery";
import { interruptTurnsRunningHere, waitForTurnsRunningHere } from "@/lib/chat/turn-control/turn-stops";
import { env } from "@/lib/config/env";
import { publishingSettled } from "@/lib/live/publish";
import { logger } from "@/lib/logger";
import { beginShutdown, requestsInFlight, runShutdownClosers } from "@/lib/shutdown-hooks";

/** After the grace period, how long interrupted turns get to store what they have. */
const INTERRUPT_SETTLE_MS = 5_000;
/** How long API requests already in flight may take once the streams are closed. */
const IN_FLIGHT_WAIT_MS = 3_000;
const CLOSE_TIMEOUT_MS = 3_000;

const SIGNALS = ["SIGTERM", "SIGINT"] as const;

/** The whole sequence; resolves when the process may exit. Runs once: later calls are no-ops. */
export async function shutDown(signal: string): Promise<void> {
  if (!beginShutdown()) return;
  const graceMs = env().SHUTDOWN_GRACE_MS;
  logger.info({ signal, graceMs }, "shutting down: no new turns, running replies may finish");
  const deadline = Date.now() + graceMs;
  // A turn whose request got past the refusal just before the signal registers itself before its handler
  // returns: wait for those handlers first, or its turn would be missed and its connections closed under it.
  while (requestsInFlight() > 0 && Date.now() < deadline) await delay(50);
  const left = await waitForTurnsRunningHere(Math.max(0, deadline - Date.now()));
  if (left > 0) {
    logger.warn({ turns: left }, "grace period over: interrupting the replies still running");
    interruptTurnsRunningHere();
    await waitForTurnsRunningHere(INTERRUPT_SETTLE_MS);
  }
  const handle = databaseHandle();
  // Whatever did not store its final state (its writes failed, or it would not stop) is marked now.
  await sweepAbandonedTurns(handle.db, new Set()).catch((error: unknown) =>
    logger.error({ err: error }, "could not mark this instance's remaining turns interrupted"),
  );
  // A title being generated for a reply that just ended is stored before the pool closes: cut, the conversation
  // would keep its default title until its next turn.
  await withTimeout(settleTitleGenerations(), CLOSE_TIMEOUT_MS);
  // The final states just stored reach the room's readers on every instance before the bus closes.
  await withTimeout(publishingSettled(), CLOSE_TIMEOUT_MS);
  // Closers first close the live streams (so requests in flight are only short ones), then the connections.
  const failedStreams = await runShutdownClosers("streams", CLOSE_TIMEOUT_MS);
  // No new connections from here on: the load balancer's next try goes to another instance (a refused connection
  // is safe to retry, even for a POST). Connections already open finish the request they carry.
  const closed = Promise.all(
    httpListeners().map((server) => new Promise((resolve) => server.close(resolve))),
  );
  const waitUntil = Date.now() + IN_FLIGHT_WAIT_MS;
  while (requestsInFlight() > 0 && Date.now() < waitUntil) await delay(50);
  await withTimeout(closed, Math.max(0, waitUntil - Date.now()));
  const failedConnections = await runShutdownClosers("connections", CLOSE_TIMEOUT_MS);
  await handle.close().catch((error: unknown) => logger.warn({ err: error }, "could not close the pool"));
  const failed = [...failedStreams, ...failedConnections];
  if (failed.length > 0) logger.warn({ failed }, "some connections did not close in time");
  logger.info({ signal }, "shut down");
}

/**
 * The HTTP servers this process listens with. Next does not hand its server to the app, so it is found among the
 * process's active handles (Node's `_getActiveHandles`, there since its first versions).
 */
function httpListeners(): Server[] {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  return handles.filter((handle): handle is Server => handle instanceof Server && handle.listening);
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for `work`, or `ms` at most (a close that hangs does not hold up the rest). */
export function withTimeout(work: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

/** Once per process, from instrumentation.ts. */
export function installShutdownHandlers(): void {
  const globalForHandlers = globalThis as unknown as { glassboxShutdownHandlers?: boolean };
  if (globalForHandlers.glassboxShutdownHandlers) return;
  globalForHandlers.glassboxShutdownHandlers = true;
  for (const signal of SIGNALS) {
    // Next's handler is the function it names `cleanup` (next/dist/server/lib/start-server.js); other listeners
    // (Next's CPU profile writer, for one) stay.
    for (const listener of process.listeners(signal)) {
      if (listener.name === "cleanup") process.removeListener(signal, listener);
    }
    process.on(signal, () => {
      shutDown(signal)
        .catch((error: unknown) => logger.error({ err: error }, "shutdown failed"))
        .finally(() => process.exit(0));
    });
  }
}
