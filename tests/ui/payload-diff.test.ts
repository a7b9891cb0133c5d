// The one payload diff (inspector and admin previews), against hand-made cases: each row is a previous and a
// current payload and the entries the diff must give, in order.
import { describe, expect, test } from "vitest";
import { canonicalJson, type DiffableItem, diffItems, itemText } from "@/lib/payload-diff";

function item(id: string, parts: unknown[], overrides: Partial<DiffableItem> = {}): DiffableItem {
  return { id, role: "user", tag: "DIALOGUE_HISTORY", parts, ...overrides };
}
const text = (value: string) => ({ type: "text", text: value });
/** The same part as the database returns it: keys in another order. */
const storedText = (value: string) => JSON.parse(`{"text":${JSON.stringify(value)},"type":"text"}`);
const image = (attachmentId: string, url: string) => ({
  type: "image",
  mediaType: "image/png",
  url,
  attachmentId,
  handle: `att_${attachmentId}`,
});

/** An entry of the expected diff: the item's id, its change and that change's details (none unless given). */
const entry = (id: string, change: string, details: string[] = []): [string, string, string[]] => [
  id,
  change,
  details,
];

const system = item("system", [text("You are a guide.")], { role: "system", tag: "SYSTEM_PROMPT" });

const cases: Array<{
  name: string;
  previous: DiffableItem[];
  current: DiffableItem[];
  entries: Array<[string, string, string[]]>;
}> = [
  {
    name: "unchanged: the same payload",
    previous: [system, item("a", [text("Hi")]), item("b", [text("Hello")], { role: "assistant" })],
    current: [system, item("a", [text("Hi")]), item("b", [text("Hello")], { role: "assistant" })],
    entries: [entry("system", "same"), entry("a", "same"), entry("b", "same")],
  },
  {
    name: "key order: stored {text,type} equals fresh {type,text}",
    previous: [
      item("system", [storedText("You are a guide.")], { role: "system", tag: "SYSTEM_PROMPT" }),
      item("a", [storedText("Hi"), JSON.parse('{"input":{"b":1,"a":2},"toolName":"t","type":"tool-call"}')]),
    ],
    current: [system, item("a", [text("Hi"), { type: "tool-call", toolName: "t", input: { a: 2, b: 1 } }])],
    entries: [entry("system", "same"), entry("a", "same")],
  },
  {
    name: "edited: text, role and tag changes are named",
    previous: [system, item("a", [text("Hi")], { tag: "CURRENT_INPUT" }), item("b", [text("Old")])],
    current: [system, item("a", [text("Hi")]), item("b", [text("New")], { role: "assistant" })],
    entries: [
      entry("system", "same"),
      entry("a", "changed", ["tag CURRENT_INPUT → DIALOGUE_HISTORY"]),
      entry("b", "changed", ["role user → assistant", "content"]),
    ],
  },
  {
    name: "moved: a note that jumped to the front",
    previous: [item("x", [text("X")]), item("y", [text("Y")]), item("note", [text("N")])],
    current: [item("note", [text("N")]), item("x", [text("X")]), item("y", [text("Y")])],
    entries: [entry("note", "moved", ["position"]), entry("x", "same"), entry("y", "same")],
  },
  {
    name: "added: new items at the end and in the middle",
    previous: [system, item("a", [text("A")])],
    current: [system, item("note", [text("N")]), item("a", [text("A")]), item("b", [text("B")])],
    entries: [entry("system", "same"), entry("note", "added"), entry("a", "same"), entry("b", "added")],
  },
  {
    name: "removed: shown where they were",
    previous: [system, item("a", [text("A")]), item("b", [text("B")]), item("c", [text("C")])],
    current: [system, item("b", [text("B")]), item("c", [text("C")])],
    entries: [entry("system", "same"), entry("a", "removed"), entry("b", "same"), entry("c", "same")],
  },
  {
    name: "media: the same attachment sent as a data URL or elided is unchanged; another one is a media change",
    previous: [
      item("a", [text("Look"), image("1", "data:image/png;base64,iVBORw0KGgo=")]),
      item("b", [text("And this"), image("2", "data:image/png;base64,AAAA")]),
    ],
    current: [
      item("a", [text("Look"), image("1", "[elided: 8 bytes]")]),
      item("b", [text("And this"), image("3", "data:image/png;base64,AAAA")]),
    ],
    entries: [entry("a", "same"), entry("b", "changed", ["media"])],
  },
];

describe("diffItems: hand-made cases", () => {
  for (const row of cases) {
    test(row.name, () => {
      const diff = diffItems(row.previous, row.current);
      expect(diff.entries.map((entry) => [entry.item.id, entry.change, entry.details])).toEqual(row.entries);
      const counted = { added: 0, removed: 0, changed: 0, moved: 0, same: 0 };
      for (const [, change] of row.entries) counted[change as keyof typeof counted] += 1;
      expect(diff.counts).toEqual(counted);
    });
  }
});

describe("canonicalJson", () => {
  test("sorts keys at every depth, keeps array order, drops undefined members", () => {
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: undefined, e: null })).toBe(
      '{"b":[{"c":2,"d":1}],"e":null}',
    );
    expect(canonicalJson([3, 1])).not.toBe(canonicalJson([1, 3]));
  });
});

test("itemText joins text parts and names the others", () => {
  expect(itemText(item("a", [text("Look "), image("1", "x"), text("here")]))).toBe("Look [image]here");
});
