// Persists the assistant reply while it streams: at most every FLUSH_INTERVAL_MS of new text (so a server crash
// loses at most that much; longer when many replies stream at once, see flushIntervalMs), then once more with the
// final status. A failed write never blocks the ones after it, and the final one is retried, so the final status
// is written even after a database hiccup mid-stream. A reply that used tools or reasoned ends with its tool
// calls, outputs and reasoning stored as artifacts, named in the message's parts between the text written around
// them, so later turns replay them; every part keeps what the provider attached to it
// (docs/features.md#reasoning-and-provider-metadata).

import "server-only";
import { getErrorMessage } from "@ai-sdk/provider";
import { ulid } from "ulid";
import type { Database } from "@/db/client";
import type { LiveEventInput } from "@/db/live-event-queries";
import { type FinishedTurn, finishReplyWithArtifacts, updateMessage } from "@/db/message-queries";
import type { Message } from "@/db/schema";
import { runningTurnCount } from "@/lib/chat/turn-control/turn-stops";
import { type ReasoningView, reasoningView } from "@/lib/chat/views/reasoning-view";
import { mergeProviderMetadata } from "@/lib/context/messages";
import type { ProviderMetadata, StoredPart } from "@/lib/domain/types";
import { publishStoredMessage, writeWithLiveEvent } from "@/lib/live/publish";
import { logger } from "@/lib/logger";

export const FLUSH_INTERVAL_MS = 500;
/**
 * Under load the interval grows, so that all the replies this process streams at once are written about this many
 * times a second in all: 200 replies at once are each written every 2 s, not every 500 ms (at 400 writes a second,
 * each with its live event, they would take most of the database's and this process's time).
 */
const STREAMING_WRITES_PER_SECOND = 100;
/** The longest interval, however many replies stream: what a crash may lose of each. */
const MAX_FLUSH_INTERVAL_MS = 5_000;

/** How long a streaming reply goes between writes when `runningTurns` turns run in this process. */
export function flushIntervalMs(runningTurns = runningTurnCount()): number {
  const share = (runningTurns * 1_000) / STREAMING_WRITES_PER_SECOND;
  return Math.min(MAX_FLUSH_INTERVAL_MS, Math.max(FLUSH_INTERVAL_MS, share));
}

/** Waits between tries of the final write (a short database outage should not leave the reply `streaming`). */
const FINAL_WRITE_RETRY_DELAYS_MS = [100, 500, 2_000];

interface ReplyArtifact {
  id: string;
  type: "function_call" | "function_call_output" | "reasoning";
  payload: Record<string, unknown>;
}

type ReplyPiece =
  | { kind: "text"; text: string; providerMetadata?: ProviderMetadata }
  | { kind: "artifact"; artifact: ReplyArtifact };

/** The provider metadata of a stream part, when it carries any. */
type Tagged = ProviderMetadata | undefined;

/** What the stream says about a tool's result besides its value. */
export interface ToolResultSource {
  providerMetadata?: Tagged;
  /** The provider ran the tool (its call and result belong to the model's own turn). */
  providerExecuted?: boolean;
  /** The provider of the model that made the call. */
  provider?: string;
}

export class ReplyPersistence {
  private text = "";
  /** The reply in order: text pieces and the artifacts between them. */
  private pieces: ReplyPiece[] = [];
  /** The reasoning blocks still streaming, by the stream's block id. */
  private openReasoning = new Map<string, ReplyArtifact>();
  /** The tool-loop step (model call) being written, from 0 (docs/features.md#tools). */
  private step = 0;
  /** Model calls started so far, when the stream says (`stepStarted`). */
  private stepsStarted = 0;
  /**
   * Without step starts, the step is worked out: the app's tools run once the model's call has ended, so the model's
   * next words after their outputs belong to the next step.
   */
  private afterClientOutput = false;
  private flushedLength = 0;
  private lastFlushAt = Date.now();
  /** Writes asked for so far: once there is one, the row as inserted is not worth a live event. */
  private writesAsked = 0;
  private pending: Promise<void>;
  /** The reply's row as last stored: what the next write's live event is made from, with its new parts. */
  private row: Message | undefined;

