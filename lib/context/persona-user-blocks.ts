// Phase A's persona user blocks (docs/pipeline.md#persona-user-blocks). A `block` hides the blocked user's
// turns from this persona's context: each run of their consecutive messages becomes one `[System: …]` notice, and
// replies quoting those messages lose their reply annotation. A `mute` only stops the user from triggering the
// persona (the route refuses the turn, see isMuted). Both are listed on the PERSONA_USER_BLOCKS system card,
// rebuilt every turn.

import type { ItemSender, PersonaUserBlock, StoredMessage, TraceEvent } from "@/lib/domain/types";
import type { HistoryEntry } from "./messages";
import type { CollapsedHistory, PhaseAContext, VisibleHistory } from "./phases";
import type { Stage, StageResult } from "./stage";
import { plural, traceEvent } from "./trace";

export const SYSTEM_SENDER: ItemSender = { type: "system", name: "System" };

/** Active: no expiry, or an expiry after `now`. */
export function isBlockActive(block: PersonaUserBlock, now: string): boolean {
  return block.expiresAt === null || Date.parse(block.expiresAt) > Date.parse(now);
}

/** The active blocks of one persona, in the order given. */
export function activeBlocksFor(
  blocks: readonly PersonaUserBlock[],
  personaId: string,
  now: string,
): PersonaUserBlock[] {
  return blocks.filter((block) => block.personaId === personaId && isBlockActive(block, now));
}

/**
 * True when the user may not trigger the persona: an active mute or block (a block includes a mute). Pass the
 * persona's blocks, or all blocks and `personaId` to filter.
 */
export function isMuted(args: {
  blocks: readonly PersonaUserBlock[];
  userId: string;
  now: string;
  personaId?: string;
}): boolean {
  return args.blocks.some(
    (block) =>
      block.userId === args.userId &&
      (args.personaId === undefined || block.personaId === args.personaId) &&
      isBlockActive(block, args.now),
  );
}

export function blockedRunNoticeText(userName: string, messageCount: number, personaName: string): string {
  return `[System: ${plural(messageCount, "message")} from ${userName} hidden here: ${userName} is blocked from ${personaName}.]`;
}

const EFFECT: Record<PersonaUserBlock["blockType"], (personaName: string) => string> = {
  mute: (personaName) => `cannot trigger ${personaName}; their messages stay visible`,
  block: (personaName) =>
    `cannot trigger ${personaName}, and their recent messages and media are hidden from this context`,
};

/** The PERSONA_USER_BLOCKS system card: who, type, effect, expiry and reason of each active block. */
export function personaUserBlocksCardText(blocks: readonly PersonaUserBlock[], personaName: string): string {
  const lines = [
    "# PERSONA USER BLOCKS",
    `These users are restricted from interacting with ${personaName}. A block is not deletion and not memory redaction: memories and documents about them are unchanged.`,
  ];
  for (const block of blocks) {
    const expiry = block.expiresAt === null ? "never" : block.expiresAt;
    const reason = block.reason === null || block.reason.trim() === "" ? "none given" : block.reason;
    lines.push(
      `- ${block.userName} (${block.userId}): ${block.blockType} — ${EFFECT[block.blockType](personaName)}. Expires: ${expiry}. Reason: ${reason}.`,
    );
  }
  return lines.join("\n");
}

function blockedUserOf(
  entry: HistoryEntry,
  blockedUserIds: ReadonlyMap<string, PersonaUserBlock>,
): PersonaUserBlock | null {
  if (entry.kind !== "message") return null;
  const first = entry.messages[0];
  if (first.authorType !== "user" || first.authorUserId === null) return null;
  return blockedUserIds.get(first.authorUserId) ?? null;
}

/** A shallow copy without the reply annotation: the message still shows, but no longer quotes a hidden one. */
function withoutReplyAnnotation(message: StoredMessage): StoredMessage {
  return { ...message, replyToMessageId: null, forwardedFromName: null };
}

