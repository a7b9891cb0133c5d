// Stopping a running turn from any instance (docs/features.md, "Stop"). Each process keeps the turns it is
// running, with the function that stops one. A stop request for a turn this process runs stops it at once; for a
// turn another instance runs, it is published on Redis (when REDIS_URL is set), and the instance running it
// stops it. A disconnect is not a stop: only this path aborts the provider request.

import "server-only";
import { createClient } from "redis";
import { env } from "@/lib/config/env";
import { AppError } from "@/lib/domain/errors";
import { logger } from "@/lib/logger";
import { onShutdown } from "@/lib/shutdown-hooks";

/** What the stop request knows of what the user saw: the reply's text is cut to this many characters. */
export interface StopRequest {
  turnId: string;
  shownChars?: number;
  /** "shutdown": this instance is going away; the reply is stored `interrupted`, not `stopped`. */
  reason?: "user" | "shutdown";
}

interface RunningTurn {
  conversationId: string;
  stop(request: StopRequest): void;
  /** Resolves once the turn has stored its final state. */
  settled: Promise<void>;
}

const STOP_CHANNEL = "glassbox:turn-stops";

const globalForStops = globalThis as unknown as {
  glassboxRunningTurns?: Map<string, RunningTurn>;
  glassboxStartingTurns?: Set<string>;
  glassboxStopBus?: Promise<StopBus | null>;
};

function runningTurns(): Map<string, RunningTurn> {
  globalForStops.glassboxRunningTurns ??= new Map();
  return globalForStops.glassboxRunningTurns;
}

/** The ids of the turns this process is running now. */
export function turnsRunningHere(): ReadonlySet<string> {
  return new Set(runningTurns().keys());
}

/** How many turns this process is running now. */
export function runningTurnCount(): number {
  return runningTurns().size;
}

/**
 * The turn this process runs in a conversation, if any. A turn is registered before its first chunk is sent and
 * before its row is stored: a stop or an edit that comes right after the first words finds it here.
 */
export function turnRunningHere(conversationId: string): string | null {
  for (const [turnId, turn] of runningTurns()) if (turn.conversationId === conversationId) return turnId;
  return null;
}

/**
 * Claim the conversation for a turn this process is setting up, until it registers as running (then the release
 * is called) or fails. Checked and taken in one synchronous step: of two turns set up here at once, the second is
 * refused (409), since its history would hold the first's reply before it is written (docs/features.md, "Stop").
 */
export function claimTurnStart(conversationId: string, action: string): () => void {
  const starting = startingTurns();
  if (starting.has(conversationId) || turnRunningHere(conversationId) !== null) {
    throw replyBeingWrittenError(action);
  }
  starting.add(conversationId);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    starting.delete(conversationId);
  };
}

/** The refusal of what would build from a history whose latest reply is not written yet (409). */
export function replyBeingWrittenError(action: string): AppError {
  return new AppError(
    "conflict",
    `A reply is still being written in this conversation: wait for it or stop it, then ${action}.`,
  );
}

/** Whether this process is setting a turn up in the conversation (claimed, not yet registered as running). */
export function turnStartingHere(conversationId: string): boolean {
  return startingTurns().has(conversationId);
}

function startingTurns(): Set<string> {
  globalForStops.glassboxStartingTurns ??= new Set();
  return globalForStops.glassboxStartingTurns;
}

/** Register a turn this process runs; returns the function to call once it has stored its final state. */
export function registerRunningTurn(
  turnId: string,
  conversationId: string,
  stop: RunningTurn["stop"],
): () => void {
  let markSettled: () => void = () => {};
  const settled = new Promise<void>((resolve) => {
    markSettled = resolve;
  });
  runningTurns().set(turnId, { conversationId, stop, settled });
  // Listen for stops from other instances from the first turn on.
  void stopBus();
  return () => {
    runningTurns().delete(turnId);
    markSettled();
  };
}

/**
 * At shutdown: wait until every turn running here has stored its final state, or `timeoutMs` has passed. Returns
 * how many are still running.
 */
export async function waitForTurnsRunningHere(timeoutMs: number): Promise<number> {
  const settled = Promise.all([...runningTurns().values()].map((turn) => turn.settled));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([settled, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
  return runningTurns().size;
}

/** At shutdown, once the grace period is over: every turn running here stops and stores what it has. */
export function interruptTurnsRunningHere(): void {
  for (const [turnId, turn] of runningTurns()) turn.stop({ turnId, reason: "shutdown" });
}

/**
 * Stop a turn wherever it runs. Resolves `true` once this process has stopped it and stored the result, `false`
 * when the turn is not running here (it was published for the other instances when Redis is configured).
 */
export async function requestStop(request: StopRequest): Promise<boolean> {
  const local = runningTurns().get(request.turnId);
  if (local) {
    local.stop(request);
    await local.settled;
    return true;
  }
  const bus = await stopBus();
  await bus?.publish(request);
  return false;
}

interface StopBus {
  publish(request: StopRequest): Promise<void>;
}

function stopBus(): Promise<StopBus | null> {
  globalForStops.glassboxStopBus ??= connectStopBus(env().REDIS_URL);
  return globalForStops.glassboxStopBus;
}

async function connectStopBus(url: string | undefined): Promise<StopBus | null> {
  if (!url) return null;
  try {
    const publisher = createClient({ url });
    const subscriber = publisher.duplicate();
    for (const client of [publisher, subscriber]) {
      client.on("error", (error) => logger.warn({ err: error }, "redis error (turn stops)"));
    }
    await Promise.all([publisher.connect(), subscriber.connect()]);
    await subscriber.subscribe(STOP_CHANNEL, (payload) => {
      try {
        const request = JSON.parse(payload) as StopRequest;
        runningTurns().get(request.turnId)?.stop(request);
      } catch (error) {
        logger.warn({ err: error }, "ignored a malformed stop message");
      }
    });
    onShutdown("redis (turn stops)", () => Promise.allSettled([subscriber.quit(), publisher.quit()]));
    return {
      async publish(request) {
        await publisher.publish(STOP_CHANNEL, JSON.stringify(request));
      },
    };
  } catch (error) {
    logger.error({ err: error }, "could not connect to Redis for turn stops: stops reach this instance only");
    return null;
  }
}