  /**
   * `rowReady` resolves with the reply's row once it is inserted: writes wait for it, so the row can be inserted
   * while the model call is already under way, and readers see the row as inserted unless a write came first. Each
   * write returns the row it stored and the live event is made from that row, asked for before the next write
   * starts: the reply's events are in write order and none re-reads it (docs/features.md, "Live rooms").
   */
  constructor(
    private readonly db: Database,
    private readonly conversationId: string,
    private readonly messageId: string,
    rowReady: Promise<Message>,
  ) {
    this.pending = rowReady.then(
      (inserted) => {
        this.row = inserted;
        if (this.writesAsked === 0) void publishStoredMessage({ db, message: inserted });
      },
      () => {},
    );
  }

  get currentText(): string {
    return this.text;
  }

  /** Append streamed text; writes to the database when enough time has passed since the last write. */
  append(delta: string): void {
    this.modelSpeaks();
    this.text += delta;
    const last = this.pieces.at(-1);
    if (last?.kind === "text") last.text += delta;
    else this.pieces.push({ kind: "text", text: delta });
    if (Date.now() - this.lastFlushAt >= flushIntervalMs()) this.flush("streaming");
  }

  /**
   * What the provider attached to the text being written (an item id, a signature): kept with the current text
   * piece, or with the piece that starts next when the last one is not text.
   */
  tagText(providerMetadata: Tagged): void {
    if (providerMetadata === undefined || Object.keys(providerMetadata).length === 0) return;
    this.modelSpeaks();
    const last = this.pieces.at(-1);
    if (last?.kind === "text")
      last.providerMetadata = mergeProviderMetadata(last.providerMetadata, providerMetadata);
    else this.pieces.push({ kind: "text", text: "", providerMetadata });
  }

  /** A tool call the model made; the text after it is a new piece. */
  toolCall(callId: string, name: string, input: unknown, providerMetadata?: Tagged): void {
    this.modelSpeaks();
    this.addArtifact(
      "function_call",
      withMetadata(
        { callId, name, arguments: JSON.stringify(input ?? {}), step: this.step },
        providerMetadata,
      ),
    );
  }

  /**
   * A tool's output. A provider-run tool's result is part of the model's turn, and marks its call as run by the
   * provider too (the call's stream part came first); a JSON output keeps its exact text as well (jsonb does not
   * keep key order, and the next turn sends back the bytes the tool loop sent).
   */
  toolOutput(callId: string, name: string, output: unknown, source: ToolResultSource = {}): void {
    const payload: Record<string, unknown> = { callId, name, output };
    // As the SDK sends it: anything but a string as JSON, nothing at all as null.
    if (typeof output !== "string") payload.outputJson = JSON.stringify(output) ?? "null";
    this.addToolResult(payload, source);
  }

  /**
   * A tool's error, stored as the output the tool loop gave the model: the SDK's `error-text` (the error's message)
   * for the app's tools, `error-json` for a provider-run tool's.
   */
  toolError(callId: string, name: string, error: unknown, source: ToolResultSource = {}): void {
    if (source.providerExecuted === true) {
      const value = JSON.parse(JSON.stringify(error ?? null) ?? "null") as unknown;
      this.addToolResult(
        { callId, name, output: value, outputJson: JSON.stringify(value), outputType: "error-json" },
        source,
      );
    } else
      this.addToolResult({ callId, name, output: getErrorMessage(error), outputType: "error-text" }, source);
  }

