// The chat's markdown parser: what models write renders as structure, and nothing unsafe survives as a link.
import { describe, expect, test } from "vitest";
import { highlightCode } from "@/components/chat/markdown/highlight-code";
import {
  type Block,
  type Inline,
  parseInline,
  parseMarkdown,
  safeHref,
} from "@/components/chat/markdown/parse-markdown";

/** The visible text of inline nodes, links as [text](href). */
function plain(nodes: Inline[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case "text":
          return node.text;
        case "code":
          return `\`${node.text}\``;
        case "break":
          return "\n";
        case "link":
          return `[${plain(node.children)}](${node.href})`;
        default:
          return `<${node.type}>${plain(node.children)}</${node.type}>`;
      }
    })
    .join("");
}

function shape(blocks: Block[]): unknown[] {
  return blocks.map((block) => {
    switch (block.type) {
      case "paragraph":
        return ["p", plain(block.children)];
      case "heading":
        return [`h${block.level}`, plain(block.children)];
      case "code":
        return ["code", block.language, block.text, block.closed];
      case "quote":
        return ["quote", shape(block.children)];
      case "list":
        return [block.ordered ? `ol@${block.start}` : "ul", block.items.map(shape)];
      case "rule":
        return ["hr"];
      case "table":
        return ["table", block.align, block.header.map(plain), block.rows.map((row) => row.map(plain))];
      default:
        return [];
    }
  });
}

describe("blocks", () => {
  test.each([
    {
      name: "paragraphs keep line breaks",
      source: "one\ntwo\n\nthree",
      expected: [
        ["p", "one\ntwo"],
        ["p", "three"],
      ],
    },
    {
      name: "headings",
      source: "# Title\n### Sub ###",
      expected: [
        ["h1", "Title"],
        ["h3", "Sub"],
      ],
    },
    {
      name: "a fenced block keeps its text verbatim",
      source: "```ts\nconst a = 1;\n\n<b>x</b>\n```\nafter",
      expected: [
        ["code", "ts", "const a = 1;\n\n<b>x</b>", true],
        ["p", "after"],
      ],
    },
    {
      name: "an unclosed fence while streaming runs to the end",
      source: "```py\nprint(1)",
      expected: [["code", "py", "print(1)", false]],
    },
    { name: "a rule", source: "a\n\n---\n\nb", expected: [["p", "a"], ["hr"], ["p", "b"]] },
    { name: "a block quote", source: "> quoted\n> more", expected: [["quote", [["p", "quoted\nmore"]]]] },
    {
      name: "nested lists",
      source: "- one\n- two\n  - two.a\n  - two.b\n- three",
      expected: [
        [
          "ul",
          [
            [["p", "one"]],
            [
              ["p", "two"],
              ["ul", [[["p", "two.a"]], [["p", "two.b"]]]],
            ],
            [["p", "three"]],
          ],
        ],
      ],
    },
    {
      name: "an ordered list keeps its start",
      source: "3. c\n4. d",
      expected: [["ol@3", [[["p", "c"]], [["p", "d"]]]]],
    },
    {
      name: "a GFM table with alignment",
      source: "| a | b |\n|:--|--:|\n| 1 | 2 |\n| x \\| y | |",
      expected: [
        [
          "table",
          ["left", "right"],
          ["a", "b"],
          [
            ["1", "2"],
            ["x | y", ""],
          ],
        ],
      ],
    },
  ])("$name", ({ source, expected }) => {
    expect(shape(parseMarkdown(source))).toEqual(expected);
  });
});

describe("inline", () => {
  test.each([
    {
      source: "**bold** and *em* and ~~gone~~",
      expected: "<strong>bold</strong> and <em>em</em> and <del>gone</del>",
    },
    { source: "snake_case_name stays", expected: "snake_case_name stays" },
    { source: "2 * 3 * 4", expected: "2 * 3 * 4" },
    { source: "use `a **b**` here", expected: "use `a **b**` here" },
    { source: "``code with ` tick``", expected: "`code with ` tick`" },
    { source: "\\*not em\\*", expected: "*not em*" },
    { source: "see [docs](https://example.com/a?b=1)", expected: "see [docs](https://example.com/a?b=1)" },
    {
      source: "[wiki](https://en.wikipedia.org/wiki/Rust_(language)) ok",
      expected: "[wiki](https://en.wikipedia.org/wiki/Rust_(language)) ok",
    },
    {
      source: "visit https://example.com/path.",
      expected: "visit [https://example.com/path](https://example.com/path).",
    },
    { source: "<https://a.example>", expected: "[https://a.example](https://a.example)" },
    { source: "![cat](https://img.example/cat.png)", expected: "[image: cat](https://img.example/cat.png)" },
    { source: "<script>alert(1)</script>", expected: "<script>alert(1)</script>" },
  ])("$source", ({ source, expected }) => {
    expect(plain(parseInline(source))).toBe(expected);
  });

  test.each([
    "javascript:alert(1)",
    "JAVASCRIPT:alert(1)",
    " javascript:alert(1)",
    "data:text/html;base64,PHNjcmlwdD4=",
    "vbscript:msgbox",
    "//evil.example/x",
    "file:///etc/passwd",
  ])("an unsafe link target %s becomes plain text", (href) => {
    expect(safeHref(href)).toBeNull();
    const nodes = parseInline(`[click](${href})`);
    expect(nodes.some((node) => node.type === "link")).toBe(false);
    expect(plain(nodes)).toBe("click");
  });
});

describe("code highlighting", () => {
  test("tokens concatenate back to the exact source", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source under test, not a template
    const source = 'const x = "a // b"; // note\nlet n = 0x1f + 2.5e3;\n`tpl ${x}`';
    const tokens = highlightCode(source, "ts");
    expect(tokens.map((token) => token.text).join("")).toBe(source);
    expect(tokens.filter((token) => token.type === "comment").map((token) => token.text)).toEqual([
      "// note",
    ]);
    expect(tokens.filter((token) => token.type === "string").map((token) => token.text)).toEqual([
      '"a // b"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source under test, not a template
      "`tpl ${x}`",
    ]);
    expect(tokens.filter((token) => token.type === "keyword").map((token) => token.text)).toEqual([
      "const",
      "let",
    ]);
  });

  test("JSON keys and values are told apart; an unknown language has no comments", () => {
    const tokens = highlightCode('{"a": "b", "n": 1, "t": true}', "json");
    expect(tokens.filter((token) => token.type === "key").map((token) => token.text)).toEqual([
      '"a"',
      '"n"',
      '"t"',
    ]);
    expect(highlightCode("# not a comment", "brainfuck").some((token) => token.type === "comment")).toBe(
      false,
    );
  });
});
