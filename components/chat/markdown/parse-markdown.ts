// A small CommonMark-flavoured parser for chat replies (no markdown library is installed). It produces a plain
// tree that `markdown.tsx` renders as React elements, so model text never becomes HTML: raw tags stay text,
// and links are kept only for http(s), mailto and same-site paths. Covers what models write: paragraphs with
// hard line breaks, headings, fenced code (an unclosed fence while streaming runs to the end), block quotes,
// nested lists, GFM tables and rules; inline code, strong, emphasis, strikethrough, links and bare URLs.

export type Inline =
  | { type: "text"; text: string }
  | { type: "code"; text: string }
  | { type: "strong" | "em" | "del"; children: Inline[] }
  | { type: "link"; href: string; children: Inline[] }
  | { type: "break" };

export type Alignment = "left" | "center" | "right" | null;

export type Block =
  | { type: "paragraph"; children: Inline[] }
  | { type: "heading"; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { type: "code"; language: string; text: string; closed: boolean }
  | { type: "quote"; children: Block[] }
  | { type: "list"; ordered: boolean; start: number; items: Block[][] }
  | { type: "rule" }
  | { type: "table"; align: Alignment[]; header: Inline[][]; rows: Inline[][][] };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}> ?/;
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])(?:\s+(.*))?$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/** Recursion guard: nested quotes and lists deeper than this are shown as text. */
const MAX_DEPTH = 12;

export function parseMarkdown(source: string): Block[] {
  return parseBlocks(source.replace(/\r\n?/g, "\n").split("\n"), 0);
}

function parseBlocks(lines: string[], depth: number): Block[] {
  const blocks: Block[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index];
    if (!line.trim()) {
      index += 1;
      continue;
    }

    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1];
      const body: string[] = [];
      let closed = false;
      index += 1;
      const closing = new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}\\s*$`);
      while (index < lines.length) {
        if (closing.test(lines[index])) {
          closed = true;
          index += 1;
          break;
        }
        body.push(lines[index]);
        index += 1;
      }
      blocks.push({ type: "code", language: fence[2].toLowerCase(), text: body.join("\n"), closed });
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading) {
      const level = heading[1].length as 1 | 2 | 3 | 4 | 5 | 6;
      blocks.push({ type: "heading", level, children: parseInline(heading[2] ?? "") });
      index += 1;
      continue;
    }

    if (RULE.test(line)) {
      blocks.push({ type: "rule" });
      index += 1;
      continue;
    }

    if (QUOTE.test(line) && depth < MAX_DEPTH) {
      const inner: string[] = [];
      while (index < lines.length && QUOTE.test(lines[index])) {
        inner.push(lines[index].replace(QUOTE, ""));
        index += 1;
      }
      blocks.push({ type: "quote", children: parseBlocks(inner, depth + 1) });
      continue;
    }

    const item = LIST_ITEM.exec(line);
    if (item && depth < MAX_DEPTH) {
      const parsed = parseList(lines, index, depth);
      blocks.push(parsed.block);
      index = parsed.next;
      continue;
    }

    if (line.includes("|") && index + 1 < lines.length && TABLE_SEPARATOR.test(lines[index + 1])) {
      const parsed = parseTable(lines, index);
      if (parsed) {
        blocks.push(parsed.block);
        index = parsed.next;
        continue;
      }
    }

    const paragraph: string[] = [line.trim()];
    index += 1;
    while (index < lines.length && lines[index].trim() && !startsBlock(lines[index])) {
      paragraph.push(lines[index].trim());
      index += 1;
    }
    blocks.push({ type: "paragraph", children: parseInline(paragraph.join("\n")) });
  }
  return blocks;
}

function startsBlock(line: string): boolean {
  return (
    FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || LIST_ITEM.test(line)
  );
}

function parseList(lines: string[], start: number, depth: number): { block: Block; next: number } {
  const first = LIST_ITEM.exec(lines[start]) as RegExpExecArray;
  const ordered = /\d/.test(first[2]);
  const indent = first[1].length;
  const items: string[][] = [];
  let current: string[] | null = null;
  let contentIndent = 0;
  let index = start;
  let pendingBlank = false;

  while (index < lines.length) {
    const line = lines[index];
    const marker = LIST_ITEM.exec(line);
    if (marker && marker[1].length === indent && /\d/.test(marker[2]) === ordered) {
      current = [marker[3] ?? ""];
      items.push(current);
      contentIndent = indent + marker[2].length + 1;
      pendingBlank = false;
      index += 1;
      continue;
    }
    if (!line.trim()) {
      pendingBlank = true;
      index += 1;
      continue;
    }
    const lineIndent = line.length - line.trimStart().length;
    if (current && lineIndent >= Math.min(contentIndent, indent + 2)) {
      if (pendingBlank) current.push("");
      current.push(line.slice(Math.min(lineIndent, contentIndent)));
      pendingBlank = false;
      index += 1;
      continue;
    }
    // A lazy continuation line belongs to the item's paragraph; anything else ends the list.
    if (current && !pendingBlank && !startsBlock(line)) {
      current.push(line.trim());
      index += 1;
      continue;
    }
    break;
  }
  // Trailing blank lines were consumed; give them back so the caller's position is right.
  while (index > start && !lines[index - 1].trim()) index -= 1;
  return {
    block: {
      type: "list",
      ordered,
      start: ordered ? Number.parseInt(first[2], 10) : 1,
      items: items.map((itemLines) => parseBlocks(itemLines, depth + 1)),
    },
    next: index,
  };
}

function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith("|")) row = row.slice(1);
  if (row.endsWith("|") && !row.endsWith("\\|")) row = row.slice(0, -1);
  const cells: string[] = [];
  let cell = "";
  for (let index = 0; index < row.length; index += 1) {
    if (row[index] === "\\" && row[index + 1] === "|") {
      cell += "|";
      index += 1;
    } else if (row[index] === "|") {
      cells.push(cell.trim());
      cell = "";
    } else {
      cell += row[index];
    }
  }
  cells.push(cell.trim());
  return cells;
}

function parseTable(lines: string[], start: number): { block: Block; next: number } | null {
  const header = splitRow(lines[start]);
  const align = splitRow(lines[start + 1]).map((spec): Alignment => {
    const left = spec.startsWith(":");
    const right = spec.endsWith(":");
    return left && right ? "center" : right ? "right" : left ? "left" : null;
  });
  if (align.length !== header.length) return null;
  const rows: Inline[][][] = [];
  let index = start + 2;
  while (
    index < lines.length &&
    lines[index].trim() &&
    lines[index].includes("|") &&
    !startsBlock(lines[index])
  ) {
    const cells = splitRow(lines[index]);
    rows.push(header.map((_, column) => parseInline(cells[column] ?? "")));
    index += 1;
  }
  return {
    block: { type: "table", align, header: header.map((cell) => parseInline(cell)), rows },
    next: index,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Inline

const PUNCTUATION = /[!-/:-@[-`{-~]/;
const BARE_URL = /^https?:\/\/[^\s<>"'`]+/i;
const TRAILING_URL_PUNCTUATION = /[.,:;!?)\]'"]+$/;

