import { describe, expect, it } from "vitest";
import type { ContextItem } from "@/lib/domain/types";
import { settingsWith, viewItems } from "@/tests/context/fixtures";
import { activeContextNotes, contextNoteText, injectContextNotes, noteIsDue } from "./context-notes";
import { elementAt } from "./indexing";

const message = (
  n: number,
  role: "user" | "assistant" = n % 2 === 1 ? "user" : "assistant",
): ContextItem => ({
  id: `msg:m${n}`,
  role,
  tag: "DIALOGUE_HISTORY",
  parts: [{ type: "text", text: `m${n}` }],
  sourceMessageIds: [`m${n}`],
  tokens: 0,
});
const history = (n: number) => Array.from({ length: n }, (_, index) => message(index + 1));
const seqs = new Map(
  Array.from({ length: 20 }, (_, index) => [`m${index + 1}`, { seq: index + 1 }] as const),
);

function inject(
  items: ContextItem[],
  contextNote: { depth?: number; role?: "user" | "system" | "assistant"; frequency?: number } = {},
  userTurnNumber = 1,
  notes = activeContextNotes({ personaNote: "Stay in character." }),
) {
  const settings = settingsWith({ contextNote }).contextNote;
  return injectContextNotes({ items, notes, settings, userTurnNumber, messagesById: seqs });
}
const order = (items: ContextItem[]) => items.map((item) => item.id);

describe("context notes", () => {
  it.each([
    {
      name: "default depth 4 in a history of 6 goes before message 3",
      depth: 4,
      n: 6,
      expected: ["msg:m1", "msg:m2", "note:persona", "msg:m3", "msg:m4", "msg:m5", "msg:m6"],
      where: "before message #3",
    },
    {
      name: "depth 1 goes before the last message",
      depth: 1,
      n: 3,
      expected: ["msg:m1", "msg:m2", "note:persona", "msg:m3"],
      where: "before message #3",
    },
    {
      name: "depth 0 goes at the end",
      depth: 0,
      n: 3,
      expected: ["msg:m1", "msg:m2", "msg:m3", "note:persona"],
      where: "at the end of the history",
    },
    {
      name: "depth = n goes at the top",
      depth: 3,
      n: 3,
      expected: ["note:persona", "msg:m1", "msg:m2", "msg:m3"],
      where: "before message #1 (the top)",
    },
    {
      name: "depth > n goes at the top (not the end)",
      depth: 50,
      n: 3,
      expected: ["note:persona", "msg:m1", "msg:m2", "msg:m3"],
      where: "before message #1 (the top)",
    },
    { name: "empty history", depth: 4, n: 0, expected: ["note:persona"], where: "into an empty history" },
  ])("$name", ({ depth, n, expected, where }) => {
    const result = inject(history(n), { depth });
    expect(order(result.value)).toEqual(expected);
    expect(result.trace).toEqual([
      {
        stage: "notes",
        action: "injected-note",
        reason: `injected persona note at depth ${depth} ${where}`,
        itemIds: ["note:persona"],
        counts: { depth, target: Math.max(0, n - depth), messages: n },
      },
    ]);
  });

  it("the note is [System: note] with the configured role and tag CONTEXT_NOTE", () => {
    for (const role of ["user", "system", "assistant"] as const) {
      const note = elementAt(inject(history(2), { depth: 0, role }).value, 2);
      expect(viewItems([note])).toEqual([
        { id: "note:persona", role, tag: "CONTEXT_NOTE", text: "[System: Stay in character.]" },
      ]);
      expect(note.sourceMessageIds).toEqual([]);
    }
  });

  it("stacks the persona note and the conversation note, persona first, at the same place", () => {
    const notes = activeContextNotes({ personaNote: "P", conversationNote: "C", globalNote: "G" });
    const result = inject(history(4), { depth: 2 }, 1, notes);
    expect(viewItems(result.value).map((item) => item.text)).toEqual([
      "m1",
      "m2",
      "[System: P]",
      "[System: C]",
      "m3",
      "m4",
    ]);
    expect(result.trace.map((event) => event.itemIds)).toEqual([["note:persona"], ["note:conversation"]]);
  });

  it.each([
    { name: "persona only", input: { personaNote: "P", globalNote: "G" }, expected: ["note:persona"] },
    {
      name: "conversation only",
      input: { conversationNote: "C", globalNote: "G" },
      expected: ["note:conversation"],
    },
    { name: "global only when neither exists", input: { globalNote: "G" }, expected: ["note:global"] },
    {
      name: "blank notes do not count",
      input: { personaNote: "  ", conversationNote: "", globalNote: "G" },
      expected: ["note:global"],
    },
    { name: "none", input: {}, expected: [] },
    {
      name: "identical persona and conversation notes are injected once",
      input: { personaNote: "Same", conversationNote: "Same " },
      expected: ["note:persona"],
    },
  ])("active notes: $name", ({ input, expected }) => {
    expect(activeContextNotes(input).map((note) => note.id)).toEqual(expected);
  });

  it("never splits a message from its tool items: depth counts messages", () => {
    const toolCall: ContextItem = {
      id: "artifact:c",
      role: "assistant",
      tag: "TOOL_CALL",
      parts: [],
      sourceMessageIds: ["m2"],
      tokens: 0,
    };
    const toolResult: ContextItem = {
      id: "artifact:o",
      role: "tool",
      tag: "TOOL_RESULT",
      parts: [],
      sourceMessageIds: ["m2"],
      tokens: 0,
    };
    const items = [message(1), toolCall, toolResult, message(2), message(3)];
    expect(order(inject(items, { depth: 2 }).value)).toEqual([
      "msg:m1",
      "note:persona",
      "artifact:c",
      "artifact:o",
      "msg:m2",
      "msg:m3",
    ]);
    expect(order(inject(items, { depth: 1 }).value)).toEqual([
      "msg:m1",
      "artifact:c",
      "artifact:o",
      "msg:m2",
      "note:persona",
      "msg:m3",
    ]);
  });

  it.each([
    { frequency: 1, turn: 1, due: true },
    { frequency: 1, turn: 7, due: true },
    { frequency: 0, turn: 1, due: false },
    { frequency: 3, turn: 1, due: false },
    { frequency: 3, turn: 3, due: true },
    { frequency: 3, turn: 4, due: false },
    { frequency: 3, turn: 6, due: true },
  ])("frequency $frequency on user turn $turn: due = $due", ({ frequency, turn, due }) => {
    expect(noteIsDue(frequency, turn)).toBe(due);
    const result = inject(history(3), { frequency, depth: 0 }, turn);
    expect(result.value.some((item) => item.tag === "CONTEXT_NOTE")).toBe(due);
    if (!due) {
      expect(result.trace).toEqual([
        {
          stage: "notes",
          action: "skipped-note",
          reason: `context note not injected this turn, ${frequency === 0 ? "frequency 0 (never)" : `frequency ${frequency}: user turn ${turn} is not a multiple`}`,
          details: { notes: ["note:persona"] },
        },
      ]);
    }
  });

  it("no notes: same array, no trace", () => {
    const items = history(3);
    const result = injectContextNotes({
      items,
      notes: [],
      settings: settingsWith().contextNote,
      userTurnNumber: 1,
    });
    expect(result.value).toBe(items);
    expect(result.trace).toEqual([]);
    expect(contextNoteText("x")).toBe("[System: x]");
  });
});
