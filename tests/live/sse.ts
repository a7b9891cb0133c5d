// Reading Server-Sent Events in tests: the events of a finished body, and a live reader that waits for the next
// event matching a condition.
export interface SseEvent {
  id: number | null;
  data: Record<string, unknown>;
}

/** The complete events in `text` (blocks ending in a blank line), comments and `retry:` lines skipped. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split("\n\n")) {
    let id: number | null = null;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("id: ")) id = Number(line.slice(4));
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    if (data.length > 0) events.push({ id, data: JSON.parse(data.join("\n")) as Record<string, unknown> });
  }
  return events;
}

/** Follows a streaming SSE response; `next` resolves with the first unread event that matches. */
export function followSse(response: Response) {
  const reader = response.body?.getReader();
  if (!reader) throw new Error("no body");
  const decoder = new TextDecoder();
  let buffer = "";
  const received: SseEvent[] = [];
  let read = 0;
  let ended = false;
  const pull = async () => {
    const { value, done } = await reader.read();
    if (done) {
      ended = true;
      return;
    }
    buffer += decoder.decode(value, { stream: true });
    const complete = buffer.lastIndexOf("\n\n");
    if (complete < 0) return;
    received.push(...parseSse(buffer.slice(0, complete + 2)));
    buffer = buffer.slice(complete + 2);
  };
  return {
    received,
    get ended() {
      return ended;
    },
    async next(matches: (event: SseEvent) => boolean = () => true, timeoutMs = 5_000): Promise<SseEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (read < received.length) {
          const event = received[read++];
          if (matches(event)) return event;
        }
        if (ended) throw new Error("the stream ended");
        if (Date.now() > deadline) throw new Error("no matching event in time");
        await Promise.race([pull(), new Promise((resolve) => setTimeout(resolve, deadline - Date.now()))]);
      }
    },
    /** Resolves once the server has closed the stream. */
    async untilEnded(timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (!ended) {
        if (Date.now() > deadline) throw new Error("the stream did not end");
        await Promise.race([pull(), new Promise((resolve) => setTimeout(resolve, deadline - Date.now()))]);
      }
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}
