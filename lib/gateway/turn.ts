// A gateway call runs as a chat turn, through the same runner (lib/chat/turn/run-turn.ts): the user's message is stored,
// the persona's pipeline builds the payload from the stored conversation, the attempts are recorded. Only the
// reply's writer differs: it hands the reply on as text, the model's calls of the client's tools, and an end, which
// the OpenAI shapes are made from. This is the gateway's one door into lib/chat.

import "server-only";
import type { Database } from "@/db/client";
import type { TurnSnapshot } from "@/db/turn-snapshot-queries";
import type { SessionUser } from "@/lib/api/route";
import type { AttemptEvent, ReplyWriter } from "@/lib/chat/turn/reply-events";
import { runTurnWith } from "@/lib/chat/turn/run-turn";
import type { TurnAction } from "@/lib/chat/turn/turn-user-message";
import type { CallOptions } from "@/lib/domain/types";
import type { ClientToolCall, ClientToolOffer } from "./client-tools";

export interface ReplyEnd {
  /** The stored reply's id. */
  messageId: string;
  /** The attempt that answered, or the last one tried. */
  attemptId: string | null;
  /** What went wrong when no attempt answered. */
  errorText: string | null;
  finishReason: string | null;
  usage: { inputTokens: number; outputTokens: number } | null;
}

export type ReplyEvent =
  | { type: "text"; text: string }
  | ({ type: "tool-call" } & ClientToolCall)
  | ({ type: "end" } & ReplyEnd);

/**
 * What the turn answers: a new user message (its text and its images, stored as pending attachments), or the
 * client's tool results already stored on the reply `continueMessageId`.
 */
export type GatewayTurnInput = { text: string; attachmentIds: string[] } | { continueMessageId: string };

/** The reply as it comes: its text pieces, then its end. */
export class GatewayReply implements AsyncIterable<ReplyEvent> {
  messageId = "";
  attemptId: string | null = null;
  /** Server time from the call's arrival to its answering attempt's provider request. */
  overheadMs: number | null = null;
  /** Resolves once the first text has come or the reply has ended: the response's headers are known then. */
  readonly ready: Promise<void>;
  private markReady!: () => void;
  private readonly queue: ReplyEvent[] = [];
  private wake: (() => void) | null = null;
  private attemptStartedAt: number | null = null;
  private providerRequestAt: number | null = null;
  private errorText: string | null = null;
  private finishReason: string | null = null;
  private usage: ReplyEnd["usage"] = null;
  private textStarted = false;

  /** `clientToolNames`: the client's own tools; the model's calls of them are handed on. */
  constructor(
    private readonly arrivedAt: number,
    private readonly clientToolNames: ReadonlySet<string> = new Set(),
  ) {
    this.ready = new Promise((resolve) => {
      this.markReady = resolve;
    });
  }

  readonly writer: ReplyWriter = {
    write: (chunk) => {
      if (chunk.type === "start" && chunk.messageId) this.messageId = chunk.messageId;
      else if (chunk.type === "text-delta") {
        if (!this.textStarted) {
          this.textStarted = true;
          this.settleOverhead();
          this.markReady();
        }
        this.push({ type: "text", text: chunk.delta });
      } else if (chunk.type === "error") this.errorText = chunk.errorText;
    },
    toolCall: ({ toolCallId, toolName, input }) => {
      if (!this.clientToolNames.has(toolName)) return;
      if (!this.textStarted) {
        this.textStarted = true;
        this.settleOverhead();
        this.markReady();
      }
      // As the stored call has them (reply-persistence.ts), so the client sends back what is stored.
      this.push({
        type: "tool-call",
        id: toolCallId,
        name: toolName,
        arguments: JSON.stringify(input ?? {}),
      });
    },
    attempt: (event: AttemptEvent) => {
      if (event.kind === "start") {
        this.attemptId = event.attemptId;
        this.attemptStartedAt = performance.now();
        this.providerRequestAt = null;
      } else if (event.kind === "request") this.providerRequestAt = performance.now();
      else if (event.kind === "end" && event.status === "ok") {
        this.finishReason = event.finishReason;
        this.usage = {
          inputTokens: event.usage?.inputTokens ?? 0,
          outputTokens: event.usage?.outputTokens ?? 0,
        };
      }
    },
  };

  /** The reply has been written (or failed): its end goes last. */
  close(): void {
    if (!this.textStarted) this.settleOverhead();
    this.push({
      type: "end",
      messageId: this.messageId,
      attemptId: this.attemptId,
      errorText: this.errorText,
      finishReason: this.finishReason,
      usage: this.usage,
    });
    this.markReady();
  }

  private settleOverhead() {
    // The offline model sends no request: its attempt's start stands in for it.
    const sentAt = this.providerRequestAt ?? this.attemptStartedAt;
    if (sentAt !== null) this.overheadMs = Math.max(0, sentAt - this.arrivedAt);
  }

  private push(event: ReplyEvent) {
    this.queue.push(event);
    this.wake?.();
    this.wake = null;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ReplyEvent> {
    for (;;) {
      const event = this.queue.shift();
      if (event) {
        yield event;
        if (event.type === "end") return;
        continue;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }
}

/**
 * Runs the turn: the user's text and images (pending attachments of the conversation, as the chat's uploads are)
 * in the conversation, or the answer to the tool results just stored, with the call's options; the client's tools
 * are offered beside the persona's. The reply is being written when this resolves.
 */
export function runGatewayTurn({
  db,
  user,
  conversationId,
  input,
  callOptions,
  toolOffer,
  snapshot,
  arrivedAt,
}: {
  db: Database;
  user: SessionUser;
  conversationId: string;
  input: GatewayTurnInput;
  callOptions: CallOptions | undefined;
  toolOffer?: ClientToolOffer;
  /** The conversation as the turn reads it, read with the lookup that found it and nothing stored since. */
  snapshot?: TurnSnapshot;
  arrivedAt: number;
}): Promise<GatewayReply> {
  const action: TurnAction =
    "text" in input
      ? { kind: "submit", text: input.text, attachmentIds: input.attachmentIds, callOptions }
      : { kind: "continue", messageId: input.continueMessageId, callOptions };
  const request = { db, user, conversationId, action, clientTools: toolOffer, snapshot };
  return runTurnWith(request, async ({ write }) => {
    const reply = new GatewayReply(arrivedAt, new Set(Object.keys(toolOffer?.tools ?? {})));
    write(reply.writer)
      .catch(() => reply.writer.write({ type: "error", errorText: "The reply failed on the server." }))
      .finally(() => reply.close());
    return reply;
  });
}
