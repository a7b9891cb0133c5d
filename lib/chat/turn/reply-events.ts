// A turn's reply as the browser reads it: the AI SDK's UI message stream protocol, one `data: <chunk as JSON>`
// event per chunk and `data: [DONE]` at the end (served with REPLY_STREAM_HEADERS, the SDK's own), written
// straight into one stream. The SDK's own path (createUIMessageStream, then a TransformStream that injects the
// message id, one for the SSE framing and one for the bytes) is three more stream stages for every chunk, and
// under a burst of turns those stages were a measured share of the server's time (docs/features.md, "The
// turn's own cost"). The bytes are the same.

import "server-only";
import { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from "ai";
import { logger } from "@/lib/logger";

/**
 * The SDK's UI message stream headers, with `no-transform`: `next start` would otherwise gzip every reply stream,
 * keeping a compressor per stream and flushing it on every chunk (lib/api/event-stream-headers.ts says the same).
 */
export const REPLY_STREAM_HEADERS = {
  ...UI_MESSAGE_STREAM_HEADERS,
  "cache-control": "no-cache, no-transform",
};

/** Where a reply writes its chunks. Once the browser has gone, writes are dropped and the generation goes on. */
export interface ReplyWriter {
  write(chunk: UIMessageChunk): void;
  /** For a writer that reports on attempts (the gateway's): one was sent to its provider, or ended. */
  attempt?(event: AttemptEvent): void;
  /** For a writer that hands the model's tool calls on (the gateway's): the model called a tool. */
  toolCall?(call: { toolCallId: string; toolName: string; input: unknown }): void;
}

/**
 * An attempt of the reply: it started, its first request left for the provider (the offline model sends none), or
 * it ended (with its usage when the provider said).
 */
export type AttemptEvent =
  | { kind: "start" | "request"; attemptId: string; modelId: string }
  | {
      kind: "end";
      attemptId: string;
      status: "ok" | "error" | "stopped";
      finishReason: string | null;
      usage: { inputTokens?: number; outputTokens?: number } | null;
    };

/** Writes the reply's chunks; the stream ends once it resolves (or fails: then with an error chunk). */
export type WriteReply = (writer: ReplyWriter) => Promise<void>;

const encoder = new TextEncoder();

/** The reply's events as bytes, for the response itself. `write` starts at once. */
export function replyEventBytes(write: WriteReply): ReadableStream<Uint8Array> {
  return replyEvents(write, (text) => encoder.encode(text));
}

/** The reply's events as text, for a store that keeps them (resumable streams). `write` starts at once. */
export function replyEventText(write: WriteReply): ReadableStream<string> {
  return replyEvents(write, (text) => text);
}

function replyEvents<Output>(write: WriteReply, toOutput: (text: string) => Output): ReadableStream<Output> {
  let controller: ReadableStreamDefaultController<Output> | null = null;
  let open = true;
  const send = (text: string) => {
    if (!open || !controller) return;
    try {
      controller.enqueue(toOutput(text));
    } catch {
      open = false;
    }
  };
  const stream = new ReadableStream<Output>({
    start(streamController) {
      controller = streamController;
    },
    cancel() {
      open = false;
    },
  });
  const writer: ReplyWriter = { write: (chunk) => send(`data: ${JSON.stringify(chunk)}\n\n`) };
  write(writer)
    .catch((error: unknown) => {
      logger.error({ err: error }, "a reply's stream failed");
      writer.write({ type: "error", errorText: "The reply failed on the server." });
    })
    .finally(() => {
      send("data: [DONE]\n\n");
      if (!open) return;
      open = false;
      try {
        controller?.close();
      } catch {
        // The reader cancelled at the same moment.
      }
    });
  return stream;
}

/**
 * A stream of text as bytes, for a response: each piece encoded as it is read. Does what `pipeThrough(new
 * TextEncoderStream())` does without a TransformStream's writable side and its promise per chunk (a reply's
 * stream is read chunk by chunk, so that cost is paid on every one). As the TextEncoderStream does, a piece that
 * ends in the first half of a surrogate pair keeps it for the next piece.
 */
export function encodedText(text: ReadableStream<string>): ReadableStream<Uint8Array> {
  const reader = text.getReader();
  let heldBack = "";
  return new ReadableStream<Uint8Array>({
    // Reads until it has bytes to give: a pull that enqueued nothing would leave the reader waiting.
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          if (heldBack) controller.enqueue(encoder.encode(heldBack));
          controller.close();
          return;
        }
        let piece = heldBack + value;
        heldBack = "";
        const last = piece.charCodeAt(piece.length - 1);
        if (last >= 0xd800 && last <= 0xdbff) {
          heldBack = piece.slice(-1);
          piece = piece.slice(0, -1);
        }
        if (piece) {
          controller.enqueue(encoder.encode(piece));
          return;
        }
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
