// How one instance tells the others that something happened in a conversation (docs/features.md, "Live
// rooms"): Redis pub/sub when REDIS_URL is set, Postgres LISTEN/NOTIFY otherwise, and within the process alone for
// embedded PGlite (one process is the whole app). Signals are small on purpose, whatever carries them: a stored
// event travels as its id (readers fetch it from the replay buffer), so NOTIFY's 8 000-byte limit never binds.

import "server-only";
import postgres from "postgres";
import { createClient } from "redis";
import { env } from "@/lib/config/env";
import { logger } from "@/lib/logger";
import { onShutdown } from "@/lib/shutdown-hooks";

export type LiveSignal =
  /** Stored event `eventId` of the conversation is committed: readers fetch everything after their last id. */
  | { conversationId: string; eventId: number }
  /** Someone is typing: passed on as it is, never stored. */
  | { conversationId: string; typing: { userId: string; name: string } };

export interface LiveBus {
  readonly kind: "redis" | "postgres" | "process";
  /** Deliver to every subscriber of every instance, this one included. */
  publish(signal: LiveSignal): Promise<void>;
  subscribe(listener: (signal: LiveSignal) => void): () => void;
  close(): Promise<void>;
}

const REDIS_CHANNEL = "glassbox:live";
const POSTGRES_CHANNEL = "glassbox_live";

/** Listeners of one bus, and the parsing every transport shares. */
class Listeners {
  private readonly listeners = new Set<(signal: LiveSignal) => void>();

  add(listener: (signal: LiveSignal) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  deliver(signal: LiveSignal): void {
    for (const listener of this.listeners) {
      try {
        listener(signal);
      } catch (error) {
        logger.warn({ err: error }, "a live listener failed");
      }
    }
  }

  deliverText(payload: string): void {
    let signal: LiveSignal;
    try {
      signal = JSON.parse(payload) as LiveSignal;
    } catch (error) {
      logger.warn({ err: error }, "ignored a malformed live signal");
      return;
    }
    if (typeof signal?.conversationId === "string") this.deliver(signal);
  }
}

/** A bus between instances: signals travel as JSON text, which `send` hands to the transport. */
function textBus({
  kind,
  listeners,
  send,
  close,
}: {
  kind: "redis" | "postgres";
  listeners: Listeners;
  send: (text: string) => Promise<unknown>;
  close: () => Promise<unknown>;
}): LiveBus {
  return {
    kind,
    async publish(signal) {
      await send(JSON.stringify(signal));
    },
    subscribe: (listener) => listeners.add(listener),
    async close() {
      await close();
    },
  };
}

export async function connectRedisBus(url: string): Promise<LiveBus> {
  const listeners = new Listeners();
  const publisher = createClient({ url });
  const subscriber = publisher.duplicate();
  for (const client of [publisher, subscriber]) {
    client.on("error", (error) => logger.warn({ err: error }, "redis error (live rooms)"));
  }
  await Promise.all([publisher.connect(), subscriber.connect()]);
  await subscriber.subscribe(REDIS_CHANNEL, (payload) => listeners.deliverText(payload));
  return textBus({
    kind: "redis",
    listeners,
    send: (text) => publisher.publish(REDIS_CHANNEL, text),
    close: () => Promise.allSettled([subscriber.quit(), publisher.quit()]),
  });
}

export async function connectPostgresBus(url: string): Promise<LiveBus> {
  const listeners = new Listeners();
  // Its own small pool: LISTEN holds a connection for as long as the process lives (postgres.js re-listens after
  // a dropped connection by itself).
  const sql = postgres(url, { max: 2, onnotice: () => {} });
  await sql.listen(POSTGRES_CHANNEL, (payload) => listeners.deliverText(payload));
  return textBus({
    kind: "postgres",
    listeners,
    send: (text) => sql.notify(POSTGRES_CHANNEL, text),
    close: () => sql.end({ timeout: 2 }),
  });
}

export function processBus(): LiveBus {
  const listeners = new Listeners();
  return {
    kind: "process",
    async publish(signal) {
      // Later, like the other transports: a publisher never runs its readers inside its own call.
      setImmediate(() => listeners.deliver(signal));
    },
    subscribe: (listener) => listeners.add(listener),
    async close() {},
  };
}

const globalForLive = globalThis as unknown as { glassboxLiveBus?: Promise<LiveBus> };

/**
 * The process's bus, connected on first use. When Redis or Postgres cannot be reached, the failure is logged and
 * the next call tries again (the events stay stored, so readers catch up once signals flow).
 */
export function liveBus(): Promise<LiveBus> {
  globalForLive.glassboxLiveBus ??= connectFromEnvironment().then(
    (bus) => {
      onShutdown(`live bus (${bus.kind})`, () => bus.close());
      return bus;
    },
    (error: unknown) => {
      globalForLive.glassboxLiveBus = undefined;
      throw error;
    },
  );
  return globalForLive.glassboxLiveBus;
}

/** The transport the environment picks: Redis when REDIS_URL is set, else Postgres, else (PGlite) the process. */
function transportFromEnvironment(): { kind: "redis" | "postgres"; url: string } | { kind: "process" } {
  const { REDIS_URL, DATABASE_URL } = env();
  if (REDIS_URL) return { kind: "redis", url: REDIS_URL };
  if (DATABASE_URL) return { kind: "postgres", url: DATABASE_URL };
  return { kind: "process" };
}

/**
 * With the Postgres bus, the channel a stored event's own statement signals on (pg_notify in appendLiveEvent,
 * delivered when it commits: one statement instead of two); null: the publisher signals through the bus after
 * storing. The app's database is the bus's, so every instance's LISTEN hears it.
 */
export function storedEventChannel(): string | null {
  return transportFromEnvironment().kind === "postgres" ? POSTGRES_CHANNEL : null;
}

async function connectFromEnvironment(): Promise<LiveBus> {
  try {
    const transport = transportFromEnvironment();
    if (transport.kind === "redis") return await connectRedisBus(transport.url);
    if (transport.kind === "postgres") return await connectPostgresBus(transport.url);
  } catch (error) {
    logger.error({ err: error }, "could not connect the live rooms' bus");
    throw error;
  }
  return processBus();
}
