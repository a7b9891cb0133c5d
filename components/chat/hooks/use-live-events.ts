"use client";
// One EventSource on /api/conversations/:id/events, resumed from the last event id after any break: the browser
// reconnects by itself after a dropped connection; after a refusal it gives up, so it is reopened here, later each
// time. Each event goes to `onEvent` (the latest one given); a malformed event is skipped.
import { useEffect, useRef, useState } from "react";
import type { LiveEvent } from "@/lib/live/events";

/** Waits before reopening a stream the server refused or ended with an error, doubling up to the last. */
const REOPEN_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

/** Whether the stream is open now. */
export function useLiveEvents(
  conversationId: string,
  /** The last event id when the page's transcript was read: the stream starts right after it. */
  initialEventId: number,
  onEvent: (event: LiveEvent) => void,
): boolean {
  const [connected, setConnected] = useState(false);
  const lastEventId = useRef(initialEventId);
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;
  useEffect(() => {
    let source: EventSource | null = null;
    let reopenTimer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;
    const open = () => {
      source = new EventSource(`/api/conversations/${conversationId}/events?after=${lastEventId.current}`);
      source.onopen = () => {
        failures = 0;
        setConnected(true);
      };
      source.onmessage = (message: MessageEvent<string>) => {
        if (message.lastEventId) lastEventId.current = Number(message.lastEventId);
        try {
          onEventRef.current(JSON.parse(message.data) as LiveEvent);
        } catch {
          // a malformed event is skipped; the next reload shows the truth
        }
      };
      source.onerror = () => {
        setConnected(false);
        if (stopped || source?.readyState !== EventSource.CLOSED) return;
        const delay = REOPEN_DELAYS_MS[Math.min(failures++, REOPEN_DELAYS_MS.length - 1)];
        reopenTimer = setTimeout(open, delay);
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(reopenTimer);
      source?.close();
    };
  }, [conversationId]);
  return connected;
}