  private addToolResult(payload: Record<string, unknown>, source: ToolResultSource): void {
    if (source.providerExecuted === true) {
      this.modelSpeaks();
      const executedBy = source.provider === undefined ? {} : { executedBy: source.provider };
      Object.assign(payload, { providerExecuted: true }, executedBy);
      const call = this.pieces.find(
        (piece) =>
          piece.kind === "artifact" &&
          piece.artifact.type === "function_call" &&
          piece.artifact.payload.callId === payload.callId,
      );
      if (call?.kind === "artifact")
        Object.assign(call.artifact.payload, { providerExecuted: true }, executedBy);
    } else this.afterClientOutput = true;
    payload.step = this.step;
    this.addArtifact("function_call_output", withMetadata(payload, source.providerMetadata));
  }

  /**
   * The tool loop starts a model call. The step's end cannot be told from the parts alone: the SDK answers an
   * invalid call (an unknown tool, input that fails its schema) with an error at once, while the model still writes.
   */
  stepStarted(): void {
    if (this.stepsStarted++ > 0) this.step++;
    this.afterClientOutput = false;
  }

  /** The model writes (text, reasoning, a call): after the app's tool outputs, that is the next step. */
  private modelSpeaks(): void {
    if (this.stepsStarted > 0 || !this.afterClientOutput) return;
    this.afterClientOutput = false;
    this.step++;
  }

  /** The reply's reasoning so far, as the chat shows it. */
  reasoning(): ReasoningView | null {
    return reasoningView(
      this.pieces.flatMap((piece) =>
        piece.kind === "artifact" && piece.artifact.type === "reasoning" ? [piece.artifact.payload] : [],
      ),
    );
  }

  /** A reasoning block opens (`id` is the stream's block id): it takes its place in the reply now. */
  reasoningStart(id: string, providerMetadata?: Tagged): void {
    this.modelSpeaks();
    const artifact = this.addArtifact(
      "reasoning",
      withMetadata({ text: "", startedAt: new Date().toISOString() }, providerMetadata),
    );
    this.openReasoning.set(id, artifact);
  }

  /** Reasoning text (a summary or the thoughts), and what the provider attached to it. */
  reasoningDelta(id: string, delta: string, providerMetadata?: Tagged): void {
    const artifact = this.openReasoning.get(id) ?? this.reopenReasoning(id);
    artifact.payload.text = `${artifact.payload.text as string}${delta}`;
    tagPayload(artifact.payload, providerMetadata);
  }

  /** The block ends: its end time, and the metadata the provider gave last (OpenAI's final encrypted content). */
  reasoningEnd(id: string, providerMetadata?: Tagged): void {
    const artifact = this.openReasoning.get(id) ?? this.reopenReasoning(id);
    tagPayload(artifact.payload, providerMetadata);
    artifact.payload.endedAt = new Date().toISOString();
    this.openReasoning.delete(id);
  }

  /** A delta or end for a block never opened (a provider that skips the start): opened here. */
  private reopenReasoning(id: string): ReplyArtifact {
    this.reasoningStart(id);
    return this.openReasoning.get(id) as ReplyArtifact;
  }

  private addArtifact(type: ReplyArtifact["type"], payload: Record<string, unknown>): ReplyArtifact {
    const artifact = { id: ulid(), type, payload };
    this.pieces.push({ kind: "artifact", artifact });
    return artifact;
  }

  /** Drop what a failed attempt streamed: it never reached the user's screen as a final reply. */
  reset(): void {
    this.text = "";
    this.pieces = [];
    this.openReasoning.clear();
    this.step = 0;
    this.stepsStarted = 0;
    this.afterClientOutput = false;
  }

  /**
   * Keep only the first `chars` characters of the reply's text (what the user saw when they pressed Stop) and the
   * tool calls made before that point.
   */
  truncateText(chars: number): void {
    if (chars >= this.text.length) return;
    let left = Math.max(0, chars);
    const kept: typeof this.pieces = [];
    for (const piece of this.pieces) {
      // Past the cut, nothing was seen: neither text nor the tool calls made after the last character shown.
      if (left === 0) break;
      if (piece.kind === "artifact") {
        kept.push(piece);
        continue;
      }
      const text = piece.text.slice(0, left);
      left -= text.length;
      kept.push({ ...piece, text });
    }
    this.pieces = kept;
    this.text = this.text.slice(0, Math.max(0, chars));
  }

