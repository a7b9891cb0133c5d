// Reading a UI message stream (the chat route's SSE body) in end-to-end specs that call the API directly.

/** The text a UI message stream carried, from its text-delta chunks, and whether it finished. */
export function readSse(body: string): { text: string; finished: boolean } {
  let text = "";
  let finished = false;
  for (const line of body.split("\n")) {
    if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
    const chunk = JSON.parse(line.slice("data: ".length)) as { type: string; delta?: string };
    if (chunk.type === "text-delta") text += chunk.delta ?? "";
    if (chunk.type === "finish") finished = true;
  }
  return { text, finished };
}