export function applyPersonaUserBlocks(args: {
  entries: readonly HistoryEntry[];
  blocks: readonly PersonaUserBlock[];
  personaId: string;
  personaName: string;
  now: string;
  /** Blocked users' messages that are hidden but not among the entries (cut before the build, history-reach). */
  hiddenElsewhere?: ReadonlySet<string> | null;
}): StageResult<{
  entries: HistoryEntry[];
  /** The loaded message behind each copy made without its reply annotation (null when none was made). */
  originals: Map<StoredMessage, StoredMessage> | null;
}> {
  const blockedUsers = new Map<string, PersonaUserBlock>();
  for (const block of activeBlocksFor(args.blocks, args.personaId, args.now)) {
    if (block.blockType === "block") blockedUsers.set(block.userId, block);
  }
  if (blockedUsers.size === 0)
    return { value: { entries: args.entries.slice(), originals: null }, trace: [] };
  let originals: Map<StoredMessage, StoredMessage> | null = null;

  const trace: TraceEvent[] = [];
  const entries: HistoryEntry[] = [];
  const hiddenMessageIds = new Set<string>();
  let index = 0;
  while (index < args.entries.length) {
    const entry = args.entries[index];
    if (entry === undefined) break;
    const block = blockedUserOf(entry, blockedUsers);
    if (block === null) {
      entries.push(entry);
      index++;
      continue;
    }
    // A run: consecutive entries by the same blocked user become one notice.
    const sourceMessageIds: string[] = [];
    for (let next = args.entries[index]; next !== undefined; next = args.entries[index]) {
      if (blockedUserOf(next, blockedUsers)?.userId !== block.userId || next.kind !== "message") break;
      for (const message of next.messages) {
        sourceMessageIds.push(message.id);
        hiddenMessageIds.add(message.id);
      }
      index++;
    }
    const id = `blocked:${sourceMessageIds[0]}`;
    entries.push({
      kind: "notice",
      id,
      text: blockedRunNoticeText(block.userName, sourceMessageIds.length, args.personaName),
      sourceMessageIds,
      sender: SYSTEM_SENDER,
    });
    trace.push(
      traceEvent(
        "blocks",
        "blocked",
        `${plural(sourceMessageIds.length, "message")} of blocked user ${block.userName} replaced by a notice`,
        {
          itemIds: [id],
          messageIds: sourceMessageIds,
          counts: { messages: sourceMessageIds.length },
          details: { userId: block.userId },
        },
      ),
    );
  }

  // Replies and forwards quoting a hidden message lose the annotation (a second pass: a reply may come first).
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (entry?.kind !== "message") continue;
    const message = entry.messages[0];
    if (
      entry.messages.length !== 1 ||
      message.replyToMessageId === null ||
      !(hiddenMessageIds.has(message.replyToMessageId) || args.hiddenElsewhere?.has(message.replyToMessageId))
    )
      continue;
    const copy = withoutReplyAnnotation(message);
    originals ??= new Map();
    originals.set(copy, message);
    entries[i] = { kind: "message", messages: [copy] };
    trace.push(
      traceEvent(
        "blocks",
        "dropped-reply-annotation",
        `the reply quotes a hidden message of a blocked user`,
        {
          itemIds: [`msg:${message.id}`],
          messageIds: [message.id, message.replyToMessageId],
        },
      ),
    );
  }
  return { value: { entries, originals }, trace };
}

/** Phase A: blocked users' turns become notices; muted users' turns are left out. */
export const blocksStage: Stage<CollapsedHistory, VisibleHistory, PhaseAContext> = {
  name: "blocks",
  run({ loaded, entries, hiddenMessageIds }, { input }) {
    const blocked = applyPersonaUserBlocks({
      entries,
      blocks: input.blocks,
      personaId: input.persona.id,
      personaName: input.persona.name,
      now: input.now,
      hiddenElsewhere: hiddenMessageIds,
    });
    return {
      value: { loaded, ...blocked.value },
      trace: blocked.trace,
    };
  },
};
