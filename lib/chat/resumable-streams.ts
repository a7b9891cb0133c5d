// Resumable reply streams across instances. With REDIS_URL set, a turn's UI message stream is published
// through Redis (the `resumable-stream` package) under the turn's id, so any instance can resume it for a client
// that reconnects (a reload, a dropped connection, another server behind the load balancer). Without Redis there
// is nothing to resume from: the reply is still stored as it streams, and a reload shows it so far.

import "server-only";
import { createResumableStreamContext, type ResumableStreamContext } from "resumable-stream";
import { env } from "@/lib/env";

const globalForStreams = globalThis as unknown as { glassboxStreams?: ResumableStreamContext | null };

/** The process's stream context, or null when REDIS_URL is not set. Created on first use. */
export function resumableStreams(): ResumableStreamContext | null {
  if (globalForStreams.glassboxStreams === undefined) {
    // A long-running Node server: no serverless suspension to guard against, so no waitUntil.
    globalForStreams.glassboxStreams = env().REDIS_URL
      ? createResumableStreamContext({ waitUntil: null })
      : null;
  }
  return globalForStreams.glassboxStreams;
}
