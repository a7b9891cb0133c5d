// Persists the assistant reply while it streams: at most every FLUSH_INTERVAL_MS of new text (so a server crash
// loses at most that much), then once more with the final status.

import type { Database } from "@/db/client";
import { updateMessage } from "@/db/queries";
import type { Message } from "@/db/schema";

export const FLUSH_INTERVAL_MS = 500;

export class ReplyPersistence {
  private text = "";
  private flushedLength = 0;
  private lastFlushAt = Date.now();
  private pending: Promise<void>;

  /** `rowReady` resolves once the message row exists: writes wait for it, so the row can be inserted while the
   *  model call is already under way. */
  constructor(
    private readonly db: Database,
    private readonly messageId: string,
    rowReady: Promise<void> = Promise.resolve(),
  ) {
    this.pending = rowReady;
  }

  get currentText(): string {
    return this.text;
  }

  /** Append streamed text; writes to the database when enough time has passed since the last write. */
  append(delta: string): void {
    this.text += delta;
    if (Date.now() - this.lastFlushAt >= FLUSH_INTERVAL_MS) this.flush("streaming");
  }

  /** Drop text of a failed attempt that never reached the user's screen as a final reply. */
  reset(): void {
    this.text = "";
  }

  private flush(status: Message["status"]): Promise<void> {
    if (status === "streaming" && this.text.length === this.flushedLength) return this.pending;
    this.lastFlushAt = Date.now();
    this.flushedLength = this.text.length;
    const text = this.text;
    // Writes are chained so an older snapshot can never land after a newer one.
    this.pending = this.pending.then(() =>
      updateMessage({
        db: this.db,
        messageId: this.messageId,
        parts: text ? [{ type: "text", text }] : [],
        status,
        countTokens: status !== "streaming",
      }),
    );
    return this.pending;
  }

  finish(status: Exclude<Message["status"], "streaming">): Promise<void> {
    return this.flush(status);
  }
}
