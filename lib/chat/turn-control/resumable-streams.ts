// Resumable reply streams across instances. With REDIS_URL set, a turn's UI message stream is published
// through Redis (the `resumable-stream` package) under the turn's id, so any instance can resume it for a client
// that reconnects (a reload, a dropped connection, another server behind the load balancer). Without Redis there
// is nothing to resume from: the reply is still stored as it streams, and a reload shows it so far.

import "server-only";
import { createClient } from "redis";
import {
  createResumableStreamContext,
  type Publisher,
  type ResumableStreamContext,
  type Subscriber,
} from "resumable-stream";
import { env } from "@/lib/config/env";
import { logger } from "@/lib/logger";
import { onShutdown } from "@/lib/shutdown-hooks";

const globalForStreams = globalThis as unknown as { glassboxStreams?: ResumableStreamContext | null };

/** The process's stream context, or null when REDIS_URL is not set. Created on first use. */
export function resumableStreams(): ResumableStreamContext | null {
  if (globalForStreams.glassboxStreams === undefined) {
    const url = env().REDIS_URL;
    globalForStreams.glassboxStreams = url ? createStreamContext(url) : null;
  }
  return globalForStreams.glassboxStreams;
}

/**
 * The package would create its own two clients, out of reach at shutdown; these are ours, closed with the others
 * (docs/deploy.md#graceful-shutdown). Each call waits for the connection, as the package's own clients do.
 */
function createStreamContext(url: string): ResumableStreamContext {
  const publisherClient = createClient({ url });
  const subscriberClient = publisherClient.duplicate();
  for (const client of [publisherClient, subscriberClient]) {
    client.on("error", (error) => logger.warn({ err: error }, "redis error (resumable streams)"));
  }
  const connected = Promise.all([publisherClient.connect(), subscriberClient.connect()]);
  connected.catch(() => {}); // reported by each call that needs the connection
  onShutdown("redis (resumable streams)", () =>
    Promise.allSettled([publisherClient.quit(), subscriberClient.quit()]),
  );
  const publisher: Publisher = {
    connect: () => connected,
    async publish(channel, message) {
      await connected;
      return publisherClient.publish(channel, message);
    },
    async set(key, value, options) {
      await connected;
      return publisherClient.set(key, value, options);
    },
    async get(key) {
      await connected;
      return publisherClient.get(key);
    },
    async incr(key) {
      await connected;
      return publisherClient.incr(key);
    },
  };
  const subscriber: Subscriber = {
    connect: () => connected,
    async subscribe(channel, callback) {
      await connected;
      return subscriberClient.subscribe(channel, callback);
    },
    async unsubscribe(channel) {
      await connected;
      return subscriberClient.unsubscribe(channel);
    },
  };
  // A long-running Node server: no serverless suspension to guard against, so no waitUntil.
  return createResumableStreamContext({ waitUntil: null, publisher, subscriber });
}

/** How long a resume waits for the instance writing the reply before it says there is nothing to resume. */
export const RESUME_ANSWER_MS = 3_000;

/**
 * The rest of a running reply's stream, relayed from the instance writing it; null when there is none, or when no
 * instance answers within `answerMs`. The package gives up by itself after a second, but only when more than a
 * second has passed as it checks: one that checks at exactly a second waits for ever, and so would the request.
 * A stream that comes after the deadline is cancelled (no one reads it).
 */
export async function resumeReplyStream(
  streams: Pick<ResumableStreamContext, "resumeExistingStream">,
  turnId: string,
  answerMs = RESUME_ANSWER_MS,
): Promise<ReadableStream<string> | null> {
  const resumed = streams.resumeExistingStream(turnId);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), answerMs);
  });
  try {
    const answer = await Promise.race([resumed, deadline]);
    if (answer !== "late") return answer ?? null;
    void resumed.then(
      (late) => late?.cancel(),
      () => {},
    );
    throw new Error(`no instance answered the resume within ${answerMs} ms`);
  } finally {
    clearTimeout(timer);
  }
}
