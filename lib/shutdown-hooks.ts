// The process's shutdown state (docs/deploy.md#graceful-shutdown), kept apart from the sequence itself
// (lib/shutdown.ts) so that the modules holding connections can register how to close them without importing it:
// whether shutdown has begun, the closers to run at its end, and the API requests in flight.

import "server-only";
import { AppError } from "@/lib/domain/errors";

/** Streams (live events, relayed replies) close first, then the connections (Redis, the pool) they may need. */
export type ClosePhase = "streams" | "connections";

interface ShutdownState {
  startedAt: number | null;
  closers: Map<number, { name: string; phase: ClosePhase; close: () => unknown }>;
  nextCloserId: number;
  inFlight: number;
}

const globalForShutdown = globalThis as unknown as { glassboxShutdownState?: ShutdownState };

function state(): ShutdownState {
  globalForShutdown.glassboxShutdownState ??= {
    startedAt: null,
    closers: new Map(),
    nextCloserId: 0,
    inFlight: 0,
  };
  return globalForShutdown.glassboxShutdownState;
}

/** Seconds a client refused during shutdown is told to wait: another instance takes the retry. */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 1;

export function isShuttingDown(): boolean {
  return state().startedAt !== null;
}

/** Marks the start of shutdown; false when it had already begun. */
export function beginShutdown(): boolean {
  if (state().startedAt !== null) return false;
  state().startedAt = Date.now();
  return true;
}

/** A new turn is refused once shutdown has begun: 503 with retry-after, nothing stored. */
export function refuseNewTurnWhenShuttingDown(): void {
  if (!isShuttingDown()) return;
  throw new AppError(
    "service_unavailable",
    "This server is restarting and takes no new replies. Send again: another server answers.",
    { headers: { "retry-after": String(SHUTDOWN_RETRY_AFTER_SECONDS) } },
  );
}

/** Register what to close at the end of shutdown (a connection, an open stream). Returns the unregistration. */
export function onShutdown(
  name: string,
  close: () => unknown,
  phase: ClosePhase = "connections",
): () => void {
  const current = state();
  const id = current.nextCloserId++;
  current.closers.set(id, { name, phase, close });
  return () => current.closers.delete(id);
}

/**
 * Run the closers of one phase once, side by side; one that fails or hangs does not hold up the others. Returns
 * the names of those that failed or timed out.
 */
export async function runShutdownClosers(phase: ClosePhase, timeoutMs: number): Promise<string[]> {
  const closers: { name: string; close: () => unknown }[] = [];
  for (const [id, closer] of state().closers) {
    if (closer.phase !== phase) continue;
    closers.push(closer);
    state().closers.delete(id);
  }
  const failed: string[] = [];
  await Promise.all(
    closers.map(async ({ name, close }) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          Promise.resolve().then(close),
          new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("timed out")), timeoutMs))),
        ]);
      } catch {
        failed.push(name);
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return failed;
}

/** Counts an API request while its handler runs (not while its body streams), so shutdown can wait for it. */
export async function trackRequest<T>(handle: () => Promise<T>): Promise<T> {
  const current = state();
  current.inFlight++;
  try {
    return await handle();
  } finally {
    current.inFlight--;
  }
}

export function requestsInFlight(): number {
  return state().inFlight;
}
