// One reader's Server-Sent Events stream of a conversation (docs/features.md, "Live rooms"). It listens on the
// bus first, then sends every stored event after the reader's last id, then each new one as its signal arrives:
// whatever order signals come in, the reader gets the stored events in id order, each once. Typing notices of
// others pass straight through. A reader who is taken out of the conversation is disconnected.

import "server-only";
import type { Database } from "@/db/client";
import { getLiveEventCursor, listLiveEventsAfter } from "@/db/live-event-queries";
import { EVENT_STREAM_HEADERS } from "@/lib/api/event-stream-headers";
import { logger } from "@/lib/logger";
import { onShutdown } from "@/lib/shutdown-hooks";
import { type LiveSignal, liveBus } from "./bus";
import type { LiveEvent } from "./events";

/** A comment line this often keeps proxies and the browser from closing an idle stream. */
const KEEP_ALIVE_MS = 15_000;
/** How soon the browser reconnects after the stream ends (a restart, a dropped connection). */
const RECONNECT_MS = 1_000;
const PAGE_SIZE = 200;

export interface LiveStreamOptions {
  db: Database;
  conversationId: string;
  /** The reader: their own typing is not echoed back to them. */
  userId: string;
  /** The last event id the reader has; absent: from now on. */
  afterId?: number;
  /** false: send what is stored after `afterId` and end (a catch-up read). */
  follow: boolean;
  /** Ends the stream when the reader goes away. */
  abortSignal: AbortSignal;
  /** Whether the reader may still read the conversation (checked when the people change). */
  mayRead: () => Promise<boolean>;
}

export async function openLiveStream(options: LiveStreamOptions): Promise<Response> {
  const { db, conversationId, userId, follow, abortSignal, mayRead } = options;
  // Listening starts before the cursor is read, so an event stored in between is not missed.
  const bus = follow ? await liveBus() : null;
  const cursor = await getLiveEventCursor({ db, conversationId });
  // A reader whose id the buffer no longer reaches (or that this database never gave) reloads instead.
  const behind =
    options.afterId !== undefined &&
    (options.afterId < cursor.prunedThroughId || options.afterId > cursor.lastEventId);
  let lastSentId = options.afterId === undefined || behind ? cursor.lastEventId : options.afterId;

  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  const cleanups: (() => void)[] = [];
  const close = () => {
    if (closed) return;
    closed = true;
    for (const cleanup of cleanups) cleanup();
    try {
      controller.close();
    } catch {
      // already closed by the reader
    }
  };
  const send = (text: string) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      close();
    }
  };
  const sendEvent = (event: LiveEvent, id?: number) =>
    send(`${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(event)}\n\n`);

  // One read of the buffer at a time; a signal during a read makes it read again when done.
  let reading: Promise<void> | null = null;
  let readAgain = false;
  const readStored = (): Promise<void> => {
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = (async () => {
      do {
        readAgain = false;
        for (;;) {
          const rows = await listLiveEventsAfter({
            db,
            conversationId,
            afterId: lastSentId,
            limit: PAGE_SIZE,
          });
          for (const row of rows) {
            if (closed) return;
            sendEvent({ type: row.type, ...row.payload } as LiveEvent, row.id);
            lastSentId = row.id;
            if (row.type === "members" && !(await mayRead())) return close();
          }
          if (rows.length < PAGE_SIZE) break;
        }
      } while (readAgain && !closed);
    })()
      .catch((error: unknown) => {
        // The reader reconnects with its last id and gets the rest then.
        logger.warn({ err: error, conversationId }, "could not read live events: the stream ends");
        close();
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  };

  const stream = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
    },
    cancel: close,
  });

  send(`retry: ${RECONNECT_MS}\n\n`);
  if (behind) sendEvent({ type: "resync" }, lastSentId);
  if (!follow) {
    await readStored();
    close();
    return new Response(stream, { headers: EVENT_STREAM_HEADERS });
  }

  const onSignal = (signal: LiveSignal) => {
    if (signal.conversationId !== conversationId) return;
    if ("typing" in signal) {
      if (signal.typing.userId !== userId) sendEvent({ type: "typing", ...signal.typing });
      return;
    }
    if (signal.eventId > lastSentId) void readStored();
  };
  cleanups.push(bus?.subscribe(onSignal) ?? (() => {}));
  // At shutdown the stream ends; the page reconnects with its last id and another instance goes on from there.
  cleanups.push(onShutdown("live event stream", close, "streams"));
  const keepAlive = setInterval(() => send(": keep-alive\n\n"), KEEP_ALIVE_MS);
  cleanups.push(() => clearInterval(keepAlive));
  if (abortSignal.aborted) close();
  else abortSignal.addEventListener("abort", close, { once: true });
  void readStored();
  return new Response(stream, { headers: EVENT_STREAM_HEADERS });
}