/** Only these links are followed; anything else (javascript:, data:, vbscript:, …) stays plain text. */
export function safeHref(raw: string): string | null {
  const href = raw.trim();
  if (/^(https?:|mailto:)/i.test(href)) return href;
  if (href.startsWith("/") && !href.startsWith("//")) return href;
  if (href.startsWith("#")) return href;
  return null;
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}]/u.test(char);
}

export function parseInline(text: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  let buffer = "";
  const flush = () => {
    if (buffer) out.push({ type: "text", text: buffer });
    buffer = "";
  };

  let index = 0;
  while (index < text.length) {
    const char = text[index];

    if (char === "\\" && index + 1 < text.length && PUNCTUATION.test(text[index + 1])) {
      buffer += text[index + 1];
      index += 2;
      continue;
    }

    if (char === "\n") {
      flush();
      out.push({ type: "break" });
      index += 1;
      continue;
    }

    if (char === "`") {
      let run = 1;
      while (text[index + run] === "`") run += 1;
      const fence = "`".repeat(run);
      let close = text.indexOf(fence, index + run);
      while (close !== -1 && text[close + run] === "`") close = text.indexOf(fence, close + run + 1);
      if (close !== -1) {
        flush();
        let code = text.slice(index + run, close).replace(/\n/g, " ");
        if (code.length > 2 && code.startsWith(" ") && code.endsWith(" ")) code = code.slice(1, -1);
        out.push({ type: "code", text: code });
        index = close + run;
        continue;
      }
      buffer += fence;
      index += run;
      continue;
    }

    if (depth < MAX_DEPTH && (char === "[" || (char === "!" && text[index + 1] === "["))) {
      const isImage = char === "!";
      const link = readLink(text, index + (isImage ? 1 : 0));
      if (link) {
        flush();
        const href = safeHref(link.href);
        if (isImage) {
          // Images are not loaded from model-chosen URLs: they become a link to the image.
          const label: Inline = { type: "text", text: `image: ${link.label || link.href}` };
          out.push(href ? { type: "link", href, children: [label] } : label);
        } else if (href) {
          out.push({ type: "link", href, children: parseInline(link.label, depth + 1) });
        } else {
          out.push(...parseInline(link.label, depth + 1));
        }
        index = link.end;
        continue;
      }
    }

    if (char === "<") {
      const close = text.indexOf(">", index);
      const inner = close === -1 ? "" : text.slice(index + 1, close);
      if (/^https?:\/\/[^\s<>]+$/i.test(inner) || /^mailto:[^\s<>]+$/i.test(inner)) {
        flush();
        out.push({
          type: "link",
          href: inner,
          children: [{ type: "text", text: inner.replace(/^mailto:/i, "") }],
        });
        index = close + 1;
        continue;
      }
    }

    if ((char === "h" || char === "H") && !isWordChar(text[index - 1])) {
      const match = BARE_URL.exec(text.slice(index, index + 2_048));
      if (match) {
        const url = match[0].replace(TRAILING_URL_PUNCTUATION, "");
        flush();
        out.push({ type: "link", href: url, children: [{ type: "text", text: url }] });
        index += url.length;
        continue;
      }
    }

    if (depth < MAX_DEPTH && (char === "*" || char === "_" || char === "~")) {
      const emphasis = readEmphasis(text, index, depth);
      if (emphasis) {
        flush();
        out.push(emphasis.node);
        index = emphasis.end;
        continue;
      }
    }

    buffer += char;
    index += 1;
  }
  flush();
  return out;
}

