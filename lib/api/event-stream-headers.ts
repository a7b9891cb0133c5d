// The headers of every Server-Sent Events response the app sends itself (a live room's events, a gateway call's
// stream); a chat reply's stream has the AI SDK's (lib/chat/turn/reply-events.ts), with the same no-transform.

export const EVENT_STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  // no-transform: `next start` gzips a response whose client accepts it, which for a stream means a compressor
  // kept per stream and flushed on every event; a proxy that compresses would hold events back to fill its buffer.
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  // nginx in front of the instances (docs/deploy.md) passes each event on as it comes.
  "x-accel-buffering": "no",
};