  private flush(status: Message["status"], finishedTurn?: FinishedTurn): Promise<void> {
    if (status === "streaming" && this.text.length === this.flushedLength) return this.pending;
    this.writesAsked++;
    this.lastFlushAt = Date.now();
    this.flushedLength = this.text.length;
    const text = this.text;
    const artifacts = this.pieces.flatMap((piece) => (piece.kind === "artifact" ? [piece.artifact] : []));
    const parts = this.storedParts();
    /** Stores this state; resolves with the row as stored and whether its live event is already sent. */
    const write = async (): Promise<{ stored: Message | undefined; published: boolean }> => {
      // While streaming, and for a reply without tools or reasoning, the text is the message (with what the
      // provider attached to it once it is final): one statement writes it and stores its live event.
      if (status === "streaming" || artifacts.length === 0) {
        const written = status === "streaming" ? (text ? [{ type: "text" as const, text }] : []) : parts;
        const update = (liveEvent?: LiveEventInput) =>
          updateMessage({
            db: this.db,
            messageId: this.messageId,
            parts: written,
            status,
            countTokens: status !== "streaming",
            finishedTurn,
            ...(liveEvent ? { liveEvent } : {}),
          });
        const row = this.row;
        if (!row) return { stored: (await update()).stored, published: false };
        const stored = await writeWithLiveEvent({
          db: this.db,
          expected: { ...row, parts: written, status },
          write: (event) => update(event ?? undefined),
        });
        return { stored, published: true };
      }
      const stored = await finishReplyWithArtifacts({
        db: this.db,
        messageId: this.messageId,
        conversationId: this.conversationId,
        parts,
        artifacts,
        status,
        finishedTurn,
      });
      return { stored, published: false };
    };
    // Writes are chained so an older snapshot can never land after a newer one, and each one's live event is
    // asked for before the next write starts; a failed one is logged and the chain goes on (the next snapshot
    // holds everything it held).
    this.pending = this.pending
      .catch(() => {})
      .then(status === "streaming" ? write : () => withRetries(write))
      .then(({ stored, published }) => {
        if (stored) this.row = stored;
        if (stored && !published) void publishStoredMessage({ db: this.db, message: stored });
      })
      .catch((error) => {
        logger.error({ err: error, messageId: this.messageId, status }, "could not store the reply");
        if (status !== "streaming") throw error;
      });
    return this.pending;
  }

  private storedParts(): StoredPart[] {
    return this.pieces.flatMap((piece): StoredPart[] => {
      if (piece.kind === "artifact") return [{ type: "artifact", artifactId: piece.artifact.id }];
      if (!piece.text) return [];
      return piece.providerMetadata
        ? [{ type: "text", text: piece.text, providerMetadata: piece.providerMetadata }]
        : [{ type: "text", text: piece.text }];
    });
  }

  /** The final write; with `turn`, the turn's own status is written by the same statement. */
  finish(status: Exclude<Message["status"], "streaming">, turn?: FinishedTurn): Promise<void> {
    return this.flush(status, turn);
  }
}

/** The payload with the provider's metadata, when there is any. */
function withMetadata(payload: Record<string, unknown>, providerMetadata: Tagged): Record<string, unknown> {
  tagPayload(payload, providerMetadata);
  return payload;
}

/** Merge more of the provider's metadata into a stored payload (a later value of a field wins). */
function tagPayload(payload: Record<string, unknown>, providerMetadata: Tagged): void {
  if (providerMetadata === undefined || Object.keys(providerMetadata).length === 0) return;
  payload.providerMetadata = mergeProviderMetadata(
    payload.providerMetadata as ProviderMetadata | undefined,
    providerMetadata,
  );
}

async function withRetries<Result>(write: () => Promise<Result>): Promise<Result> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      const delay = FINAL_WRITE_RETRY_DELAYS_MS[attempt];
      if (delay === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
