import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pointerLineRange } from "@/components/inspector/json-pointer-lines";

const BODY = {
  model: "m",
  messages: [
    { role: "system", content: "Be brief." },
    {
      role: "user",
      content: [
        { type: "text", text: "Hi" },
        { type: "image_url", image_url: { url: "x" } },
      ],
    },
    { role: "assistant", content: "", tool_calls: [] },
  ],
  "a/b": { "c~d": 1 },
};
const lines = JSON.stringify(BODY, null, 2).split("\n");
const linesOf = (pointer: string) => {
  const range = pointerLineRange(BODY, pointer);
  return range && lines.slice(range.first, range.last + 1).join("\n");
};

describe("pointerLineRange", () => {
  it.each([
    { pointer: "", expected: JSON.stringify(BODY, null, 2) },
    { pointer: "/model", expected: '  "model": "m",' },
    {
      pointer: "/messages/0",
      expected: '    {\n      "role": "system",\n      "content": "Be brief."\n    },',
    },
    {
      pointer: "/messages/1/content/0",
      expected: '        {\n          "type": "text",\n          "text": "Hi"\n        },',
    },
    { pointer: "/messages/2/tool_calls", expected: '      "tool_calls": []' },
    { pointer: "/a~1b/c~0d", expected: '    "c~d": 1' },
  ])("$pointer", ({ pointer, expected }) => {
    expect(linesOf(pointer)).toBe(expected);
  });

  it.each(["/messages/3", "/messages/01", "/nothing", "messages"])("%s does not resolve", (pointer) => {
    expect(pointerLineRange(BODY, pointer)).toBeNull();
  });

  it("every element of any JSON value starts at its own line and re-parses to itself", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value, null, 2).split("\n");
        const visit = (node: unknown, pointer: string) => {
          const range = pointerLineRange(value, pointer);
          if (range === null) throw new Error(`${pointer} did not resolve`);
          const slice = text
            .slice(range.first, range.last + 1)
            .join("\n")
            .trim()
            .replace(/,$/, "");
          const withoutKey =
            pointer === "" || Array.isArray(parentOf(value, pointer))
              ? slice
              : slice.replace(/^"(?:[^"\\]|\\.)*": /, "");
          expect(JSON.parse(withoutKey)).toEqual(node);
          if (Array.isArray(node)) {
            for (const [index, entry] of node.entries()) visit(entry, `${pointer}/${index}`);
          } else if (node && typeof node === "object")
            for (const [key, entry] of Object.entries(node))
              visit(entry, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
        };
        visit(value, "");
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});

function parentOf(root: unknown, pointer: string): unknown {
  const segments = pointer.slice(1).split("/").slice(0, -1);
  let node = root;
  for (const raw of segments)
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, "/").replace(/~0/g, "~")];
  return node;
}
