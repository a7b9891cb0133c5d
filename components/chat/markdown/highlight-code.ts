"use client";
// Code highlighting with shiki, loaded on demand so the chat's first load carries none of it: the core and the
// JavaScript regex engine (no WebAssembly, which the content security policy does not allow) come with the first
// code block, each language's grammar with the first block in that language. Until then the code shows as plain
// text. Colours come from GitHub's light and dark themes as CSS variables (--shiki-light, --shiki-dark), which
// app/globals.css applies by the page's theme.
import { useEffect, useMemo, useState } from "react";
import type { HighlighterCore, LanguageRegistration, ThemedToken } from "shiki/core";

type Grammar = { default: LanguageRegistration[] };

/** The languages highlighted: a small set of common ones. Anything else shows as plain text. */
const GRAMMARS: Record<string, () => Promise<Grammar>> = {
  typescript: () => import("shiki/langs/typescript.mjs"),
  tsx: () => import("shiki/langs/tsx.mjs"),
  javascript: () => import("shiki/langs/javascript.mjs"),
  jsx: () => import("shiki/langs/jsx.mjs"),
  json: () => import("shiki/langs/json.mjs"),
  python: () => import("shiki/langs/python.mjs"),
  bash: () => import("shiki/langs/bash.mjs"),
  sql: () => import("shiki/langs/sql.mjs"),
  yaml: () => import("shiki/langs/yaml.mjs"),
  html: () => import("shiki/langs/html.mjs"),
  css: () => import("shiki/langs/css.mjs"),
  go: () => import("shiki/langs/go.mjs"),
  rust: () => import("shiki/langs/rust.mjs"),
  java: () => import("shiki/langs/java.mjs"),
  c: () => import("shiki/langs/c.mjs"),
  cpp: () => import("shiki/langs/cpp.mjs"),
  diff: () => import("shiki/langs/diff.mjs"),
};

const ALIASES: Record<string, string> = {
  ts: "typescript",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  py: "python",
  sh: "bash",
  shell: "bash",
  zsh: "bash",
  console: "bash",
  yml: "yaml",
  jsonc: "json",
  rs: "rust",
  "c++": "cpp",
  h: "c",
  postgres: "sql",
  postgresql: "sql",
  patch: "diff",
};

const THEMES = { light: "github-light-default", dark: "github-dark-default" } as const;

/**
 * GitHub's light comment grey is 4.4:1 on the code background, under the 4.5:1 that text needs: its own darker
 * grey instead (6.1:1). The dark theme's colours all pass.
 */
const COLOR_REPLACEMENTS = { [THEMES.light]: { "#6e7781": "#57606a" } };

/** How long one line may take to tokenize before the rest of it is left uncoloured (a very long line). */
const LINE_TIME_LIMIT_MS = 2_000;

/** The grammar's name for a fence's language tag, or null when it is not one of ours. */
export function grammarFor(language: string): string | null {
  const name = language.trim().toLowerCase();
  const resolved = ALIASES[name] ?? name;
  return resolved in GRAMMARS ? resolved : null;
}

let highlighter: HighlighterCore | null = null;
let highlighterLoading: Promise<HighlighterCore> | null = null;
const grammarsLoading = new Map<string, Promise<void>>();

function loadHighlighter(): Promise<HighlighterCore> {
  highlighterLoading ??= Promise.all([
    import("shiki/core"),
    import("shiki/engine/javascript"),
    import("shiki/themes/github-light-default.mjs"),
    import("shiki/themes/github-dark-default.mjs"),
  ]).then(async ([{ createHighlighterCore }, { createJavaScriptRegexEngine }, light, dark]) => {
    highlighter = await createHighlighterCore({
      themes: [light.default, dark.default],
      langs: [],
      engine: createJavaScriptRegexEngine(),
    });
    return highlighter;
  });
  return highlighterLoading;
}

/** Loads the highlighter and the grammar; resolves at once when both are there. */
export function loadGrammar(grammar: string): Promise<void> {
  let loading = grammarsLoading.get(grammar);
  if (!loading) {
    loading = Promise.all([loadHighlighter(), GRAMMARS[grammar]()]).then(async ([core, module]) => {
      await core.loadLanguage(...module.default);
      // The grammar's first use compiles its regular expressions, which can take longer than the tokenizer's
      // time limit for one line (the rest of that line would come out uncoloured): pay for it here, unlimited.
      core.codeToTokens("x", { lang: grammar, theme: THEMES.light, tokenizeTimeLimit: 0 });
    });
    grammarsLoading.set(grammar, loading);
  }
  return loading;
}

function isLoaded(grammar: string | null): boolean {
  return grammar !== null && highlighter?.getLoadedLanguages().includes(grammar) === true;
}

/**
 * The code's lines of coloured tokens, or null while the grammar loads (or for a language not highlighted).
 * Each token's `htmlStyle` holds its colours as CSS variables.
 */
export function highlightNow(code: string, grammar: string | null): ThemedToken[][] | null {
  if (!highlighter || grammar === null || !isLoaded(grammar)) return null;
  return highlighter.codeToTokens(code, {
    lang: grammar,
    themes: THEMES,
    defaultColor: false,
    colorReplacements: COLOR_REPLACEMENTS,
    tokenizeTimeLimit: LINE_TIME_LIMIT_MS,
  }).tokens;
}

/** The tokens of `code` in `language`: null at first, then (once shiki and the grammar are loaded) the tokens. */
export function useHighlightedCode(code: string, language: string): ThemedToken[][] | null {
  const grammar = grammarFor(language);
  const [loaded, setLoaded] = useState(() => isLoaded(grammar));
  useEffect(() => {
    if (grammar === null || isLoaded(grammar)) return setLoaded(grammar !== null);
    let current = true;
    void loadGrammar(grammar).then(() => {
      if (current) setLoaded(true);
    });
    return () => {
      current = false;
    };
  }, [grammar]);
  return useMemo(() => (loaded ? highlightNow(code, grammar) : null), [code, grammar, loaded]);
}
