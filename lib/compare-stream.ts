// The stream of a model comparison (POST /api/chat/:id/compare), shared by the server that writes it and the page
// that reads it: the AI SDK's UI message stream events (`data: <chunk as JSON>\n\n`) of each model's turn in
// turn, each model's after a `data-compare` chunk naming it, and one `data: [DONE]` at the end.

/** How many models one comparison may run. */
export const MAX_COMPARED_MODELS = 4;

/** The chunk that opens each model's part of the stream; with `error`, that model's turn did not start. */
export interface CompareChunk {
  type: "data-compare";
  data: { index: number; modelId: string; error?: string };
}

export const DONE_EVENT = "data: [DONE]\n\n";

/** The stream's text in whole events (each ends with a blank line), as they arrive. */
export async function forEachEventText(
  body: ReadableStream<Uint8Array>,
  onEvents: (events: string) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let pending = "";
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pending += decoder.decode(value, { stream: true });
    const end = pending.lastIndexOf("\n\n");
    if (end < 0) continue;
    onEvents(pending.slice(0, end + 2));
    pending = pending.slice(end + 2);
  }
  pending += decoder.decode();
  if (pending) onEvents(pending);
}

/** The chunks of whole events' text, `[DONE]` left out. */
export function eventChunks(events: string): Record<string, unknown>[] {
  return events
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}
