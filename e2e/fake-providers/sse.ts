// Server-sent-event framing. OpenAI separates events with "\n\n"; Gemini with "\r\n\r\n".

export function sseData(payload: unknown, separator = "\n\n"): string {
  return `data: ${typeof payload === "string" ? payload : JSON.stringify(payload)}${separator}`;
}

export function sseEvent(event: string, payload: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
}