/** `[label](href "title")` starting at `start` (the `[`), with nested brackets in the label. */
function readLink(text: string, start: number): { label: string; href: string; end: number } | null {
  let depth = 0;
  let index = start;
  for (; index < text.length; index += 1) {
    const char = text[index];
    if (char === "\\") {
      index += 1;
      continue;
    }
    if (char === "[") depth += 1;
    else if (char === "]") {
      depth -= 1;
      if (depth === 0) break;
    } else if (char === "\n" && text[index + 1] === "\n") return null;
  }
  if (depth !== 0 || text[index + 1] !== "(") return null;
  const labelEnd = index;
  // The target may hold balanced parentheses (wiki URLs, and `javascript:alert(1)` must not leave a stray ")").
  let close = -1;
  let parens = 0;
  for (let cursor = labelEnd + 2; cursor < text.length && cursor < labelEnd + 4_096; cursor += 1) {
    const char = text[cursor];
    if (char === "\\") cursor += 1;
    else if (char === "\n") break;
    else if (char === "(") parens += 1;
    else if (char === ")") {
      if (parens === 0) {
        close = cursor;
        break;
      }
      parens -= 1;
    }
  }
  if (close === -1) return null;
  const target = text.slice(labelEnd + 2, close).trim();
  const href = target.replace(/\s+"[^"]*"$/, "").replace(/^<(.*)>$/, "$1");
  if (!href || /\s/.test(href)) return null;
  return { label: text.slice(start + 1, labelEnd), href, end: close + 1 };
}

function readEmphasis(text: string, start: number, depth: number): { node: Inline; end: number } | null {
  const char = text[start];
  const double = text[start + 1] === char;
  if (char === "~" && !double) return null;
  const delimiter = double ? char + char : char;
  const contentStart = start + delimiter.length;
  const next = text[contentStart];
  if (next === undefined || /\s/.test(next) || next === char) return null;
  // Intra-word underscores (snake_case) are not emphasis.
  if (char === "_" && isWordChar(text[start - 1])) return null;

  let search = contentStart + 1;
  while (search < text.length) {
    const close = text.indexOf(delimiter, search);
    if (close === -1) return null;
    const before = text[close - 1];
    const after = text[close + delimiter.length];
    const closesHere =
      !/\s/.test(before) &&
      (double || after !== char) &&
      (char !== "_" || !isWordChar(after)) &&
      !text.slice(contentStart, close).includes("\n\n");
    if (closesHere) {
      const children = parseInline(text.slice(contentStart, close), depth + 1);
      const type = char === "~" ? "del" : double ? "strong" : "em";
      return { node: { type, children }, end: close + delimiter.length };
    }
    search = close + 1;
  }
  return null;
}
