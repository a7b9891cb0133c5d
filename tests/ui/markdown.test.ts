// The chat's markdown: what models write renders as structure (react-markdown + GFM), and nothing unsafe
// survives: no raw HTML, no script links, no fetched images.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { grammarFor, highlightNow, loadGrammar } from "@/components/chat/markdown/highlight-code";
import { Markdown, safeHref } from "@/components/chat/markdown/markdown";

/** Rendered HTML, with the newlines react-markdown puts between block tags removed. */
function render(text: string): string {
  return renderToStaticMarkup(createElement(Markdown, { text })).replace(/\n(?=<)|(?<=>)\n/g, "");
}

describe("structure", () => {
  test.each([
    { name: "paragraphs", source: "one\n\nthree", contains: ["<p>one</p>", "<p>three</p>"] },
    { name: "headings", source: "# Title\n\n## Sub", contains: ["<h1>Title</h1>", "<h2>Sub</h2>"] },
    {
      name: "emphasis and inline code",
      source: "**bold** _it_ `x < y`",
      contains: ["<strong>bold</strong>", "<em>it</em>", "<code>x &lt; y</code>"],
    },
    {
      name: "nested lists",
      source: "- a\n  - b\n- c",
      contains: ["<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>"],
    },
    { name: "an ordered list keeps its start", source: "3. three\n4. four", contains: ['<ol start="3">'] },
    {
      name: "a GFM table with alignment",
      source: "| a | b |\n|:--|--:|\n| 1 | 2 |",
      contains: ["<table>", '<th style="text-align:left">a</th>', '<td style="text-align:right">2</td>'],
    },
    { name: "strikethrough", source: "~~gone~~", contains: ["<del>gone</del>"] },
    {
      name: "a fenced block keeps its text verbatim",
      source: "```ts\nconst a = 1 < 2;\n```",
      contains: ['data-testid="code-block"', 'data-language="ts"', "&lt;"],
    },
  ])("$name", ({ source, contains }) => {
    const html = render(source);
    for (const fragment of contains) expect(html).toContain(fragment);
  });
});

describe("safety", () => {
  test("raw HTML is shown as text, never rendered as elements", () => {
    const html = render('<script>alert(1)</script><img src=x onerror="alert(2)"> <b>bold?</b>');
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  /** A link to `scheme` + `rest`, and the scheme that must not survive. */
  const linkTo = (scheme: string, rest: string): [string, string] => [`[x](${scheme}${rest})`, scheme];
  test.each([
    linkTo("javascript:", "alert(1)"),
    linkTo("data:", "text/html,<script>alert(1)</script>"),
    linkTo("vbscript:", "msgbox"),
  ])("an unsafe link target is dropped: %s", (source, scheme) => {
    const html = render(source);
    expect(html).not.toContain(scheme);
    expect(html).toContain("<span>x</span>");
  });

  test("safe links open in a new tab without a referrer", () => {
    expect(render("[docs](https://example.com/a)")).toContain(
      '<a href="https://example.com/a" target="_blank" rel="noopener noreferrer nofollow">docs</a>',
    );
    expect(render("[home](/chat)")).toContain('<a href="/chat">home</a>');
  });

  test("images in replies become links, never fetched", () => {
    const html = render("![a cat](https://example.com/cat.png)");
    expect(html).not.toContain("<img");
    expect(html).toContain('<a href="https://example.com/cat.png"');
  });

  test.each([
    ["https://example.com", "https://example.com"],
    ["mailto:a@example.com", "mailto:a@example.com"],
    ["/chat/1", "/chat/1"],
    ["//evil.example", null],
    ["javascript:alert(1)", null],
    ["  JAVASCRIPT:alert(1)", null],
    ["", null],
  ])("safeHref(%j) = %j", (href, expected) => {
    expect(safeHref(href)).toBe(expected);
  });
});

describe("code highlighting (shiki)", () => {
  /** Each token's text and its light theme colour. */
  function coloured(code: string, grammar: string) {
    return (highlightNow(code, grammar) ?? []).map((line) =>
      line.map((token) => [token.content, token.htmlStyle?.["--shiki-light"]]),
    );
  }

  test("nothing until the grammar is loaded; then the tokens, in both themes' colours", async () => {
    expect(highlightNow("let n = 1;", "rust")).toBeNull();
    await loadGrammar("rust");
    const [[first]] = highlightNow("let n = 1;", "rust") ?? [[]];
    expect(first).toMatchObject({
      content: "let",
      htmlStyle: { "--shiki-light": "#CF222E", "--shiki-dark": "#FF7B72" },
    });
  });

  test("comments, strings and keywords are told apart, and the tokens give back the exact source", async () => {
    await loadGrammar("typescript");
    const source = 'const x = "a // b"; // note\nlet n = 0x1f;';
    const lines = highlightNow(source, "typescript") ?? [];
    expect(lines.map((line) => line.map((token) => token.content).join("")).join("\n")).toBe(source);
    expect(coloured(source, "typescript")).toEqual([
      [
        ["const", "#CF222E"],
        [" ", "#1F2328"],
        ["x", "#0550AE"],
        [" ", "#1F2328"],
        ["=", "#CF222E"],
        [" ", "#1F2328"],
        ['"a // b"', "#0A3069"],
        ["; ", "#1F2328"],
        ["// note", "#57606a"],
      ],
      [
        ["let", "#CF222E"],
        [" n ", "#1F2328"],
        ["=", "#CF222E"],
        [" ", "#1F2328"],
        ["0x1f", "#0550AE"],
        [";", "#1F2328"],
      ],
    ]);
  });

  test("JSON keys and values are told apart", async () => {
    await loadGrammar("json");
    expect(coloured('{"a": "b", "t": true}', "json")).toEqual([
      [
        ["{", "#1F2328"],
        ['"a"', "#116329"],
        [": ", "#1F2328"],
        ['"b"', "#0A3069"],
        [", ", "#1F2328"],
        ['"t"', "#116329"],
        [": ", "#1F2328"],
        ["true", "#0550AE"],
        ["}", "#1F2328"],
      ],
    ]);
  });

  test("a fence's tag names a grammar through its aliases; an unknown language is not highlighted", () => {
    expect(grammarFor("ts")).toBe("typescript");
    expect(grammarFor(" PY ")).toBe("python");
    expect(grammarFor("sh")).toBe("bash");
    expect(grammarFor("brainfuck")).toBeNull();
    expect(grammarFor("")).toBeNull();
    expect(highlightNow("# not a comment", grammarFor("brainfuck"))).toBeNull();
  });
});
