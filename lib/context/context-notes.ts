// Phase A's context notes (docs/pipeline.md#context-notes): an "author's note" placed at a depth. The persona's and
// the conversation's notes stack (persona first); the global note is used only when neither exists. Each note
// goes before the history message at `target = max(0, n − depth)`, n counting history messages (a message's tool
// calls and outputs move with it, so a note never splits a call from its output): depth ≥ n puts it at the top,
// depth 0 at the end. It is sent as `[System: note]` with the configured role, once per build, on the turns
// `frequency` selects.

import type { ResolvedSettings } from "@/lib/domain/settings";
import type { ContextItem, ItemRole } from "@/lib/domain/types";
import { elementAt } from "./indexing";
import type { HistoryItems, PhaseAContext } from "./phases";
import type { Stage, StageResult } from "./stage";
import { traceEvent } from "./trace";

export type NoteSource = "persona" | "conversation" | "global";

export interface ActiveNote {
  id: `note:${NoteSource}`;
  source: NoteSource;
  text: string;
}

function usable(text: string | null | undefined): text is string {
  return typeof text === "string" && text.trim() !== "";
}

/** The notes of this build: persona then conversation (stacked); the global one only when neither exists. */
export function activeContextNotes(args: {
  personaNote?: string | null;
  conversationNote?: string | null;
  globalNote?: string | null;
}): ActiveNote[] {
  const notes: ActiveNote[] = [];
  if (usable(args.personaNote))
    notes.push({ id: "note:persona", source: "persona", text: args.personaNote.trim() });
  if (usable(args.conversationNote) && args.conversationNote.trim() !== notes[0]?.text) {
    notes.push({ id: "note:conversation", source: "conversation", text: args.conversationNote.trim() });
  }
  if (notes.length === 0 && usable(args.globalNote))
    notes.push({ id: "note:global", source: "global", text: args.globalNote.trim() });
  return notes;
}

/**
 * Frequency: 0 never; N injects on every Nth user turn (turns N, 2N, …), so 1 is every turn.
 * `userTurnNumber` counts user turns so far including the current one.
 */
export function noteIsDue(frequency: number, userTurnNumber: number): boolean {
  return frequency > 0 && userTurnNumber % frequency === 0;
}

export function contextNoteText(text: string): string {
  return `[System: ${text}]`;
}

/** Items from one stored message (and its tool items) form one group: the key they share. */
function groupKey(item: ContextItem): string {
  return item.sourceMessageIds[0] ?? item.id;
}

function startsGroup(items: readonly ContextItem[], index: number): boolean {
  if (index === 0) return true;
  const item = items[index];
  const previous = items[index - 1];
  return item === undefined || previous === undefined || groupKey(item) !== groupKey(previous);
}

/** How many history messages (groups) there are; counted without keeping where each starts. */
function countMessageGroups(items: readonly ContextItem[]): number {
  let count = 0;
  for (let i = 0; i < items.length; i++) if (startsGroup(items, i)) count++;
  return count;
}

/** Where the group `fromEnd` groups before the end starts (1: the last group), walking back from the end. */
function groupStartFromEnd(items: readonly ContextItem[], fromEnd: number): number {
  let seen = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    if (startsGroup(items, i) && ++seen === fromEnd) return i;
  }
  return 0;
}

export function injectContextNotes(args: {
  items: readonly ContextItem[];
  notes: readonly ActiveNote[];
  settings: ResolvedSettings["contextNote"];
  userTurnNumber: number;
  /** For readable trace reasons ("before message #812"); optional. Anything with a `get` by message id. */
  messagesById?: { get(messageId: string): { seq: number } | undefined };
}): StageResult<ContextItem[]> {
  const { notes, settings } = args;
  if (notes.length === 0) return { value: args.items as ContextItem[], trace: [] };
  if (!noteIsDue(settings.frequency, args.userTurnNumber)) {
    const why =
      settings.frequency === 0
        ? "frequency 0 (never)"
        : `frequency ${settings.frequency}: user turn ${args.userTurnNumber} is not a multiple`;
    return {
      value: args.items as ContextItem[],
      trace: [
        traceEvent("notes", "skipped-note", `context note not injected this turn, ${why}`, {
          details: { notes: notes.map((note) => note.id) },
        }),
      ],
    };
  }

  const messageCount = countMessageGroups(args.items);
  const target = Math.max(0, messageCount - settings.depth);
  const insertAt =
    target === messageCount ? args.items.length : groupStartFromEnd(args.items, messageCount - target);
  const role: ItemRole = settings.role;
  const noteItems: ContextItem[] = notes.map((note) => ({
    id: note.id,
    role,
    tag: "CONTEXT_NOTE",
    parts: [{ type: "text", text: contextNoteText(note.text) }],
    sourceMessageIds: [],
    tokens: 0,
  }));
  const items = args.items.slice(0, insertAt).concat(noteItems, args.items.slice(insertAt));

  let where: string;
  if (insertAt === args.items.length)
    where = messageCount === 0 ? "into an empty history" : "at the end of the history";
  else {
    const before = elementAt(args.items, insertAt);
    const seq =
      before.sourceMessageIds[0] === undefined
        ? undefined
        : args.messagesById?.get(before.sourceMessageIds[0])?.seq;
    where = `before ${seq === undefined ? before.id : `message #${seq}`}${target === 0 ? " (the top)" : ""}`;
  }
  // Each note item has its note's id.
  const trace = notes.map((note) =>
    traceEvent("notes", "injected-note", `injected ${note.source} note at depth ${settings.depth} ${where}`, {
      itemIds: [note.id],
      counts: { depth: settings.depth, target, messages: messageCount },
    }),
  );
  return { value: items, trace };
}

/** Phase A: the active context notes injected at their depth, when due this turn. */
export const notesStage: Stage<HistoryItems, HistoryItems, PhaseAContext> = {
  name: "notes",
  run({ items, current }, { input, settings, messagesById }) {
    const notes = activeContextNotes({
      personaNote: input.personaNote,
      conversationNote: input.conversationNote,
      globalNote: settings.contextNote.text,
    });
    const noted = injectContextNotes({
      items,
      notes,
      settings: settings.contextNote,
      userTurnNumber: input.userTurnNumber,
      messagesById,
    });
    return { value: { items: noted.value, current }, trace: noted.trace };
  },
};
