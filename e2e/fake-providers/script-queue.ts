// The queue of scripted replies. Each request takes the first queued reply whose target fits it,
// so replies aimed at different protocols or models keep their own order.
import type { ScriptedReply } from "./script-schema";
import type { Protocol } from "./types";

export interface ReplyTarget {
  protocol: Protocol;
  path: string;
  model: string | null;
}

interface QueuedReply {
  reply: ScriptedReply;
  remaining: number;
}

export class ScriptQueue {
  private queued: QueuedReply[] = [];

  push(replies: readonly ScriptedReply[]): void {
    for (const reply of replies) this.queued.push({ reply, remaining: reply.times ?? 1 });
  }

  /** Removes (or counts down) and returns the first reply that fits, or undefined when none does. */
  take(target: ReplyTarget): ScriptedReply | undefined {
    const index = this.queued.findIndex(({ reply }) => fits(reply, target));
    if (index === -1) return undefined;
    const entry = this.queued[index];
    entry.remaining -= 1;
    if (entry.remaining === 0) this.queued.splice(index, 1);
    return entry.reply;
  }

  pending(): ScriptedReply[] {
    return this.queued.map(({ reply }) => reply);
  }

  clear(): number {
    const count = this.queued.length;
    this.queued = [];
    return count;
  }
}

function fits(reply: ScriptedReply, target: ReplyTarget): boolean {
  if (reply.protocol !== undefined && reply.protocol !== target.protocol) return false;
  if (reply.match?.path !== undefined && !target.path.includes(reply.match.path)) return false;
  if (reply.match?.model !== undefined && reply.match.model !== target.model) return false;
  return true;
}
