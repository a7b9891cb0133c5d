// A light, regex-based highlighter for fenced code (no highlighter library is installed): comments, strings,
// numbers and the keywords of common languages. Unknown languages get strings and numbers only, so a `#` in an
// unknown language is never mistaken for a comment. Output is plain tokens; the renderer makes spans.

export type CodeTokenType = "keyword" | "string" | "number" | "comment" | "key" | "literal" | "plain";

export interface CodeToken {
  type: CodeTokenType;
  text: string;
}

const C_LIKE_KEYWORDS =
  "abstract as async await break case catch class const continue debugger default delete do else enum export extends final finally fn for from func function go if impl implements import in instanceof interface let loop match mod module mut new package private protected pub public readonly return static struct super switch this throw trait try type typeof use var void where while with yield";
const PYTHON_KEYWORDS =
  "and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield";
const SHELL_KEYWORDS =
  "if then else elif fi for while do done case esac in function return export local set unset echo cd";
const SQL_KEYWORDS =
  "select from where and or not insert into values update set delete create table index drop alter join left right inner outer on group by order having limit offset as distinct union all primary key references null is in like between case when then else end returning with";
const LITERALS = "true false null undefined None True False nil NaN Infinity";

type Family = "c" | "python" | "shell" | "sql" | "json" | "yaml" | "plain";

const FAMILY_BY_LANGUAGE: Record<string, Family> = {
  js: "c",
  javascript: "c",
  jsx: "c",
  ts: "c",
  typescript: "c",
  tsx: "c",
  mjs: "c",
  cjs: "c",
  java: "c",
  c: "c",
  cpp: "c",
  "c++": "c",
  h: "c",
  cs: "c",
  csharp: "c",
  go: "c",
  rust: "c",
  rs: "c",
  kotlin: "c",
  swift: "c",
  php: "c",
  scala: "c",
  dart: "c",
  py: "python",
  python: "python",
  rb: "python",
  ruby: "python",
  sh: "shell",
  bash: "shell",
  zsh: "shell",
  shell: "shell",
  console: "shell",
  sql: "sql",
  postgres: "sql",
  postgresql: "sql",
  json: "json",
  jsonc: "json",
  json5: "json",
  yaml: "yaml",
  yml: "yaml",
  toml: "yaml",
  ini: "yaml",
};

function wordSet(words: string, caseInsensitive = false): Set<string> {
  return new Set(words.split(" ").map((word) => (caseInsensitive ? word.toLowerCase() : word)));
}

const KEYWORDS: Record<Family, Set<string>> = {
  c: wordSet(C_LIKE_KEYWORDS),
  python: wordSet(PYTHON_KEYWORDS),
  shell: wordSet(SHELL_KEYWORDS),
  sql: wordSet(SQL_KEYWORDS, true),
  json: new Set(),
  yaml: new Set(),
  plain: new Set(),
};
const LITERAL_SET = wordSet(LITERALS);

const COMMENT: Record<Family, RegExp | null> = {
  c: /\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/y,
  python: /#[^\n]*/y,
  shell: /#[^\n]*/y,
  sql: /--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/y,
  json: /\/\/[^\n]*/y,
  yaml: /#[^\n]*/y,
  plain: null,
};

const STRING = /"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|`(?:[^`\\]|\\.)*`?/y;
const NUMBER = /(?:0x[\da-f]+|\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?)\b/iy;
const WORD = /[A-Za-z_$][\w$]*/y;

function match(pattern: RegExp, text: string, index: number): string | null {
  pattern.lastIndex = index;
  const found = pattern.exec(text);
  return found ? found[0] : null;
}

/** Highlighting stops after this many characters; the rest is plain (long pastes stay fast). */
const MAX_HIGHLIGHT_CHARS = 60_000;

export function highlightCode(code: string, language: string): CodeToken[] {
  const family = FAMILY_BY_LANGUAGE[language.toLowerCase()] ?? "plain";
  const tokens: CodeToken[] = [];
  let plain = "";
  const push = (type: CodeTokenType, text: string) => {
    if (plain) tokens.push({ type: "plain", text: plain });
    plain = "";
    tokens.push({ type, text });
  };

  const limit = Math.min(code.length, MAX_HIGHLIGHT_CHARS);
  let index = 0;
  while (index < limit) {
    const comment = COMMENT[family] && match(COMMENT[family] as RegExp, code, index);
    if (comment) {
      push("comment", comment);
      index += comment.length;
      continue;
    }
    const char = code[index];
    if (char === '"' || char === "'" || (char === "`" && family === "c")) {
      const string = match(STRING, code, index) as string;
      const isKey =
        (family === "json" || family === "yaml") &&
        /^\s*:/.test(code.slice(index + string.length, index + string.length + 4));
      push(isKey ? "key" : "string", string);
      index += string.length;
      continue;
    }
    if (/\d/.test(char) && !/[\w$]/.test(code[index - 1] ?? "")) {
      const number = match(NUMBER, code, index);
      if (number) {
        push("number", number);
        index += number.length;
        continue;
      }
    }
    if (/[A-Za-z_$]/.test(char)) {
      const word = match(WORD, code, index) as string;
      const keywords = KEYWORDS[family];
      if (keywords.has(family === "sql" ? word.toLowerCase() : word)) push("keyword", word);
      else if (LITERAL_SET.has(word) && family !== "plain") push("literal", word);
      else if (
        family === "yaml" &&
        /^\s*:/.test(code.slice(index + word.length, index + word.length + 3)) &&
        /(^|\n)\s*(- )?$/.test(code.slice(Math.max(0, index - 40), index))
      )
        push("key", word);
      else plain += word;
      index += word.length;
      continue;
    }
    plain += char;
    index += 1;
  }
  plain += code.slice(index);
  if (plain) tokens.push({ type: "plain", text: plain });
  return tokens;
}
